package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// staticSpace adapts the static embedder to what ingest (chunks) and search (queries) need.
type staticSpace struct{ s *embed.Static }

func (a staticSpace) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	return a.s.Embed(ctx, texts, embed.Document)
}

func (a staticSpace) Space() string { return a.s.Info().Key }

func (a staticSpace) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	v, err := a.s.Embed(ctx, []string{text}, embed.Query)
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

// vectorState owns the in-memory index of the active space, built on first use, and a briefly
// cached embedding status for search answers.
type vectorState struct {
	mu    sync.Mutex
	index *search.Index

	statusAt time.Time
	status   *EmbeddingStatus
}

// statusTTL is how long search answers reuse the embedding status: computing it counts every
// vector and chunk, which at 100k chunks would cost more than the search itself.
const statusTTL = 2 * time.Second

// cachedEmbeddingStatus is EmbeddingStatus, at most statusTTL old.
func (e *Engine) cachedEmbeddingStatus(ctx context.Context) (*EmbeddingStatus, error) {
	e.vec.mu.Lock()
	if e.vec.status != nil && time.Since(e.vec.statusAt) < statusTTL {
		st := *e.vec.status
		e.vec.mu.Unlock()
		return &st, nil
	}
	e.vec.mu.Unlock()
	st, err := e.EmbeddingStatus(ctx)
	if err != nil {
		return nil, err
	}
	e.vec.mu.Lock()
	e.vec.status, e.vec.statusAt = st, time.Now()
	e.vec.mu.Unlock()
	cp := *st
	return &cp, nil
}

// vectors is the vector half of search: the static space's index (built from SQLite the first
// time it is needed, then tailed), or nil if it cannot be built.
func (e *Engine) vectors() search.Vectors {
	ix, err := e.vectorIndex(context.Background())
	if err != nil {
		e.log.Error("vector index", "err", err)
		return nil
	}
	return &search.Space{Index: ix, Embedder: e.static, IsSemant: false}
}

func (e *Engine) vectorIndex(ctx context.Context) (*search.Index, error) {
	e.vec.mu.Lock()
	defer e.vec.mu.Unlock()
	if e.vec.index == nil {
		ix, err := search.OpenIndex(ctx, e.db, e.static.Space())
		if err != nil {
			return nil, fmt.Errorf("build vector index: %w", err)
		}
		e.vec.index = ix
	}
	return e.vec.index, nil
}

// EmbeddingStatus is seed 004's block (names unchanged) plus re-embedding progress: what
// embedder is configured, and what is actually answering.
type EmbeddingStatus struct {
	Provider         string  `json:"provider"`
	Model            string  `json:"model"`
	Status           string  `json:"status"` // ready | building
	ActualProvider   string  `json:"actual_provider"`
	ActualModel      string  `json:"actual_model"`
	Dimensions       int     `json:"dimensions"`
	IsFallbackActive bool    `json:"is_fallback_active"`
	SemanticQuality  string  `json:"semantic_quality"` // high | low
	Reembed          Reembed `json:"reembed"`
}

// Reembed is how much of the active space is built: chunks with a vector / chunks.
type Reembed struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// configuredEmbedder is what Strata is set up to use when it can: Ollama's nomic-embed-text.
const (
	configuredProvider = "ollama"
	configuredModel    = "nomic-embed-text"
)

// EmbeddingStatus reports the configured and the actual embedder and how complete the active
// vector space is.
func (e *Engine) EmbeddingStatus(ctx context.Context) (*EmbeddingStatus, error) {
	info := e.static.s.Info()
	done, total, err := store.CountEmbeddings(ctx, e.db.Reader(), info.Key)
	if err != nil {
		return nil, queryErr(err, "embeddings")
	}
	st := &EmbeddingStatus{Provider: configuredProvider, Model: configuredModel, Status: "ready",
		ActualProvider: info.Provider, ActualModel: info.Model, Dimensions: info.Dimensions,
		IsFallbackActive: true, SemanticQuality: "low", Reembed: Reembed{Done: min(done, total), Total: total}}
	if done < total {
		st.Status = "building"
	}
	return st, nil
}
