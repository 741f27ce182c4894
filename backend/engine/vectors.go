package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// docEmbedder is the embedder of one space, shaped as ingest (chunks) and search (queries)
// use it.
type docEmbedder interface {
	Embed(ctx context.Context, texts []string, p embed.Purpose) ([][]float32, error)
	Info() embed.Info
}

// space adapts an embedder to ingest.ChunkEmbedder and search.QueryEmbedder.
type space struct{ e docEmbedder }

func (a space) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	return a.e.Embed(ctx, texts, embed.Document)
}

func (a space) Space() string { return a.e.Info().Key }

func (a space) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	v, err := a.e.Embed(ctx, []string{text}, embed.Query)
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

// fixedQuery is a query vector computed before the search (so that a failure can fall back to
// another space before the searcher picks its weights).
type fixedQuery []float32

func (f fixedQuery) EmbedQuery(context.Context, string) ([]float32, error) { return f, nil }

// activeSpaceKey is the setting naming the semantic space that was complete once and has
// answered queries since; every process on the folder reads it, so they agree.
const activeSpaceKey = store.ActiveSpaceKey

// embedManager chooses the embedder that actually answers: the semantic one (Ollama) when it
// is reachable and its space has been built, else the static one, whose space is always
// complete because analyze writes it with every chunk. Spaces are never mixed: each has its
// own index, and a query vector of the wrong size is never searched.
type embedManager struct {
	static space
	sem    *embed.Ollama // nil: only the static embedder is configured
	every  time.Duration // re-probe interval

	mu        sync.Mutex
	probed    time.Time
	reachable bool
	why       string // why Ollama is not used, while it is not
	chunksWM  int64  // newest chunk rowid for which missing embeds were queued
	index     *search.Index

	statusAt time.Time
	status   *EmbeddingStatus
}

// newEmbedManager makes the configured embedders; it contacts nothing.
func newEmbedManager(cfg Config) (*embedManager, error) {
	m := &embedManager{static: space{embed.NewStatic()}, every: cfg.ProbeInterval}
	if m.every <= 0 {
		m.every = 15 * time.Second
	}
	switch provider := cfg.Embedder; provider {
	case "", "ollama":
	case "static":
		return m, nil
	default:
		return nil, errs.New(errs.Validation, "embedder %q is not ollama or static", provider).WithHint("set STRATA_EMBEDDER to ollama or static")
	}
	sem, err := embed.NewOllama(embed.OllamaOptions{Host: cfg.OllamaHost, Model: cfg.EmbedModel, Logger: cfg.Logger})
	if err != nil {
		return nil, errs.Wrap(errs.Validation, err, "invalid Ollama address").WithHint("set OLLAMA_HOST to host:port")
	}
	m.sem = sem
	return m, nil
}

// semanticModel is the configured semantic model ("" when static only).
func (m *embedManager) semanticModel() string {
	if m.sem == nil {
		return ""
	}
	return m.sem.Info().Model
}

// probe asks Ollama (at most 2 s) whether it is there with the model, and records the answer.
func (e *Engine) probe(ctx context.Context) bool {
	m := e.emb
	if m.sem == nil {
		return false
	}
	err := m.sem.Probe(ctx)
	m.mu.Lock()
	was := m.reachable
	m.probed, m.reachable = time.Now(), err == nil
	m.why = ""
	switch {
	case err == nil:
	case errors.Is(err, embed.ErrModelNotFound):
		m.why = fmt.Sprintf("Ollama at %s does not have the model %s", m.sem.Host(), m.sem.Info().Model)
	case errors.Is(err, syscall.ECONNREFUSED):
		m.why = fmt.Sprintf("Ollama is not running at %s", m.sem.Host())
	default:
		m.why = err.Error()
	}
	m.status = nil
	m.mu.Unlock()
	switch {
	case err == nil && !was:
		e.log.Info("semantic embedder available", "host", m.sem.Host(), "model", m.sem.Info().Model)
	case err != nil && was:
		e.log.Warn("semantic embedder gone: answering from the static space", "err", err)
	}
	return err == nil
}

// reachable is the last probe's answer, probing now if it is older than the interval (a
// process without the background loop, such as a one-off `strata search`).
func (e *Engine) reachable(ctx context.Context) bool {
	m := e.emb
	m.mu.Lock()
	fresh, ok := time.Since(m.probed) < m.every, m.reachable
	m.mu.Unlock()
	if fresh {
		return ok
	}
	return e.probe(ctx)
}

// markUnreachable records a failed call to Ollama between probes.
func (e *Engine) markUnreachable(err error) {
	m := e.emb
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.reachable {
		e.log.Warn("semantic embedder failed: answering from the static space", "err", err)
	}
	m.reachable, m.why, m.probed, m.status = false, err.Error(), time.Now(), nil
}

// activeSemantic returns the semantic space that answers queries now, or "" for the static
// one: the recorded complete space of the configured model, while Ollama is reachable.
func (e *Engine) activeSemantic(ctx context.Context) (string, error) {
	model := e.emb.semanticModel()
	if model == "" {
		return "", nil
	}
	key, err := store.Setting(ctx, e.db.Reader(), activeSpaceKey)
	if err != nil {
		return "", queryErr(err, "settings")
	}
	if !strings.HasPrefix(key, "ollama/"+model+"/") {
		return "", nil // the configured model's space is not complete yet (or another model's is)
	}
	if !e.reachable(ctx) {
		return "", nil
	}
	return key, nil
}

// semanticTarget is the space the semantic embedder is building: its key once Ollama has
// answered in this process (and so told the real vector size), else the recorded space of the
// model, else the expected one.
func (e *Engine) semanticTarget(ctx context.Context) string {
	info := e.emb.sem.Info()
	if e.emb.sem.DimensionsKnown() {
		return info.Key
	}
	if key, err := store.Setting(ctx, e.db.Reader(), activeSpaceKey); err == nil && strings.HasPrefix(key, "ollama/"+info.Model+"/") {
		return key
	}
	return info.Key
}

// manageEmbeddings is the background half of the manager, run by Serve: it probes Ollama now
// and every interval; while Ollama is there and this process does the folder's background work
// (owner.go), it queues embed jobs for chunks missing from the semantic space and records the
// switch once the space is complete.
func (e *Engine) manageEmbeddings(ctx context.Context) {
	if e.emb.sem == nil {
		return
	}
	tick := time.NewTicker(min(e.emb.every, time.Second))
	defer tick.Stop()
	for {
		e.embedStep(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// embedStep is one turn of manageEmbeddings.
func (e *Engine) embedStep(ctx context.Context) {
	m := e.emb
	m.mu.Lock()
	due := time.Since(m.probed) >= m.every
	m.mu.Unlock()
	if due {
		e.probe(ctx)
	}
	if !e.owning.Load() {
		return // the process doing the background work builds the space
	}
	m.mu.Lock()
	ok, wm := m.reachable, m.chunksWM
	m.mu.Unlock()
	if !ok {
		m.mu.Lock()
		m.chunksWM = 0 // queue again on return: jobs may have been skipped meanwhile
		m.mu.Unlock()
		return
	}
	var newest int64
	if err := e.db.Reader().QueryRowContext(ctx, `SELECT coalesce(max(rowid), 0) FROM chunks`).Scan(&newest); err != nil {
		e.log.Error("read chunks watermark", "err", err)
		return
	}
	// New chunks, and at each probe anything still missing (a batch Ollama failed on).
	if newest != wm || due {
		n, err := e.ingest.EnqueueMissingEmbeds(ctx)
		if err != nil {
			e.log.Error("queue embed jobs", "err", err)
			return
		}
		if n > 0 {
			e.log.Info("building the semantic space", "documents", n)
			e.runner.Wake()
		}
		m.mu.Lock()
		m.chunksWM = newest
		m.mu.Unlock()
	}
	if err := e.maybeSwitch(ctx); err != nil {
		e.log.Error("switch vector space", "err", err)
	}
}

// maybeSwitch records the semantic space as the one answering once every chunk has a vector
// there. It stays recorded when chunks are added later: they are embedded in the background
// and found by keyword meanwhile, rather than flipping every query back to the static space.
func (e *Engine) maybeSwitch(ctx context.Context) error {
	info := e.emb.sem.Info()
	cur, err := store.Setting(ctx, e.db.Reader(), activeSpaceKey)
	if err != nil || cur == info.Key {
		return err
	}
	done, total, err := store.CountEmbeddings(ctx, e.db.Reader(), info.Key)
	if err != nil || total == 0 || done < total {
		return err
	}
	err = e.db.WriteTx(ctx, func(tx *store.Tx) error {
		if err := store.SetSetting(ctx, tx, activeSpaceKey, info.Key); err != nil {
			return err
		}
		// Derived links follow the space (EmbeddingSimilarity compares documents in it).
		_, err := e.enrich.SpaceSwitched(ctx, tx, store.FormatTime(e.now()))
		return err
	})
	if err != nil {
		return err
	}
	e.emb.mu.Lock()
	e.emb.status = nil
	e.emb.mu.Unlock()
	e.log.Info("semantic space complete: switched", "space", info.Key, "vectors", done)
	return nil
}

// vectors is the vector half of one search: the active space's index (built from SQLite when
// first needed, then tailed) with the query already embedded. When the semantic embedder fails
// on the query, the static space answers instead. nil: no vector search is possible.
func (e *Engine) vectors(ctx context.Context, query string) search.Vectors {
	key, err := e.activeSemantic(ctx)
	if err != nil {
		e.log.Error("active vector space", "err", err)
	}
	if key != "" {
		qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		v, err := space{e.emb.sem}.EmbedQuery(qctx, query)
		cancel()
		switch {
		case err != nil:
			e.markUnreachable(err)
		case !strings.HasSuffix(key, fmt.Sprintf("/%d", len(v))):
			// The model under this name now gives another size: never search one space with
			// another's vectors. The static space answers until the new one is built.
			e.log.Warn("query vector size does not match the semantic space", "space", key, "dims", len(v))
		default:
			if ix, err := e.indexOf(ctx, key); err == nil {
				return &search.Space{Index: ix, Embedder: fixedQuery(v), IsSemant: true}
			} else {
				e.log.Error("vector index", "space", key, "err", err)
			}
		}
	}
	ix, err := e.indexOf(ctx, e.emb.static.Space())
	if err != nil {
		e.log.Error("vector index", "err", err)
		return nil
	}
	return &search.Space{Index: ix, Embedder: e.emb.static}
}

// indexOf returns the in-memory index of a space, building it from SQLite if the active space
// changed. Only one index is held: the memory of a 100k-chunk space is not kept twice. The
// index keeps its partitioning itself (search.Index): it loads a saved layout in the background,
// and trains and saves one when the space has grown or shrunk, on goroutines it owns and that
// closeIndex stops.
func (e *Engine) indexOf(ctx context.Context, key string) (*search.Index, error) {
	m := e.emb
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.index != nil && m.index.Err() != nil {
		e.log.Error("vector index failed: opening it again", "space", m.index.Space(), "err", m.index.Err())
		m.index.Close()
		m.index = nil
	}
	if m.index == nil || m.index.Space() != key {
		if m.index != nil {
			m.index.Close() // stops its background loading and training before the memory goes
		}
		m.index = nil
		ix, err := search.OpenIndexWith(ctx, e.db, key, search.IndexOptions{Report: func(err error) {
			e.log.Error("vector index: training or saving the partitions failed; still answering", "space", key, "err", err)
		}})
		if err != nil {
			return nil, fmt.Errorf("build vector index: %w", err)
		}
		m.index = ix
	}
	return m.index, nil
}

// closeIndex stops the vector index's background work (Engine.Close).
func (e *Engine) closeIndex() {
	e.emb.mu.Lock()
	defer e.emb.mu.Unlock()
	if e.emb.index != nil {
		e.emb.index.Close()
		e.emb.index = nil
	}
}

// statusTTL is how long search answers reuse the embedding status: computing it counts every
// vector and chunk, which at 100k chunks would cost more than the search itself.
const statusTTL = 2 * time.Second

// cachedEmbeddingStatus is EmbeddingStatus, at most statusTTL old.
func (e *Engine) cachedEmbeddingStatus(ctx context.Context) (*EmbeddingStatus, error) {
	m := e.emb
	m.mu.Lock()
	if m.status != nil && time.Since(m.statusAt) < statusTTL {
		st := *m.status
		m.mu.Unlock()
		return &st, nil
	}
	m.mu.Unlock()
	st, err := e.EmbeddingStatus(ctx)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.status, m.statusAt = st, time.Now()
	m.mu.Unlock()
	cp := *st
	return &cp, nil
}

// EmbeddingStatus is seed 004's block (names unchanged) plus re-embedding progress and, while
// the static space stands in, why and what to do about it.
type EmbeddingStatus struct {
	// Automatic: nothing was configured (STRATA_EMBEDDER unset), so Strata uses Ollama when it
	// runs and the built-in static embedder otherwise; the UI says that rather than "ollama",
	// which reads as if someone had chosen it.
	Automatic bool   `json:"automatic"`
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	// Status is the configured space's: ready (every chunk has its vector), building, or
	// waiting (incomplete while nothing builds it: Ollama does not answer). It said "ready" of
	// an Ollama space with 0 of 4,259 vectors.
	Status           string  `json:"status"`
	ActualProvider   string  `json:"actual_provider"`
	ActualModel      string  `json:"actual_model"`
	Dimensions       int     `json:"dimensions"`
	IsFallbackActive bool    `json:"is_fallback_active"`
	SemanticQuality  string  `json:"semantic_quality"` // high | low
	Reembed          Reembed `json:"reembed"`
	// Space is the vector space answering queries (provider/model/dims).
	Space string `json:"space"`
	// FallbackReason and Hint say why the configured embedder is not answering and how to fix
	// it (empty when it is).
	FallbackReason string `json:"fallback_reason,omitempty"`
	Hint           string `json:"hint,omitempty"`
}

// Reembed is how far the configured space is built: chunks with a vector there / chunks.
type Reembed struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// EmbeddingStatus reports the configured and the actual embedder and how complete the
// configured space is.
func (e *Engine) EmbeddingStatus(ctx context.Context) (*EmbeddingStatus, error) {
	static := e.emb.static.e.Info()
	st := &EmbeddingStatus{Provider: static.Provider, Model: static.Model, Status: "ready",
		ActualProvider: static.Provider, ActualModel: static.Model, Dimensions: static.Dimensions, Space: static.Key,
		SemanticQuality: "low", Automatic: e.cfg.Embedder == ""}
	target := static.Key
	if e.emb.sem != nil {
		st.Provider, st.Model = "ollama", e.emb.semanticModel()
		target = e.semanticTarget(ctx)
		key, err := e.activeSemantic(ctx)
		if err != nil {
			return nil, err
		}
		if key != "" {
			st.ActualProvider, st.ActualModel, st.Space, st.SemanticQuality = "ollama", st.Model, key, "high"
			fmt.Sscanf(key[strings.LastIndex(key, "/")+1:], "%d", &st.Dimensions)
		} else {
			st.IsFallbackActive = true
			reachable := e.reachable(ctx) // probes if the last answer is stale: status tells the truth
			e.emb.mu.Lock()
			why := e.emb.why
			e.emb.mu.Unlock()
			switch {
			case !reachable:
				st.FallbackReason = why
				st.Hint = fmt.Sprintf("start Ollama and run `ollama pull %s`; Strata switches to it by itself once its vectors are built", st.Model)
			default:
				st.FallbackReason = "the semantic space is being built"
				st.Hint = "keyword and static vectors answer until every chunk has a semantic vector"
			}
		}
	}
	done, total, err := e.countEmbeddings(ctx, target)
	if err != nil {
		return nil, err
	}
	st.Reembed = Reembed{Done: min(done, total), Total: total}
	switch {
	case done >= total:
	case e.emb.sem == nil || e.isReachable():
		st.Status = "building"
	default:
		st.Status = "waiting"
	}
	return st, nil
}

// countEmbeddings is store.CountEmbeddings for space: two counters the store's triggers keep
// (migration 0007), so a status poll or a search answer reads them instead of counting.
func (e *Engine) countEmbeddings(ctx context.Context, space string) (done, total int, err error) {
	done, total, err = store.CountEmbeddings(ctx, e.db.Reader(), space)
	if err != nil {
		return 0, 0, queryErr(err, "embeddings")
	}
	return done, total, nil
}

// isReachable is the last probe's answer, without probing.
func (e *Engine) isReachable() bool {
	e.emb.mu.Lock()
	defer e.emb.mu.Unlock()
	return e.emb.reachable
}

// Warm probes the semantic embedder, opens the active space's vector index and reads the
// embedding status now, so that the first search does not pay for them. Long-running
// transports call it in the background after they are ready to answer (an MCP handshake never
// waits for it).
func (e *Engine) Warm(ctx context.Context) error {
	key, err := e.activeSemantic(ctx)
	if err != nil {
		return err
	}
	if key == "" {
		key = e.emb.static.Space()
	}
	if _, err = e.indexOf(ctx, key); err != nil {
		return err // the index reads its layout here; its blocks load in the background
	}
	// Every search answer carries the embedding status (the probe's answer and the census
	// counters): read it once here rather than in the first search after a cold launch.
	_, err = e.cachedEmbeddingStatus(ctx)
	return err
}
