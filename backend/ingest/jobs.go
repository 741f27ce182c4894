package ingest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// Runner executes durable jobs with a bounded pool of workers. Jobs are claimed with a lease
// that a heartbeat renews; a worker that dies leaves a lease that expires, and the job is then
// claimed again by any process on the folder. Results are written together with the job's
// completion and only while the lease is held (Ingester.complete), so a job's effects happen
// exactly once.
type Runner struct {
	In          *Ingester
	Workers     int           // default 2
	Lease       time.Duration // default 60s
	Poll        time.Duration // how often idle workers look for work queued by other processes; default 500ms
	MaxAttempts int           // retries for transient failures; default 5
	Batch       int           // jobs claimed and committed together; default 16
	Log         *slog.Logger

	wake    chan struct{}
	once    sync.Once
	running atomic.Int32
}

// Running reports whether Run is working in this process.
func (r *Runner) Running() bool { return r.running.Load() > 0 }

func (r *Runner) init() {
	r.once.Do(func() {
		if r.Workers <= 0 {
			r.Workers = 2
		}
		if r.Lease <= 0 {
			r.Lease = 60 * time.Second
		}
		if r.Poll <= 0 {
			r.Poll = 500 * time.Millisecond
		}
		if r.MaxAttempts <= 0 {
			r.MaxAttempts = 5
		}
		if r.Batch <= 0 {
			r.Batch = 16
		}
		if r.Log == nil {
			r.Log = slog.New(slog.DiscardHandler)
		}
		r.wake = make(chan struct{}, 1)
	})
}

// Wake tells idle workers that work was queued.
func (r *Runner) Wake() {
	r.init()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run works until ctx is cancelled, then lets running jobs finish (each within its lease) and
// returns once every worker has stopped.
func (r *Runner) Run(ctx context.Context) error {
	r.init()
	r.running.Add(1)
	defer r.running.Add(-1)
	owner := ownerID()
	var wg sync.WaitGroup
	for i := 0; i < r.Workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r.worker(ctx, fmt.Sprintf("%s/%d", owner, i))
		}(i)
	}
	wg.Wait()
	return ctx.Err()
}

func (r *Runner) worker(ctx context.Context, owner string) {
	for ctx.Err() == nil {
		var jobs []store.Job
		err := r.In.DB.WriteTx(ctx, func(tx *store.Tx) error {
			var err error
			jobs, err = store.ClaimJobs(ctx, tx, owner, r.In.Now(), r.Lease, r.Batch)
			return err
		})
		if errors.Is(err, store.ErrNotFound) {
			select {
			case <-ctx.Done():
				return
			case <-r.wake:
			case <-time.After(r.Poll):
			}
			continue
		}
		if err != nil {
			if ctx.Err() == nil {
				r.Log.Error("claim jobs", "err", err)
				time.Sleep(r.Poll)
			}
			continue
		}
		r.runBatch(ctx, jobs, owner)
	}
}

// runBatch runs claimed jobs: each job's work happens outside any transaction, then the
// writes of all that succeeded are applied in one transaction (group commit: one commit, one
// full-text flush for the batch). The jobs get a context that outlives a shutdown request
// (they finish or their lease expires), and a heartbeat keeps their leases.
func (r *Runner) runBatch(parent context.Context, jobs []store.Job, owner string) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	defer cancel()
	var hb sync.WaitGroup
	hb.Add(1)
	go func() {
		defer hb.Done()
		t := time.NewTicker(r.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				err := r.In.DB.WriteTx(ctx, func(tx *store.Tx) error {
					for _, j := range jobs {
						if err := store.ExtendLease(ctx, tx, j.JobID, owner, r.In.Now().Add(r.Lease)); err != nil && !errors.Is(err, store.ErrNotFound) {
							return err
						}
					}
					return nil
				})
				if err != nil && ctx.Err() == nil {
					r.Log.Warn("extend job leases", "err", err)
				}
			}
		}
	}()
	var analyses []*Analysis
	var semantics []*SemanticResult
	var embeds []*EmbedResult
	var writes []func(tx *store.Tx) error
	var held []store.Job // jobs whose write is in this batch
	for _, job := range jobs {
		job.LeaseOwner = owner
		res, err := r.handle(ctx, job)
		var nm noModel
		var ne noEmbedder
		switch {
		case errors.As(err, &nm):
			writes = append(writes, r.In.skipSemantic(ctx, job, nm))
			held = append(held, job)
		case errors.As(err, &ne):
			writes = append(writes, r.In.endJob(ctx, job, store.JobSkipped, ne.envelope()))
			held = append(held, job)
		case errors.Is(err, errSuperseded) || errors.Is(err, errNoHandler):
			writes = append(writes, r.In.endJob(ctx, job, store.JobSkipped, supersededErr()))
			held = append(held, job)
		case err != nil:
			r.fail(job, owner, err)
		default:
			switch v := res.(type) {
			case *Analysis:
				analyses = append(analyses, v)
			case *SemanticResult:
				semantics = append(semantics, v)
			case *EmbedResult:
				embeds = append(embeds, v)
			}
			held = append(held, job)
		}
	}
	if len(held) > 0 {
		err := r.In.DB.WriteTx(ctx, func(tx *store.Tx) error {
			for _, w := range writes {
				if err := w(tx); err != nil {
					return err
				}
			}
			for _, s := range semantics {
				if err := r.In.WriteSemantic(ctx, tx, s); err != nil {
					return fmt.Errorf("job %d: %w", s.Job.JobID, err)
				}
			}
			for _, em := range embeds {
				if err := r.In.WriteEmbed(ctx, tx, em); err != nil {
					return fmt.Errorf("job %d: %w", em.Job.JobID, err)
				}
			}
			return r.In.WriteAnalyses(ctx, tx, analyses)
		})
		if err != nil {
			for _, j := range held {
				r.fail(j, owner, err)
			}
		}
	}
	cancel()
	hb.Wait()
}

// errNoHandler: a job of a phase this version does not run; it is retired as skipped.
var errNoHandler = errors.New("no handler for this phase")

func (r *Runner) handle(ctx context.Context, job store.Job) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.Log.Error("job panicked", "job", job.JobID, "panic", p, "stack", string(debug.Stack()))
			res, err = nil, errs.New(errs.AnalysisFailed, "the reader crashed on this file").
				WithHint("the file may be damaged; this is worth reporting with the file")
		}
	}()
	switch job.Phase {
	case PhaseAnalyze:
		return r.In.Analyze(ctx, job)
	case PhaseSemantic:
		return r.In.Semantic(ctx, job)
	case PhaseEmbed:
		return r.In.Reembed(ctx, job)
	default:
		return nil, errNoHandler
	}
}

// skipSemantic is the write for a semantic job that cannot run yet: the job is skipped with
// the reason (NO_CHAT_MODEL), which RequeueWaitingSemantic looks for when a model appears.
func (in *Ingester) skipSemantic(ctx context.Context, job store.Job, nm noModel) func(tx *store.Tx) error {
	model := "llama3.2"
	if in.Chat != nil {
		model = in.Chat.Model()
	}
	end := in.endJob(ctx, job, store.JobSkipped, nm.envelope(model))
	return func(tx *store.Tx) error {
		if err := end(tx); err != nil {
			return err
		}
		d, err := store.GetDocument(ctx, tx, job.DocumentID)
		if err != nil || d.PayloadID != job.PayloadID {
			return err
		}
		d.PhaseSemantic, d.UpdatedAt = "skipped", store.FormatTime(in.Now())
		return store.UpdateDocument(ctx, tx, d)
	}
}

// RequeueWaitingSemantic queues again the semantic jobs that were skipped for want of a chat
// model (call it when one becomes available); it returns how many.
func (in *Ingester) RequeueWaitingSemantic(ctx context.Context) (int, error) {
	var n int64
	err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		now := store.FormatTime(in.Now())
		res, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'queued', attempts = 0, not_before = ?, error = NULL, updated_at = ?
			WHERE phase = 'semantic' AND state = 'skipped' AND error LIKE '%"NO_CHAT_MODEL"%'`, now, now)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		if n == 0 {
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE documents SET phase_semantic = 'queued', updated_at = ? WHERE document_id IN
			(SELECT document_id FROM jobs WHERE phase = 'semantic' AND state = 'queued') AND phase_semantic = 'skipped'`, now)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("requeue semantic jobs: %w", err)
	}
	return int(n), nil
}

// permanent reports whether retrying cannot help.
func permanent(code string) bool {
	switch code {
	case errs.UnsupportedFileType, errs.AnalysisFailed, errs.FileTooLarge, errs.FileNotFound, errs.Validation, errs.SpecInvalid:
		return true
	}
	return false
}

// fail records a failed attempt: a transient failure is retried with exponential backoff up to
// MaxAttempts; a permanent one marks the document's phase failed with the error envelope, and
// its old chunks leave the index.
func (r *Runner) fail(job store.Job, owner string, cause error) {
	ctx := context.Background()
	e := errs.As(cause)
	env := errs.EnvelopeJSON(e)
	now := r.In.Now()
	retry := !permanent(e.Code) && job.Attempts < r.MaxAttempts
	err := r.In.DB.WriteTx(ctx, func(tx *store.Tx) error {
		state, notBefore := store.JobFailed, store.FormatTime(now)
		if retry {
			state, notBefore = store.JobQueued, store.FormatTime(now.Add(time.Duration(1<<min(job.Attempts, 8))*time.Second))
		}
		if err := store.FinishJob(ctx, tx, job.JobID, owner, state, env, notBefore, store.FormatTime(now)); err != nil {
			return err
		}
		d, err := store.GetDocument(ctx, tx, job.DocumentID)
		if err != nil {
			return err
		}
		d.LastError, d.UpdatedAt = env, store.FormatTime(now)
		if !retry && d.PayloadID == job.PayloadID {
			switch job.Phase {
			case PhaseAnalyze:
				if err := setStatus(&d, docstate.AnalysisFailed); err != nil {
					return err
				}
				d.PhaseAnalyze, d.PhaseSemantic = "failed", "skipped"
				if err := store.DeleteChunks(ctx, tx, d.DocumentID); err != nil {
					return err
				}
			case PhaseSemantic:
				if err := setStatus(&d, docstate.SemanticFailed); err != nil { // the document stays searchable
					return err
				}
				d.PhaseSemantic = "failed"
			}
			// an embed job builds another vector space: its failure leaves the document's phases alone
		}
		return store.UpdateDocument(ctx, tx, d)
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		r.Log.Error("record job failure", "job", job.JobID, "err", err)
	}
	r.Log.Info("job failed", "job", job.JobID, "document", job.DocumentID, "code", e.Code, "retry", retry)
}

// endJob is the write that ends a job without results (skipped), if its lease is still held.
func (in *Ingester) endJob(ctx context.Context, job store.Job, state string, reason *errs.Error) func(tx *store.Tx) error {
	return func(tx *store.Tx) error {
		now := store.FormatTime(in.Now())
		err := store.FinishJob(ctx, tx, job.JobID, job.LeaseOwner, state, errs.EnvelopeJSON(reason), now, now)
		if errors.Is(err, store.ErrNotFound) {
			return nil // another worker holds it now
		}
		return err
	}
}

func ownerID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
}
