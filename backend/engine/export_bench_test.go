package engine

import (
	"context"
	"sync/atomic"

	"github.com/strata-app/strata/backend/enrich"
	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/store"
)

// BenchRunDocument runs a document's runnable jobs now, in the caller's goroutine (the express
// lane a saved file takes), so that a benchmark times exactly one batch: claim, work, commit.
func (e *Engine) BenchRunDocument(ctx context.Context, documentID string) error {
	return e.runner.RunDocument(ctx, documentID)
}

// BenchEnrichments is the engine's enrichment service, for a benchmark that times each
// enrichment on its own.
func (e *Engine) BenchEnrichments() *enrich.Service { return e.enrich }

// BenchCountEnrich counts the enrich jobs this engine's workers run from now on (each call of
// the enrichment service, whatever it derives), to tell how many runs a document costs.
func (e *Engine) BenchCountEnrich() *atomic.Int64 {
	c := &countingEnricher{next: e.ingest.Enricher}
	e.ingest.Enricher = c
	return &c.n
}

type countingEnricher struct {
	next ingest.Enricher
	n    atomic.Int64
}

func (c *countingEnricher) Enrich(ctx context.Context, tx store.Q, job store.Job, now string) error {
	c.n.Add(1)
	return c.next.Enrich(ctx, tx, job, now)
}
