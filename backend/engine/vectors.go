package engine

import (
	"context"
	"fmt"
	"sync"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/search"
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

// vectorState owns the in-memory index of the active space, built on first use.
type vectorState struct {
	mu    sync.Mutex
	index *search.Index
	err   error
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
