package engine

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/strata-app/strata/backend/enrich"
	"github.com/strata-app/strata/backend/jobs"
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

// BenchCountEnrich counts the enrich jobs this engine's workers run from now on (each job the
// enrich handler is given, whatever it derives), to tell how many runs a document costs.
func (e *Engine) BenchCountEnrich() *atomic.Int64 {
	p := e.runner.Handler.(jobs.Phases)
	c := &countingHandler{next: p.By[enrich.Phase]}
	by := map[string]jobs.Handler{}
	for k, h := range p.By {
		by[k] = h
	}
	by[enrich.Phase] = c
	p.By = by
	e.runner.Handler = p
	return &c.n
}

type countingHandler struct {
	next jobs.Handler
	n    atomic.Int64
}

func (c *countingHandler) Run(ctx context.Context, batch []store.Job) map[int64]error {
	c.n.Add(int64(len(batch)))
	return c.next.Run(ctx, batch)
}

func (c *countingHandler) Record(ctx context.Context, job store.Job, cause error, retry bool, notBefore time.Time) error {
	return c.next.Record(ctx, job, cause, retry, notBefore)
}

// BenchEnrichNext claims the next runnable job, which must be documentID's enrich job, and runs
// it through the enrich handler now, in the caller's goroutine: claim, work, commit, as a worker
// does (a document's express lane no longer runs its linking).
func (e *Engine) BenchEnrichNext(ctx context.Context, documentID string) error {
	var batch []store.Job
	err := e.db.WriteTx(ctx, func(tx *store.Tx) error {
		var err error
		batch, err = store.ClaimJobs(ctx, tx, "bench", e.now(), time.Minute, 1)
		return err
	})
	if err != nil {
		return err
	}
	if len(batch) != 1 || batch[0].Phase != enrich.Phase || batch[0].DocumentID != documentID {
		return fmt.Errorf("claimed %+v, want the enrich job of %s", batch, documentID)
	}
	batch[0].LeaseOwner = "bench"
	h := e.runner.Handler.(jobs.Phases).By[enrich.Phase]
	for _, err := range h.Run(ctx, batch) {
		return err
	}
	return nil
}
