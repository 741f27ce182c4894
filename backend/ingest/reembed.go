package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// noEmbedder is an embed job that cannot run now.
type noEmbedder struct{ cause error }

func (n noEmbedder) Error() string { return n.cause.Error() }

func (n noEmbedder) envelope() *errs.Error {
	return errs.Wrap(errs.EmbedderUnavailable, n.cause, "the semantic embedder is not available").
		WithHint("start Ollama and run `ollama pull nomic-embed-text`; re-embedding then resumes by itself")
}

// EmbedResult is one document's vectors in the semantic space, ready to be written.
type EmbedResult struct {
	Job    store.Job
	Space  string
	RowIDs []int64
	Vecs   [][]float32
}

// Reembed is the embed phase for one job: the document's chunks that have no vector in the
// semantic space yet are embedded there. Chunks are only ever read here; if the document
// changes meanwhile, the write notices (its payload moved on) and the job is superseded.
func (in *Ingester) Reembed(ctx context.Context, job store.Job) (*EmbedResult, error) {
	if in.Reembedder == nil {
		return nil, errNoHandler
	}
	rq := in.DB.Reader()
	doc, err := store.GetDocument(ctx, rq, job.DocumentID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errSuperseded
	}
	if err != nil {
		return nil, fmt.Errorf("embed %s: %w", job.DocumentID, err)
	}
	if doc.PayloadID != job.PayloadID || isStatus(doc, docstate.Removed, docstate.Failed) {
		return nil, errSuperseded
	}
	space := in.Reembedder.Space()
	chunks, err := store.ChunksWithoutVector(ctx, rq, job.DocumentID, space)
	if err != nil {
		return nil, fmt.Errorf("embed %s: %w", job.DocumentID, err)
	}
	res := &EmbedResult{Job: job, Space: space}
	if len(chunks) == 0 {
		return res, nil
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Heading + "\n" + c.Text // as the static vectors: the heading gives context
	}
	vecs, err := in.Reembedder.EmbedDocuments(ctx, texts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, noEmbedder{err}
	}
	// The space is read again: Ollama reports its real vector size only after answering.
	res.Space = in.Reembedder.Space()
	for i, c := range chunks {
		res.RowIDs = append(res.RowIDs, c.RowID)
		res.Vecs = append(res.Vecs, vecs[i])
	}
	return res, nil
}

// WriteEmbed stores an embed job's vectors and ends the job, if its lease is still held and
// the document was not changed meanwhile (its chunks, and their rowids, would be new).
func (in *Ingester) WriteEmbed(ctx context.Context, tx *store.Tx, r *EmbedResult) error {
	now := store.FormatTime(in.Now())
	d, err := store.GetDocument(ctx, tx, r.Job.DocumentID)
	// A document made a duplicate while the job ran (settleOriginals) has no chunks to embed.
	current := err == nil && d.PayloadID == r.Job.PayloadID && !isStatus(d, docstate.Removed, docstate.Failed) && d.DuplicateOf == ""
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	state, reason := store.JobDone, (*errs.Error)(nil)
	if !current {
		state, reason = store.JobSkipped, supersededErr()
	}
	err = store.FinishJob(ctx, tx, r.Job.JobID, r.Job.LeaseOwner, state, errs.EnvelopeJSON(reason), now, now)
	if errors.Is(err, store.ErrNotFound) {
		return nil // another worker holds it now and will write
	}
	if err != nil || !current || len(r.RowIDs) == 0 {
		return err
	}
	list := make([]store.Embedding, len(r.RowIDs))
	for i := range r.RowIDs {
		list[i] = store.Embedding{ChunkRowID: r.RowIDs[i], Vector: r.Vecs[i]}
	}
	if err := store.InsertEmbeddings(ctx, tx, r.Space, list); err != nil {
		return err
	}
	// A document embedded into the space that already answers (it arrived after the switch)
	// is compared with the others once its vectors are there: its enrich job ran on the
	// static vectors alone and found no vector of its own in this space.
	active, err := store.Setting(ctx, tx, store.ActiveSpaceKey)
	if err != nil || active != r.Space {
		return err
	}
	return store.EnqueueJob(ctx, tx, d.DocumentID, d.PayloadID, PhaseEnrich, store.JobQueued, now)
}

// EnqueueMissingEmbeds queues an embed job for every live document with a chunk lacking a
// vector in the semantic space, and queues again the jobs skipped while the embedder was
// away. It returns how many documents have work queued.
func (in *Ingester) EnqueueMissingEmbeds(ctx context.Context) (int, error) {
	if in.Reembedder == nil {
		return 0, nil
	}
	docs, err := store.DocumentsWithoutVectors(ctx, in.DB.Reader(), in.Reembedder.Space())
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	err = in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		now := store.FormatTime(in.Now())
		for _, d := range docs {
			if err := store.EnqueueJob(ctx, tx, d.DocumentID, d.PayloadID, PhaseEmbed, store.JobQueued, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("queue embed jobs: %w", err)
	}
	return len(docs), nil
}
