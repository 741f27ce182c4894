package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ollama/ollama/api"
)

// fakeOllama speaks Ollama's wire format for /api/embed and /api/tags. Its vectors are a
// function of the input text and deliberately not unit length, so tests can recompute what
// each text should get and see that the client normalises.
type fakeOllama struct {
	t      *testing.T
	dims   atomic.Int32
	models []string

	down     atomic.Bool  // drop every connection without an answer
	fail503  atomic.Int32 // answer this many /api/embed calls with 503 first
	status   atomic.Int32 // if non-zero, answer every /api/embed call with this status
	inFlight atomic.Int32
	maxSeen  atomic.Int32

	mu     sync.Mutex
	block  chan struct{} // if set, /api/embed waits for it to close (or the client to give up)
	inputs [][]string    // one entry per /api/embed call that got vectors
	calls  int           // every /api/embed call, answered or not
}

func newFake(t *testing.T, models ...string) *fakeOllama {
	f := &fakeOllama{t: t, models: models}
	f.dims.Store(8)
	return f
}

func (f *fakeOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.down.Load() {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
		var resp api.ListResponse
		for _, m := range f.models {
			resp.Models = append(resp.Models, api.ListModelResponse{Name: m, Model: m})
		}
		json.NewEncoder(w).Encode(resp)
	case r.Method == http.MethodPost && r.URL.Path == "/api/embed":
		f.embed(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeOllama) embed(w http.ResponseWriter, r *http.Request) {
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for {
		m := f.maxSeen.Load()
		if n <= m || f.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":"bad json"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.calls++
	block := f.block
	f.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-r.Context().Done():
			return
		}
	}
	if f.fail503.Add(-1) >= 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":"server busy, please try again.  maximum pending requests exceeded"}`))
		return
	}
	if s := f.status.Load(); s != 0 {
		w.WriteHeader(int(s))
		fmt.Fprintf(w, `{"error":"model %q not found, try pulling it first"}`, req.Model)
		return
	}
	f.mu.Lock()
	f.inputs = append(f.inputs, req.Input)
	f.mu.Unlock()
	resp := api.EmbedResponse{Model: req.Model}
	for _, text := range req.Input {
		resp.Embeddings = append(resp.Embeddings, fakeVector(text, int(f.dims.Load())))
	}
	json.NewEncoder(w).Encode(resp)
}

func (f *fakeOllama) setBlock(c chan struct{}) {
	f.mu.Lock()
	f.block = c
	f.mu.Unlock()
}

func (f *fakeOllama) callCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *fakeOllama) batches() [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]string(nil), f.inputs...)
}

// fakeVector is the server's vector for a text: unnormalised, norm well above 1.
func fakeVector(text string, dims int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	x := h.Sum64()
	v := make([]float32, dims)
	for i := range v {
		x = x*6364136223846793005 + 1442695040888963407
		v[i] = float32(int64(x>>40)%1000) / 100 // in (-10, 10)
	}
	return v
}

func startFake(t *testing.T, f *fakeOllama) *httptest.Server {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return srv
}

func newTestOllama(t *testing.T, opts OllamaOptions) *Ollama {
	t.Helper()
	if opts.RetryBackoff == 0 {
		opts.RetryBackoff = 5 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	o, err := NewOllama(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return o
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("text number %d", i)
	}
	return out
}

func TestOllamaBatchesInOrderAndLearnsDimensions(t *testing.T) {
	f := newFake(t)
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL})

	if info := o.Info(); info.Dimensions != 768 || info.Key != "ollama/nomic-embed-text/768" {
		t.Fatalf("before any answer Info = %+v, want the configured 768", info)
	}
	in := texts(100)
	vecs, err := o.Embed(context.Background(), in, Document)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, b := range f.batches() {
		sizes = append(sizes, len(b))
	}
	if fmt.Sprint(sizes) != "[32 32 32 4]" {
		t.Fatalf("batch sizes %v, want [32 32 32 4]", sizes)
	}
	if len(vecs) != len(in) {
		t.Fatalf("%d vectors for %d texts", len(vecs), len(in))
	}
	for i, v := range vecs {
		want := fakeVector("search_document: "+in[i], 8)
		normalize(want)
		for j := range want {
			if math.Abs(float64(v[j]-want[j])) > 1e-6 {
				t.Fatalf("vector %d is not the one for its text (order lost?)", i)
			}
		}
	}
	want := Info{Provider: "ollama", Model: "nomic-embed-text", Dimensions: 8, Key: "ollama/nomic-embed-text/8"}
	if info := o.Info(); info != want {
		t.Fatalf("after the first answer Info = %+v, want %+v", info, want)
	}
}

func TestOllamaBatchSizeClamped(t *testing.T) {
	for _, c := range []struct{ set, want int }{{0, 32}, {5, 16}, {40, 40}, {1000, 64}} {
		f := newFake(t)
		srv := startFake(t, f)
		o := newTestOllama(t, OllamaOptions{Host: srv.URL, BatchSize: c.set})
		if _, err := o.Embed(context.Background(), texts(130), Query); err != nil {
			t.Fatal(err)
		}
		if got := len(f.batches()[0]); got != c.want {
			t.Errorf("BatchSize %d: batches of %d, want %d", c.set, got, c.want)
		}
	}
}

func TestOllamaNomicPrefixes(t *testing.T) {
	f := newFake(t)
	srv := startFake(t, f)
	nomic := newTestOllama(t, OllamaOptions{Host: srv.URL, Model: "nomic-embed-text:v1.5"})
	other := newTestOllama(t, OllamaOptions{Host: srv.URL, Model: "mxbai-embed-large"})
	ctx := context.Background()
	for _, step := range []struct {
		o    *Ollama
		p    Purpose
		want string
	}{
		{nomic, Document, "search_document: a chunk"},
		{nomic, Query, "search_query: a chunk"},
		{other, Document, "a chunk"},
		{other, Query, "a chunk"},
	} {
		if _, err := step.o.Embed(ctx, []string{"a chunk"}, step.p); err != nil {
			t.Fatal(err)
		}
		b := f.batches()
		if got := b[len(b)-1][0]; got != step.want {
			t.Errorf("%s %v: sent %q, want %q", step.o.model, step.p, got, step.want)
		}
	}
	if _, err := nomic.Embed(ctx, []string{"x"}, Purpose(0)); err == nil {
		t.Error("the zero Purpose should be rejected")
	}
}

func TestOllamaTruncatesLongText(t *testing.T) {
	f := newFake(t)
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL})
	long := strings.Repeat("é", 50_000) // two bytes each: a byte cut would split one
	if _, err := o.Embed(context.Background(), []string{long, "short"}, Document); err != nil {
		t.Fatal(err)
	}
	sent := f.batches()[0]
	body, ok := strings.CutPrefix(sent[0], "search_document: ")
	if !ok || !utf8.ValidString(body) || utf8.RuneCountInString(body) != 8000 || strings.Trim(body, "é") != "" {
		t.Fatalf("sent %d runes (valid UTF-8: %v), want 8000 whole characters", utf8.RuneCountInString(body), utf8.ValidString(body))
	}
	if sent[1] != "search_document: short" {
		t.Fatalf("short text changed: %q", sent[1])
	}
	if got := truncateRunes("abc", 8000); got != "abc" {
		t.Fatalf("truncateRunes of a short text = %q", got)
	}
}

func TestOllamaNormalises(t *testing.T) {
	f := newFake(t)
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL})
	if n := norm2(fakeVector("search_query: q", 8)); n < 2 {
		t.Fatalf("the fake's vectors should not be unit length (norm %v)", n)
	}
	vecs, err := o.Embed(context.Background(), []string{"q", "r"}, Query)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		if n := norm2(v); math.Abs(n-1) > 1e-5 {
			t.Errorf("vector %d norm %v", i, n)
		}
	}
}

func TestOllamaBacksOffOn503(t *testing.T) {
	f := newFake(t)
	f.fail503.Store(2)
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL, RetryBackoff: 20 * time.Millisecond})
	start := time.Now()
	vecs, err := o.Embed(context.Background(), texts(3), Document)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 3 || f.callCount() != 3 {
		t.Fatalf("%d vectors after %d calls, want 3 after 3 (two 503s, one answer)", len(vecs), f.callCount())
	}
	if d := time.Since(start); d < 60*time.Millisecond {
		t.Fatalf("retried after %v, want at least 20ms + 40ms of backoff", d)
	}

	// A server that stays busy: give up after MaxRetries, saying why.
	f.fail503.Store(1000)
	o2 := newTestOllama(t, OllamaOptions{Host: srv.URL, MaxRetries: 2})
	_, err = o2.Embed(context.Background(), texts(1), Document)
	var se api.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("want a wrapped 503, got %v", err)
	}
	t.Log(err)

	// A busy server must not keep a cancelled caller waiting through the backoff.
	o3 := newTestOllama(t, OllamaOptions{Host: srv.URL, RetryBackoff: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start = time.Now()
	if _, err := o3.Embed(ctx, texts(1), Document); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the deadline, got %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("backoff ignored the context: %v", d)
	}
}

func TestOllamaOtherErrorsNotRetried(t *testing.T) {
	f := newFake(t)
	f.status.Store(http.StatusNotFound)
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL})
	_, err := o.Embed(context.Background(), texts(40), Document)
	if err == nil || !strings.Contains(err.Error(), "not found") || !strings.Contains(err.Error(), "texts 1–32 of 40") {
		t.Fatalf("want the server's message and which texts failed, got %v", err)
	}
	if n := f.callCount(); n != 1 {
		t.Fatalf("%d calls, want 1: only 503 is retried", n)
	}
}

func TestOllamaProbeModelNames(t *testing.T) {
	f := newFake(t, "nomic-embed-text:latest", "llama3.2:3b")
	srv := startFake(t, f)
	ctx := context.Background()
	for _, c := range []struct {
		model string
		ok    bool
	}{
		{"nomic-embed-text", true},
		{"nomic-embed-text:latest", true},
		{"llama3.2:3b", true},
		{"nomic-embed-text:v1.5", false},
		{"mxbai-embed-large", false},
	} {
		o := newTestOllama(t, OllamaOptions{Host: srv.URL, Model: c.model})
		err := o.Probe(ctx)
		if c.ok && err != nil {
			t.Errorf("%s: %v", c.model, err)
		}
		if !c.ok && !errors.Is(err, ErrModelNotFound) {
			t.Errorf("%s: want ErrModelNotFound, got %v", c.model, err)
		}
	}
}

// The server goes away for good: calls fail promptly with an error, not a hang.
func TestOllamaServerVanishes(t *testing.T) {
	f := newFake(t, "nomic-embed-text")
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL})
	ctx := context.Background()
	if _, err := o.Embed(ctx, texts(5), Document); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	start := time.Now()
	if _, err := o.Embed(ctx, texts(5), Document); err == nil {
		t.Fatal("want an error once the server is gone")
	} else {
		t.Log(err)
	}
	if err := o.Probe(ctx); err == nil {
		t.Fatal("Probe should report the server gone")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v to notice", d)
	}
}

// The server drops connections for a while mid-run, then answers again: Probe follows it down
// and up, and the same embedder works again without being rebuilt.
func TestOllamaDownAndBack(t *testing.T) {
	f := newFake(t, "nomic-embed-text:latest")
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL})
	ctx := context.Background()
	if err := o.Probe(ctx); err != nil {
		t.Fatalf("up: %v", err)
	}
	if _, err := o.Embed(ctx, texts(10), Document); err != nil {
		t.Fatal(err)
	}

	f.down.Store(true)
	if err := o.Probe(ctx); err == nil {
		t.Fatal("Probe says up while the server drops connections")
	}
	if _, err := o.Embed(ctx, texts(10), Document); err == nil {
		t.Fatal("Embed succeeded while the server drops connections")
	}

	f.down.Store(false)
	if err := o.Probe(ctx); err != nil {
		t.Fatalf("back up: %v", err)
	}
	vecs, err := o.Embed(ctx, texts(10), Document)
	if err != nil || len(vecs) != 10 {
		t.Fatalf("after recovery: %d vectors, %v", len(vecs), err)
	}
}

func TestOllamaDimensionsChangeIsAnError(t *testing.T) {
	f := newFake(t)
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL})
	if _, err := o.Embed(context.Background(), texts(2), Document); err != nil {
		t.Fatal(err)
	}
	f.dims.Store(4)
	if _, err := o.Embed(context.Background(), texts(2), Document); !errors.Is(err, ErrDimensionsChanged) {
		t.Fatalf("want ErrDimensionsChanged, got %v", err)
	}
	if o.Info().Dimensions != 8 {
		t.Fatalf("Info changed to %d: the space in use is still the 8-dimensional one", o.Info().Dimensions)
	}
}

// Concurrent callers share one queue: Ollama never sees two requests at once, and everyone
// gets their own vectors.
func TestOllamaOneRequestAtATime(t *testing.T) {
	f := newFake(t)
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL, BatchSize: 16})
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			in := make([]string, 50)
			for i := range in {
				in[i] = fmt.Sprintf("caller %d text %d", g, i)
			}
			vecs, err := o.Embed(context.Background(), in, Query)
			if err != nil {
				t.Error(err)
				return
			}
			for i, v := range vecs {
				want := fakeVector("search_query: "+in[i], 8)
				normalize(want)
				if math.Abs(float64(v[0]-want[0])) > 1e-6 {
					t.Errorf("caller %d got someone else's vector %d", g, i)
					return
				}
			}
		})
	}
	wg.Wait()
	if m := f.maxSeen.Load(); m != 1 {
		t.Fatalf("Ollama saw %d requests at once, want 1", m)
	}
}

func TestOllamaContextCancelReturnsPromptly(t *testing.T) {
	f := newFake(t)
	block := make(chan struct{}) // the server does not answer until this closes
	f.setBlock(block)
	srv := startFake(t, f)
	o := newTestOllama(t, OllamaOptions{Host: srv.URL})

	// One call holds the worker; a second waits in the queue behind it. Both must return
	// when their own contexts end, not when the server answers.
	ctx1, cancel1 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel1()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel2()
	start := time.Now()
	errs := make(chan error, 2)
	go func() { _, err := o.Embed(ctx1, texts(1), Document); errs <- err }()
	waitUntil(t, "the first call to reach the server", func() bool { return f.inFlight.Load() == 1 })
	go func() { _, err := o.Embed(ctx2, texts(1), Query); errs <- err }()
	for range 2 {
		if err := <-errs; !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("want the deadline, got %v", err)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("took %v to give up", d)
	}

	// The worker is free again: the blocked request was cancelled, not abandoned.
	close(block)
	if _, err := o.Embed(context.Background(), texts(1), Document); err != nil {
		t.Fatalf("after cancellations: %v", err)
	}
}

func TestOllamaCloseStopsWorker(t *testing.T) {
	f := newFake(t)
	srv := startFake(t, f)
	settle := func() int {
		runtime.GC()
		return runtime.NumGoroutine()
	}
	base := settle()

	o, err := NewOllama(OllamaOptions{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Embed(context.Background(), texts(40), Document); err != nil {
		t.Fatal(err)
	}
	if settle() <= base {
		t.Fatal("expected the worker (and a kept-alive connection) to be running")
	}

	// A call in flight when Close comes is answered with ErrClosed, promptly.
	block := make(chan struct{})
	f.setBlock(block)
	defer close(block)
	errc := make(chan error, 1)
	go func() { _, err := o.Embed(context.Background(), texts(1), Document); errc <- err }()
	waitUntil(t, "the call to reach the server", func() bool { return f.inFlight.Load() == 1 })
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("in-flight call: want ErrClosed, got %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("in-flight call not released by Close")
	}
	if _, err := o.Embed(context.Background(), texts(1), Document); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: want ErrClosed, got %v", err)
	}
	o.Close() // twice is fine

	deadline := time.Now().Add(5 * time.Second)
	for settle() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("goroutines: %d, baseline %d\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitUntil polls cond until it holds (or fails the test after 10 s): the condition a test
// waits for, where a sleep would only guess how long it takes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
