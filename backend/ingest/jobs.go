package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/jobs"
	"github.com/strata-app/strata/backend/store"
)

// Handler returns the jobs.Handler of in's reading phases (analyze, semantic, embed); the enrich
// phase is backend/enrich's, routed there by the engine (jobs.Phases), and runs in
// transactions of its own after these have committed.
func (in *Ingester) Handler(log *slog.Logger) jobs.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &jobHandler{in: in, log: log}
}

// jobHandler is jobs.Handler for the ingest phases.
type jobHandler struct {
	in  *Ingester
	log *slog.Logger
}

var _ jobs.Handler = (*jobHandler)(nil)

// Run runs claimed jobs: each job's work happens outside any transaction, then the writes of
// all that succeeded are applied in one transaction (group commit: one commit, one full-text
// flush for the batch).
func (h *jobHandler) Run(ctx context.Context, batch []store.Job) map[int64]error {
	failed := map[int64]error{}
	var analyses []*Analysis
	var semantics []*SemanticResult
	var embeds []*EmbedResult
	var writes []func(tx *store.Tx) error
	var held []store.Job // jobs whose write is in this batch
	outcomes := h.handleAll(ctx, batch)
	for i, job := range batch {
		res, err := outcomes[i].res, outcomes[i].err
		var nm noModel
		var ne noEmbedder
		switch {
		case errors.As(err, &nm):
			writes = append(writes, h.in.skipSemantic(ctx, job, nm))
			held = append(held, job)
		case errors.As(err, &ne):
			writes = append(writes, h.in.endJob(ctx, job, store.JobSkipped, ne.envelope()))
			held = append(held, job)
		case errors.Is(err, errSuperseded) || errors.Is(err, errNoHandler):
			writes = append(writes, h.in.endJob(ctx, job, store.JobSkipped, supersededErr()))
			held = append(held, job)
		case err != nil:
			failed[job.JobID] = err
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
	if len(held) == 0 {
		return failed
	}
	in := h.in
	err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		for _, w := range writes {
			if err := w(tx); err != nil {
				return err
			}
		}
		for _, s := range semantics {
			if err := in.WriteSemantic(ctx, tx, s); err != nil {
				return fmt.Errorf("job %d: %w", s.Job.JobID, err)
			}
		}
		for _, em := range embeds {
			if err := in.WriteEmbed(ctx, tx, em); err != nil {
				return fmt.Errorf("job %d: %w", em.Job.JobID, err)
			}
		}
		return in.WriteAnalyses(ctx, tx, analyses)
	})
	if err != nil {
		for _, j := range held {
			failed[j.JobID] = err
		}
	}
	return failed
}

// outcome is what handle returned for one job of a batch.
type outcome struct {
	res any
	err error
}

// handleAll does the work of a batch's jobs, the analyses side by side on up to GOMAXPROCS
// goroutines, and returns their outcomes in batch order (so the write that follows is the
// same whatever finished first). One by one, a batch's analyses kept a core idle whenever
// the other worker was writing or had nothing left to claim: the tail of a folder ingest was
// one worker reading a batch of sixteen files alone. Semantic and embed jobs stay sequential:
// they wait on a model server, not on this machine's cores.
func (h *jobHandler) handleAll(ctx context.Context, batch []store.Job) []outcome {
	out := make([]outcome, len(batch))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, job := range batch {
		if job.Phase != PhaseAnalyze {
			out[i].res, out[i].err = h.handle(ctx, job)
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i].res, out[i].err = h.handle(ctx, job)
		}()
	}
	wg.Wait()
	return out
}

// errNoHandler: a job of a phase this version does not run; it is retired as skipped.
var errNoHandler = errors.New("no handler for this phase")

func (h *jobHandler) handle(ctx context.Context, job store.Job) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("job panicked", "job", job.JobID, "panic", p, "stack", string(debug.Stack()))
			res, err = nil, errs.New(errs.AnalysisFailed, "the reader crashed on this file").
				WithHint("the file may be damaged; this is worth reporting with the file")
		}
	}()
	switch job.Phase {
	case PhaseAnalyze:
		return h.in.Analyze(ctx, job)
	case PhaseSemantic:
		return h.in.Semantic(ctx, job)
	case PhaseEmbed:
		return h.in.Reembed(ctx, job)
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
	var n int
	err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		var err error
		n, err = store.RequeueSkipped(ctx, tx, PhaseSemantic, errs.NoChatModel, store.FormatTime(in.Now()))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("requeue semantic jobs: %w", err)
	}
	return n, nil
}

// Record implements jobs.Handler: the job is queued again at notBefore, or — retry false —
// the document's phase is marked failed with the error envelope (an analysis failure also
// takes its old chunks out of the index). Only the holder of the job's lease may record.
func (h *jobHandler) Record(ctx context.Context, job store.Job, cause error, retry bool, notBefore time.Time) error {
	in := h.in
	env := errs.EnvelopeJSON(errs.As(cause))
	now := store.FormatTime(in.Now())
	err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		state := store.JobFailed
		if retry {
			state = store.JobQueued
		}
		if err := store.FinishJob(ctx, tx, job.JobID, job.LeaseOwner, state, env, store.FormatTime(notBefore), now); err != nil {
			return err
		}
		d, err := store.GetDocument(ctx, tx, job.DocumentID)
		if err != nil {
			return err
		}
		d.LastError, d.UpdatedAt = env, now
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
	if errors.Is(err, store.ErrNotFound) {
		return nil // another worker holds the job now (or the document is gone): it records, not us
	}
	if err != nil {
		return fmt.Errorf("record failure of job %d: %w", job.JobID, err)
	}
	return nil
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
