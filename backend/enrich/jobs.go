package enrich

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/jobs"
	"github.com/strata-app/strata/backend/store"
)

// Phase is the job phase the enrichments run in (queued by migration 0008's triggers).
const Phase = "enrich"

// Budgets of the enrich jobs. A write transaction holds the data folder's write lock, for
// this process and every other on the folder: `strata mcp` launched by an AI client, a CLI
// call, the app. Linking once ran a batch of sixteen documents in one transaction — seconds at
// 2,000 documents, minutes at 9,000 — and each of those waited. Now a transaction takes
// documents until TxBudget of work is spent and commits, so a second writer waits at most
// about that long, and a document whose own linking outlasts DocBudget is stopped and noted
// (ENRICH_BUDGET_EXCEEDED on its job) instead of holding the queue.
const (
	DefaultTxBudget  = 100 * time.Millisecond
	DefaultDocBudget = 2 * time.Second
)

// JobHandler runs enrich jobs (jobs.Handler): the reading phases have committed before, each in
// its own transaction, so a document is searchable before it is linked.
type JobHandler struct {
	Service *Service
	DB      *store.DB
	Now     func() time.Time
	Log     *slog.Logger
	// TxBudget and DocBudget: 0 takes the defaults above.
	TxBudget  time.Duration
	DocBudget time.Duration
	// Yield, when set, reports that a reader's work comes first (a saved file being read now, in
	// this process or another on the folder): linking gives up the transaction it runs and
	// waits while it does, at most MaxYield at a time, leaving the cores and the write lock to
	// that file. It is called every few milliseconds from another goroutine while linking
	// runs: it must be cheap and safe to call concurrently.
	Yield func() bool
}

// MaxYield bounds one wait of linking for a reader's work, and how long linking keeps giving
// up its transactions for saved files that keep coming: past it, the next transaction runs to
// its end (about TxBudget; one document's linking, at most DocBudget), so linking always moves
// on.
const MaxYield = 3 * time.Second

var _ jobs.Handler = (*JobHandler)(nil)

func (h *JobHandler) budgets() (tx, doc time.Duration) {
	tx, doc = h.TxBudget, h.DocBudget
	if tx <= 0 {
		tx = DefaultTxBudget
	}
	if doc <= 0 {
		doc = DefaultDocBudget
	}
	return tx, doc
}

// Run implements jobs.Handler. The batch is enriched in order, in as many write transactions
// as its work needs: each takes documents until its budget is spent (at least one), runs the
// group's shared work (Group.Finish) and commits. A job that fails rolls back only its own
// writes (a savepoint) and is recorded by the runner; a failing group's shared work fails the
// group's jobs, which are then retried. A saved file that comes meanwhile (Yield) does not
// wait for the transaction: it is rolled back and done again once the file is read.
func (h *JobHandler) Run(ctx context.Context, batch []store.Job) map[int64]error {
	failed := map[int64]error{}
	txBudget, docBudget := h.budgets()
	prepared := 0           // batch[:prepared] are prepared
	var preempted time.Time // when linking first gave up a transaction for a saved file, since its last commit
	for next := 0; next < len(batch); {
		h.yield(ctx)
		// From here to the commit, a saved file that comes is not kept waiting: the work is
		// abandoned (the transaction rolled back, the write lock released) and done again after.
		pctx, stop := h.preemptible(ctx, preempted.IsZero() || time.Since(preempted) < MaxYield)
		// What depends only on each document's content is worked out first, on a reader, for
		// about a transaction's worth of documents: the write lock is held for the rest only.
		prepStart := time.Now()
		// A Prepare interrupted mid-query costs its reader connection (database/sql closes an
		// interrupted one; the next reader opens another, with a cold page cache), but a 1 MB
		// document's Prepare takes ~0.4 s of a core the saved file needs: the file was found
		// ~40 ms sooner on average with it interrupted (3 alternated runs of 7).
		for prepared = max(prepared, next); prepared < len(batch) && pctx.Err() == nil && (prepared == next || time.Since(prepStart) < txBudget); prepared++ {
			if err := h.Service.Prepare(pctx, h.DB.Reader(), []string{batch[prepared].DocumentID}); err != nil {
				// Its run works it out inside the transaction instead, and meets the error there if
				// it is the document's.
				h.logger().Debug("prepare a document for linking", "document", batch[prepared].DocumentID, "err", err)
			}
		}
		start := time.Now()
		var took []store.Job
		var groupFailed map[int64]error
		err := pctx.Err()
		if err == nil {
			err = h.DB.WriteTx(pctx, func(tx *store.Tx) error {
				took, groupFailed = nil, map[int64]error{}
				now := store.FormatTime(h.Now())
				g := h.Service.NewGroup(tx, now)
				for next+len(took) < len(batch) && pctx.Err() == nil && (len(took) == 0 || time.Since(start) < txBudget) {
					job := batch[next+len(took)]
					took = append(took, job)
					if err := h.one(pctx, tx, g, job, now, docBudget); err != nil {
						groupFailed[job.JobID] = err
					}
				}
				return g.Finish(pctx)
			})
		}
		if stop() && err != nil {
			// Rolled back for a saved file: nothing of it was written; what its runs took of the
			// prepared work is prepared again.
			if preempted.IsZero() {
				preempted = prepStart
			}
			prepared = next
			h.logger().Debug("linking stepped aside for a saved file", "documents", len(took), "after", time.Since(prepStart), "err", err)
			continue
		}
		preempted = time.Time{}
		if err != nil {
			for _, j := range took {
				failed[j.JobID] = err
			}
		} else {
			for id, e := range groupFailed {
				failed[id] = e
			}
		}
		next += len(took)
	}
	return failed
}

// errPreempted is the cause of a linking context cancelled for a saved file.
var errPreempted = errors.New("linking stepped aside for a saved file")

// preemptPoll is how often a running transaction of linking looks whether a saved file waits.
const preemptPoll = 5 * time.Millisecond

// preemptible returns a context that is cancelled as soon as Yield reports a reader's work
// (when allowed), and stop, which ends the watch and reports whether it fired. Cancelling
// interrupts the running statement, so the write lock is released within milliseconds instead
// of at the transaction's end (a 1 MB document's linking holds it ~200 ms).
func (h *JobHandler) preemptible(ctx context.Context, allowed bool) (context.Context, func() bool) {
	if h.Yield == nil || !allowed {
		return ctx, func() bool { return false }
	}
	pctx, cancel := context.WithCancelCause(ctx)
	quit, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		t := time.NewTicker(preemptPoll)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-pctx.Done():
				return
			case <-t.C:
				if h.Yield() {
					cancel(errPreempted)
					return
				}
			}
		}
	}()
	return pctx, func() bool {
		close(quit)
		<-watched
		fired := errors.Is(context.Cause(pctx), errPreempted)
		cancel(nil)
		return fired
	}
}

func (h *JobHandler) logger() *slog.Logger {
	if h.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return h.Log
}

// yield waits while Yield says a reader's work comes first, at most MaxYield.
func (h *JobHandler) yield(ctx context.Context) {
	if h.Yield == nil {
		return
	}
	deadline := time.Now().Add(MaxYield)
	for h.Yield() && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
}

// one enriches one job's document inside a savepoint of the group's transaction and marks the
// job done; on failure only its own writes are rolled back.
func (h *JobHandler) one(ctx context.Context, tx *store.Tx, g *Group, job store.Job, now string, budget time.Duration) error {
	// The shared indexes catch up first, outside the document's budget (it writes nothing).
	if err := g.Warm(ctx); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `SAVEPOINT enrich_job`); err != nil {
		return fmt.Errorf("enrich savepoint: %w", err)
	}
	dctx, cancel := context.WithTimeout(ctx, budget)
	err := g.Enrich(dctx, job)
	overran := dctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
	cancel()
	if overran {
		err = errs.New(errs.EnrichBudgetExceeded, "linking this document took longer than %s and was stopped", budget).
			With("document_id", job.DocumentID)
	}
	if err == nil {
		err = store.FinishJob(ctx, tx, job.JobID, job.LeaseOwner, store.JobDone, nil, now, now)
		if errors.Is(err, store.ErrNotFound) {
			err = errLeaseLost
		}
	}
	if err != nil {
		if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO enrich_job`); rerr != nil {
			return fmt.Errorf("enrich rollback: %w (after %w)", rerr, err)
		}
		g.Forget(job)
	}
	if _, rerr := tx.ExecContext(ctx, `RELEASE enrich_job`); rerr != nil {
		return fmt.Errorf("enrich release: %w", rerr)
	}
	if errors.Is(err, errLeaseLost) {
		return nil // another worker holds the job now; it writes, not us
	}
	return err
}

// errLeaseLost: another worker holds the job now.
var errLeaseLost = errors.New("lease lost")

// Record implements jobs.Handler: the job is queued again at notBefore, or has failed for good
// with the error's envelope on it (the document keeps its phases: it is read, searchable and
// shows the job's note).
func (h *JobHandler) Record(ctx context.Context, job store.Job, cause error, retry bool, notBefore time.Time) error {
	env := errs.EnvelopeJSON(errs.As(cause))
	now := store.FormatTime(h.Now())
	state := store.JobFailed
	if retry {
		state = store.JobQueued
	}
	err := h.DB.WriteTx(ctx, func(tx *store.Tx) error {
		return store.FinishJob(ctx, tx, job.JobID, job.LeaseOwner, state, env, store.FormatTime(notBefore), now)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil // another worker holds the job now
	}
	if err != nil {
		return fmt.Errorf("record failure of enrich job %d: %w", job.JobID, err)
	}
	return nil
}
