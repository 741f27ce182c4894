package engine_test

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/store"
)

// fakeEmbedder speaks Ollama's /api/tags and /api/embed with a deterministic bag-of-words
// embedding. While down it drops connections, as a stopped Ollama does; dims can change to
// play a model replaced under the same name.
type fakeEmbedder struct {
	up        atomic.Bool
	dims      atomic.Int32
	calls     atomic.Int32 // /api/embed requests answered
	failed    atomic.Int32 // /api/embed requests refused because of failWord
	probes    atomic.Int32 // /api/tags requests answered
	downAfter atomic.Int32 // >0: go down after this many answered /api/embed requests
	failWord  atomic.Value // string: /api/embed answers 500 for a batch containing it
}

func newFakeEmbedder() *fakeEmbedder {
	f := &fakeEmbedder{}
	f.dims.Store(768)
	return f
}

func (f *fakeEmbedder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rw := w
	if !f.up.Load() {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
		http.Error(w, "down", http.StatusBadGateway)
		return
	}
	switch r.URL.Path {
	case "/api/tags":
		io.WriteString(w, `{"models":[{"name":"nomic-embed-text:latest","model":"nomic-embed-text:latest","size":1}]}`)
		f.probes.Add(1)
	case "/api/embed":
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if w, _ := f.failWord.Load().(string); w != "" && strings.Contains(strings.Join(req.Input, " "), w) {
			http.Error(rw, "model crashed", http.StatusInternalServerError)
			f.failed.Add(1)
			return
		}
		dims := int(f.dims.Load())
		out := make([][]float32, len(req.Input))
		for i, t := range req.Input {
			v := make([]float32, dims)
			for _, w := range strings.Fields(strings.ToLower(t)) {
				h := fnv.New32a()
				h.Write([]byte(strings.Trim(w, ".,:;!?#")))
				v[h.Sum32()%uint32(dims)]++
			}
			var n float64
			for _, x := range v {
				n += float64(x * x)
			}
			for j := range v {
				if n > 0 {
					v[j] /= float32(math.Sqrt(n))
				}
			}
			out[i] = v
		}
		json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": out})
		if n := f.calls.Add(1); f.downAfter.Load() > 0 && n >= f.downAfter.Load() {
			f.up.Store(false)
		}
	default:
		http.NotFound(w, r)
	}
}

// eventually polls cond until it holds or 20 s pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func embStatus(t *testing.T, e *engine.Engine) *engine.EmbeddingStatus {
	t.Helper()
	st, err := e.EmbeddingStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// spacesOf reads how many vectors each (space, size) pair has, straight from SQLite.
func spacesOf(t *testing.T, e *engine.Engine) map[string]map[int]int {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(e.DataDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Reader().QueryContext(context.Background(), `SELECT space, length(vector)/4, count(*) FROM embeddings GROUP BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]map[int]int{}
	for rows.Next() {
		var sp string
		var dims, n int
		rows.Scan(&sp, &dims, &n)
		if out[sp] == nil {
			out[sp] = map[int]int{}
		}
		out[sp][dims] = n
	}
	return out
}

// noMixedSpaces fails if any space holds vectors of a size other than the one its key names.
func noMixedSpaces(t *testing.T, e *engine.Engine) {
	t.Helper()
	for sp, sizes := range spacesOf(t, e) {
		for dims := range sizes {
			if !strings.HasSuffix(sp, "/"+itoa(dims)) || len(sizes) != 1 {
				t.Fatalf("space %s holds vectors of sizes %v", sp, sizes)
			}
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestSemanticSpaceBuildSwitchAndFallback follows the embedding manager through a life:
// no Ollama (static answers, honestly reported), Ollama appears (the semantic space is built in
// the background by embed jobs, with progress, and queries switch only once it is complete),
// Ollama fails on a document and vanishes mid-build, then comes back (the build resumes), Ollama vanishes after the switch
// (the complete static space answers), and the model's vector size changes (nothing is mixed).
func TestSemanticSpaceBuildSwitchAndFallback(t *testing.T) {
	fake := newFakeEmbedder()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	e := open(t, withOllama(srv.URL), func(c *engine.Config) { c.ProbeInterval = 50 * time.Millisecond })
	ctx := context.Background()
	dir := t.TempDir()
	var ids []string
	topics := []string{"sourdough bread baking with a starter", "replacing a bicycle chain and cassette", "tax return deadlines for freelancers",
		"pruning apple trees in winter", "tuning a guitar by ear", "brewing pour-over coffee at home"}
	for i, topic := range topics {
		body := "# " + topic + "\n\n" + strings.Repeat("Notes about "+topic+". ", 40) + "\n\n## More\n\n" + strings.Repeat("Further detail on "+topic+". ", 40)
		ids = append(ids, ingestFile(t, e, write(t, filepath.Join(dir, "n"+itoa(i)+".md"), body)).DocumentID)
	}
	settle(t, e, ids...)

	// 1. No Ollama: the static space answers, and the status says so and why.
	st := embStatus(t, e)
	if st.Provider != "ollama" || st.Model != "nomic-embed-text" || st.ActualProvider != "static" || !st.IsFallbackActive ||
		st.SemanticQuality != "low" || st.Dimensions != 256 || st.FallbackReason == "" || !strings.Contains(st.Hint, "ollama pull nomic-embed-text") {
		t.Fatalf("without Ollama: %+v", st)
	}
	if st.Reembed.Done != 0 || st.Reembed.Total == 0 {
		t.Fatalf("nothing is in the semantic space yet: %+v", st.Reembed)
	}
	total := st.Reembed.Total
	res, err := e.Search(ctx, engine.SearchRequest{Query: "bicycle chain"})
	if err != nil || len(res.Results) == 0 || res.Embedder.ActualProvider != "static" {
		t.Fatalf("search without Ollama: %v %+v", err, res)
	}

	// 2. Ollama appears but fails on one document: the space is built in the background and
	// stays incomplete, so queries still go to the static space.
	fake.failWord.Store("guitar")
	fake.up.Store(true)
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- e.Serve(sctx) }()
	defer func() { stop(); <-served }()
	eventually(t, "a partial semantic space", func() bool { st := embStatus(t, e); return st.Reembed.Done > 0 && st.Status == "building" })
	// Not a pause but the event that could have completed the space: the failing document's
	// batch was tried (and refused); the space must still be incomplete after it.
	eventually(t, "the failing batch to be tried", func() bool { return fake.failed.Load() > 0 })
	st = embStatus(t, e)
	if st.ActualProvider != "static" || !st.IsFallbackActive || st.Reembed.Done >= total || st.FallbackReason != "the semantic space is being built" {
		t.Fatalf("after a partial build: %+v", st)
	}
	partial := st.Reembed.Done
	if res, _ := e.Search(ctx, engine.SearchRequest{Query: "apple trees"}); res.Embedder.ActualProvider != "static" {
		t.Fatalf("an incomplete semantic space must not answer: %+v", res.Embedder)
	}

	// 3. Ollama vanishes mid-build: the status says it is unreachable.
	fake.up.Store(false)
	eventually(t, "the probe to notice", func() bool { return embStatus(t, e).FallbackReason != "the semantic space is being built" })
	if st := embStatus(t, e); st.ActualProvider != "static" || st.Status != "waiting" {
		t.Fatalf("while Ollama is away: %+v", st)
	}

	// 4. It comes back healthy: the build resumes where it stopped and queries switch.
	fake.failWord.Store("")
	fake.up.Store(true)
	eventually(t, "the switch to the semantic space", func() bool { return embStatus(t, e).ActualProvider == "ollama" })
	st = embStatus(t, e)
	if st.IsFallbackActive || st.SemanticQuality != "high" || st.Dimensions != 768 || st.Space != "ollama/nomic-embed-text/768" ||
		st.Reembed.Done != total || st.Reembed.Total != total || st.Status != "ready" {
		t.Fatalf("after the switch: %+v", st)
	}
	if st.Reembed.Done < partial {
		t.Fatal("progress went backwards")
	}
	res, err = e.Search(ctx, engine.SearchRequest{Query: "tuning guitar"})
	if err != nil || len(res.Results) == 0 || res.Embedder.ActualProvider != "ollama" {
		t.Fatalf("semantic search: %v %+v", err, res)
	}
	if _, ok := res.Results[0].Modes["vector"]; !ok || !strings.Contains(strings.ToLower(res.Results[0].Title+res.Results[0].Snippet), "guitar") {
		t.Fatalf("the semantic vectors must find the guitar note: %+v", res.Results[0])
	}
	noMixedSpaces(t, e)

	// 5. A document added while Ollama is there gets its semantic vectors in the background.
	added := ingestFile(t, e, write(t, filepath.Join(dir, "late.md"), "# Kayak rolling\n\nPractising the kayak roll in a pool."))
	settle(t, e, added.DocumentID)
	eventually(t, "the new document's semantic vectors", func() bool {
		st := embStatus(t, e)
		return st.Reembed.Total > total && st.Reembed.Done == st.Reembed.Total
	})

	// 6. Ollama vanishes: the next query falls back to the complete static space at once.
	fake.up.Store(false)
	res, err = e.Search(ctx, engine.SearchRequest{Query: "kayak roll"})
	if err != nil || len(res.Results) == 0 || res.Embedder.ActualProvider != "static" || !res.Embedder.IsFallbackActive {
		t.Fatalf("search after Ollama vanished: %v %+v", err, res)
	}
	if !strings.Contains(res.Results[0].Title, "Kayak") {
		t.Fatalf("static fallback lost the document: %+v", res.Results)
	}

	// 7. It returns with the model replaced by one of another size: queries are never run
	// against the 768-d space with its vectors, and no space ever holds two sizes.
	fake.dims.Store(512)
	probes := fake.probes.Load()
	fake.up.Store(true)
	eventually(t, "a probe to find Ollama back", func() bool { return fake.probes.Load() > probes })
	res, err = e.Search(ctx, engine.SearchRequest{Query: "sourdough starter"})
	if err != nil || len(res.Results) == 0 || res.Embedder.ActualProvider == "ollama" && res.Embedder.Dimensions != 768 {
		t.Fatalf("search after the size changed: %v %+v", err, res)
	}
	if _, ok := res.Results[0].Modes["vector"]; ok && res.Embedder.ActualProvider == "ollama" {
		t.Fatalf("a 512-d query vector must not search the 768-d space: %+v", res)
	}
	noMixedSpaces(t, e)
}

// TestStaticOnlyEmbedderNeverCallsOllama: with Embedder "static" the status is honest that
// static is what was asked for (no fallback), and Ollama is never asked for vectors.
func TestStaticOnlyEmbedderNeverCallsOllama(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/embed" {
			hits.Add(1)
		}
		http.NotFound(w, r) // the chat model's probe (semantic phase) is not the embedder's business
	}))
	defer srv.Close()
	e := open(t, func(c *engine.Config) {
		c.OllamaHost = srv.URL
		c.Embedder = "static"
		c.ProbeInterval = 10 * time.Millisecond
	})
	id := ingestFile(t, e, write(t, filepath.Join(t.TempDir(), "a.md"), "# A\n\nalpha beta")).DocumentID
	settle(t, e, id)
	st := embStatus(t, e)
	if st.Provider != "static" || st.ActualProvider != "static" || st.IsFallbackActive || st.Reembed.Done != st.Reembed.Total || st.Status != "ready" {
		t.Fatalf("static only: %+v", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_ = e.Serve(ctx)
	if hits.Load() != 0 {
		t.Fatalf("Ollama was contacted %d times", hits.Load())
	}
	if _, err := engine.Open(context.Background(), config(t.TempDir(), func(c *engine.Config) { c.Embedder = "openai" })); err == nil {
		t.Fatal("an unknown embedder must be refused")
	}
}
