package embed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/strata-app/strata/backend/ollamahost"
)

// Ollama defaults.
const (
	OllamaProvider     = "ollama"
	DefaultOllamaModel = "nomic-embed-text"
	DefaultOllamaHost  = ollamahost.DefaultHost
	// DefaultOllamaDimensions is what nomic-embed-text produces; the real size is learned from
	// the first answer.
	DefaultOllamaDimensions = 768

	minBatch, maxBatch, defaultBatch = 16, 64, 32
	defaultMaxChars                  = 8000
	defaultTimeout                   = 60 * time.Second
	defaultRetryBackoff              = 500 * time.Millisecond
	defaultMaxRetryBackoff           = 10 * time.Second
	defaultMaxRetries                = 8
	// queueSize bounds the batches waiting for the worker; when it is full, Embed waits.
	queueSize = 64
	// probeTimeout keeps Probe quick: it decides availability, it must not hold up start-up.
	probeTimeout = 2 * time.Second
)

// Errors callers may test for with errors.Is.
var (
	// ErrClosed is returned by Embed after Close.
	ErrClosed = errors.New("embed: ollama embedder closed")
	// ErrModelNotFound is returned by Probe when Ollama answers but does not have the model.
	ErrModelNotFound = errors.New("embed: model not found in ollama")
	// ErrDimensionsChanged is returned when Ollama's vectors change size after the first answer
	// (the model under this name was replaced). Vectors of the new size belong to another space:
	// the caller must make a new Ollama embedder and rebuild, never mix them.
	ErrDimensionsChanged = errors.New("embed: ollama vector size changed")
)

// OllamaOptions configures an Ollama embedder. Zero values take the defaults.
type OllamaOptions struct {
	// Host is the server URL; empty: $OLLAMA_HOST, else http://127.0.0.1:11434. A bare
	// "host:port" means http.
	Host string
	// Model is the embedding model; default "nomic-embed-text".
	Model string
	// Dimensions is the expected vector size (default 768). It is only what Info reports until
	// the first answer; from then on Info reports the size Ollama actually returned.
	Dimensions int
	// BatchSize is the number of texts per /api/embed call; default 32, clamped to 16–64.
	BatchSize int
	// MaxChars caps each text, in characters (runes); default 8000. Longer texts are cut at a
	// character boundary here rather than left to the server, whose context limit and
	// truncation behaviour vary by model and version.
	MaxChars int
	// Timeout bounds each HTTP request; default 60s (a cold model takes a while to load).
	Timeout time.Duration
	// RetryBackoff is the first wait after a 503 (Ollama busy or loading the model); it
	// doubles up to MaxRetryBackoff, for at most MaxRetries retries. Defaults 500ms, 10s, 8.
	RetryBackoff    time.Duration
	MaxRetryBackoff time.Duration
	MaxRetries      int
	// Logger receives retries and surprises; nil discards them.
	Logger *slog.Logger
}

// Ollama embeds texts with a local Ollama server through its /api/embed endpoint.
//
// Ollama computes embeddings one request at a time, so concurrent callers gain nothing by
// sending in parallel except timeouts: every call goes through one bounded queue served by one
// worker goroutine, in arrival order, a batch at a time. A long re-embedding and a user's query
// therefore interleave batch by batch instead of the query waiting for the whole job.
//
// The worker is started by NewOllama and stopped by Close, which every owner must call.
type Ollama struct {
	client   *api.Client
	http     *http.Client
	host     string
	model    string
	nomic    bool
	batch    int
	maxChars int
	timeout  time.Duration
	backoff  time.Duration
	maxWait  time.Duration
	retries  int
	log      *slog.Logger

	queue   chan *ollamaCall
	ctx     context.Context // cancelled by Close: stops the worker and its in-flight request
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	closeMu sync.Once

	mu      sync.Mutex
	dims    int  // expected until learned, then actual
	dimsSet bool // the caller said which size to expect
	learned bool // dims came from an answer
}

// ollamaCall is one batch waiting for the worker.
type ollamaCall struct {
	ctx   context.Context
	input []string
	done  chan ollamaResult // buffered: the worker never blocks on a caller that gave up
}

type ollamaResult struct {
	vecs [][]float32
	err  error
}

// NewOllama makes an Ollama embedder and starts its worker. It does not contact the server:
// use Probe for that.
func NewOllama(opts OllamaOptions) (*Ollama, error) {
	base, err := ollamahost.URL(opts.Host)
	if err != nil {
		return nil, err
	}
	o := &Ollama{
		host:     base.String(),
		model:    opts.Model,
		batch:    opts.BatchSize,
		maxChars: opts.MaxChars,
		timeout:  opts.Timeout,
		backoff:  opts.RetryBackoff,
		maxWait:  opts.MaxRetryBackoff,
		retries:  opts.MaxRetries,
		log:      opts.Logger,
		dims:     opts.Dimensions,
		dimsSet:  opts.Dimensions > 0,
		queue:    make(chan *ollamaCall, queueSize),
	}
	if o.model == "" {
		o.model = DefaultOllamaModel
	}
	o.nomic = strings.Contains(strings.ToLower(o.model), "nomic")
	if o.dims <= 0 {
		o.dims = DefaultOllamaDimensions
	}
	switch {
	case o.batch == 0:
		o.batch = defaultBatch
	case o.batch < minBatch:
		o.batch = minBatch
	case o.batch > maxBatch:
		o.batch = maxBatch
	}
	if o.maxChars <= 0 {
		o.maxChars = defaultMaxChars
	}
	if o.timeout <= 0 {
		o.timeout = defaultTimeout
	}
	if o.backoff <= 0 {
		o.backoff = defaultRetryBackoff
	}
	if o.maxWait <= 0 {
		o.maxWait = defaultMaxRetryBackoff
	}
	if o.retries <= 0 {
		o.retries = defaultMaxRetries
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	o.log = o.log.With("component", "embed.ollama", "host", o.host, "model", o.model)

	// A transport of our own, so Close can drop its idle connections (and their goroutines)
	// without touching anyone else's.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	o.http = &http.Client{Transport: tr}
	o.client = api.NewClient(base, o.http)

	o.ctx, o.cancel = context.WithCancel(context.Background())
	o.wg.Add(1)
	go o.run()
	return o, nil
}

// Info implements Embedder. Dimensions (and so Key) are the configured size until the first
// successful Embed, then the size Ollama returned; a caller that stores vectors should read
// Info after embedding, not before.
func (o *Ollama) Info() Info {
	o.mu.Lock()
	dims := o.dims
	o.mu.Unlock()
	model := strings.TrimSuffix(o.model, ":latest")
	return Info{Provider: OllamaProvider, Model: model, Dimensions: dims, Key: SpaceKey(OllamaProvider, model, dims)}
}

// DimensionsKnown reports whether the vector size comes from an answer of the server rather
// than from the configuration: only then does Info().Key name the space for sure.
func (o *Ollama) DimensionsKnown() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.learned
}

// Host is the server URL in use, for status and error messages.
func (o *Ollama) Host() string { return o.host }

// Embed implements Embedder: texts are cut to MaxChars, prefixed for nomic models, sent in
// batches of BatchSize through the queue, and the vectors come back L2-normalised, in order.
func (o *Ollama) Embed(ctx context.Context, texts []string, p Purpose) ([][]float32, error) {
	if err := p.valid(); err != nil {
		return nil, err
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += o.batch {
		end := min(start+o.batch, len(texts))
		input := make([]string, end-start)
		for i, t := range texts[start:end] {
			input[i] = o.prepare(t, p)
		}
		vecs, err := o.submit(ctx, input)
		if err != nil {
			return nil, fmt.Errorf("ollama embed texts %d–%d of %d with %s: %w", start+1, end, len(texts), o.model, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// prepare cuts a text to MaxChars and adds the nomic task prefix. nomic-embed-text was
// trained with these prefixes; without them, queries and documents land further apart.
func (o *Ollama) prepare(t string, p Purpose) string {
	t = truncateRunes(t, o.maxChars)
	if !o.nomic {
		return t
	}
	if p == Query {
		return "search_query: " + t
	}
	return "search_document: " + t
}

// truncateRunes returns the first n runes of s.
func truncateRunes(s string, n int) string {
	if len(s) <= n { // n runes take at least n bytes
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

// submit queues one batch and waits for its vectors. Both waits give up when ctx is done; a
// batch the worker has not started yet is then skipped by the worker.
func (o *Ollama) submit(ctx context.Context, input []string) ([][]float32, error) {
	c := &ollamaCall{ctx: ctx, input: input, done: make(chan ollamaResult, 1)}
	select {
	case <-o.ctx.Done():
		return nil, ErrClosed
	default:
	}
	select {
	case o.queue <- c:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-o.ctx.Done():
		return nil, ErrClosed
	}
	select {
	case r := <-c.done:
		return r.vecs, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-o.ctx.Done():
		return nil, ErrClosed
	}
}

// run is the worker: one batch at a time, in queue order, until Close.
func (o *Ollama) run() {
	defer o.wg.Done()
	for {
		select {
		case <-o.ctx.Done():
			return
		case c := <-o.queue:
			if o.ctx.Err() != nil {
				c.done <- ollamaResult{err: ErrClosed}
				return
			}
			if err := c.ctx.Err(); err != nil {
				c.done <- ollamaResult{err: err}
				continue
			}
			vecs, err := o.embedBatch(c.ctx, c.input)
			c.done <- ollamaResult{vecs: vecs, err: err}
		}
	}
}

// embedBatch sends one batch, retrying with exponential backoff while Ollama answers 503 (it
// is loading the model or its queue is full). Other errors are returned at once.
func (o *Ollama) embedBatch(ctx context.Context, input []string) ([][]float32, error) {
	// The request stops when the caller gives up or the embedder closes, whichever is first.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(o.ctx, cancel)
	defer stop()

	wait := o.backoff
	for attempt := 0; ; attempt++ {
		resp, err := o.embedOnce(ctx, input)
		if err == nil {
			return o.accept(resp, len(input))
		}
		if o.ctx.Err() != nil {
			return nil, ErrClosed
		}
		var se api.StatusError
		if !errors.As(err, &se) || se.StatusCode != http.StatusServiceUnavailable {
			return nil, err
		}
		if attempt >= o.retries {
			return nil, fmt.Errorf("ollama still busy after %d retries: %w", attempt, err)
		}
		o.log.Info("ollama busy, retrying", "wait", wait, "attempt", attempt+1, "error", se.ErrorMessage)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			if o.ctx.Err() != nil {
				return nil, ErrClosed
			}
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = min(wait*2, o.maxWait)
	}
}

func (o *Ollama) embedOnce(ctx context.Context, input []string) (*api.EmbedResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	return o.client.Embed(ctx, &api.EmbedRequest{Model: o.model, Input: input})
}

// accept checks an answer, learns the vector size from the first one and normalises the
// vectors (Ollama's are usually unit length already, but not for every model or version).
func (o *Ollama) accept(resp *api.EmbedResponse, n int) ([][]float32, error) {
	if len(resp.Embeddings) != n {
		return nil, fmt.Errorf("ollama returned %d vectors for %d texts", len(resp.Embeddings), n)
	}
	dims := len(resp.Embeddings[0])
	for i, v := range resp.Embeddings {
		if len(v) == 0 || len(v) != dims {
			return nil, fmt.Errorf("ollama returned vectors of different sizes (%d and %d at %d)", dims, len(v), i)
		}
	}
	o.mu.Lock()
	switch {
	case !o.learned:
		switch {
		case dims != o.dims && o.dimsSet:
			o.log.Warn("ollama vector size differs from the configured one; using the actual size", "configured", o.dims, "actual", dims)
		default:
			o.log.Info("ollama vector size learned", "dimensions", dims)
		}
		o.dims, o.learned = dims, true
	case dims != o.dims:
		was := o.dims
		o.mu.Unlock()
		return nil, fmt.Errorf("%w: was %d, now %d", ErrDimensionsChanged, was, dims)
	}
	o.mu.Unlock()
	for _, v := range resp.Embeddings {
		normalize(v)
	}
	return resp.Embeddings, nil
}

// Probe checks quickly (at most 2s) that the server answers and has the model, for the
// manager deciding whether Ollama is available. It bypasses the queue: listing models does not
// compete with embedding. A model named without a tag matches its ":latest" and vice versa.
func (o *Ollama) Probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	list, err := o.client.List(ctx)
	if err != nil {
		return fmt.Errorf("probe ollama at %s: %w", o.host, err)
	}
	want := strings.TrimSuffix(o.model, ":latest")
	for _, m := range list.Models {
		for _, name := range []string{m.Name, m.Model} {
			if strings.TrimSuffix(name, ":latest") == want {
				return nil
			}
		}
	}
	return fmt.Errorf("probe ollama at %s: %w: %s (run `ollama pull %s`)", o.host, ErrModelNotFound, o.model, o.model)
}

// Close stops the worker, fails the calls still queued with ErrClosed, and waits until the
// worker has returned. It is safe to call more than once.
func (o *Ollama) Close() error {
	o.closeMu.Do(func() {
		o.cancel()
		o.wg.Wait()
		o.http.CloseIdleConnections()
	})
	return nil
}

var _ io.Closer = (*Ollama)(nil)
