package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// ChatModel is what the semantic phase needs from a local language model.
type ChatModel interface {
	// Available says whether the model can be asked now, and if not, why (for the user).
	Available(ctx context.Context) (bool, string)
	Model() string
	ChatJSON(ctx context.Context, system, user string) (json.RawMessage, error)
}

// noModel is a semantic job that cannot run yet.
type noModel struct{ why string }

func (n noModel) Error() string { return n.why }

func (n noModel) envelope(model string) *errs.Error {
	return errs.New(errs.NoChatModel, "%s", n.why).
		WithHint("start Ollama and run `ollama pull %s`; the semantic phase then runs by itself", model)
}

// SemanticResult is what phase 3 found for one job, ready to be written.
type SemanticResult struct {
	Job  store.Job
	Plan *Plan
}

// Semantic is phase 3 for one job: when a semantic spec matches the document and a local chat
// model is there, the spec's prompt and the document's chunks (numbered) go to the model; its
// JSON answer is the body of the spec's capability, mapped by the same engine as payloads. Each
// observation cites the chunks the model says its fields came from.
func (in *Ingester) Semantic(ctx context.Context, job store.Job) (*SemanticResult, error) {
	rq := in.DB.Reader()
	doc, err := store.GetDocument(ctx, rq, job.DocumentID)
	if err != nil {
		return nil, fmt.Errorf("semantic %s: %w", job.DocumentID, err)
	}
	if doc.PayloadID != job.PayloadID || !can(doc, docstate.SemanticDone) {
		return nil, errSuperseded
	}
	sp, err := in.semanticSpec(ctx, doc)
	if err != nil {
		return nil, err
	}
	if sp == nil {
		return nil, errSuperseded // the document's type no longer matches a spec
	}
	if in.Chat == nil {
		return nil, noModel{"no chat model is configured"}
	}
	if ok, why := in.Chat.Available(ctx); !ok {
		return nil, noModel{why}
	}
	chunks, err := store.ChunksOf(ctx, rq, doc.DocumentID)
	if err != nil {
		return nil, fmt.Errorf("semantic %s: %w", job.DocumentID, err)
	}
	var text strings.Builder
	for _, c := range chunks {
		if text.Len()+len(c.Text) > sp.MaxChars {
			break
		}
		fmt.Fprintf(&text, "[chunk %d]\n%s\n\n", c.Ordinal, c.Text)
	}
	system := strings.TrimSpace(sp.Prompt) + "\n\nAnswer with one JSON object only. Add \"_evidence\": an object that maps each field you filled to the number of the [chunk N] it came from."
	answer, err := in.Chat.ChatJSON(ctx, system, text.String())
	if err != nil {
		return nil, errs.Wrap(errs.ChatFailed, err, "the local chat model did not answer").WithHint("Strata retries; check that Ollama is running")
	}
	v, err := ids.Decode(answer)
	obj, isObj := v.(map[string]any)
	if err != nil || !isObj {
		return nil, errs.New(errs.AnalysisFailed, "the chat model's answer is not a JSON object").WithHint("retry, or use a larger model")
	}
	evidence, _ := obj["_evidence"].(map[string]any)
	delete(obj, "_evidence")
	c := in.Specs.Capabilities[sp.Capability]
	body, err := normalizeBody(c, obj)
	if err != nil {
		return nil, errs.Wrap(errs.AnalysisFailed, err, "the chat model's answer does not fit %s", c.ID).
			WithHint("retry, or use a larger model (STRATA_CHAT_MODEL)")
	}
	now := store.FormatTime(in.Now())
	p := &Plan{Kind: "semantic", CapabilityID: c.ID,
		Canonical: ids.MustMarshal(map[string]any{"semantic": sp.ID, "document_payload_id": job.PayloadID, "model": in.Chat.Model(), "body": body}),
		Origin: map[string]any{"document_id": doc.DocumentID, "path": doc.Path, "semantic_spec": sp.ID, "model": in.Chat.Model(),
			"extractor_version": sp.ID + "/" + in.Chat.Model(), "source_refs": []string{job.PayloadID}, "extracted_at": now}}
	if err := mapEntities(in.Specs, c, body, p, now); err != nil {
		return nil, errs.Wrap(errs.AnalysisFailed, err, "the chat model's answer does not identify its entities")
	}
	byOrdinal := map[int]string{}
	for _, ch := range chunks {
		byOrdinal[ch.Ordinal] = ch.ChunkID
	}
	for i := range p.Entities {
		pe := &p.Entities[i]
		pe.Observation.DocumentID = doc.DocumentID
		pe.Observation.Extractor = sp.ID
		var fields map[string]any
		_ = json.Unmarshal(pe.Observation.Fields, &fields) // built by mapEntities from canonical values
		pe.Observation.Span = ids.MustMarshal(map[string]any{"document_id": doc.DocumentID, "path": doc.Path, "model": in.Chat.Model(),
			"chunks": citedChunks(fields, evidence, byOrdinal)})
	}
	if len(p.Entities) > 0 {
		docEntity := ids.Entity(typeDocument, doc.DocumentID)
		primary := p.Entities[0].Entity.EntityID
		p.Relationships = append(p.Relationships, store.Relationship{ID: ids.Relationship("REFERS_TO", docEntity, primary),
			RelationshipType: "REFERS_TO", SourceEntityID: docEntity, TargetEntityID: primary})
	}
	return &SemanticResult{Job: job, Plan: p}, nil
}

// citedChunks lists the chunk IDs the model cited for the given fields, in chunk order.
func citedChunks(fields map[string]any, evidence map[string]any, byOrdinal map[int]string) []string {
	seen := map[string]bool{}
	for f := range fields {
		var n int
		switch v := evidence[f].(type) {
		case json.Number:
			i, err := strconv.Atoi(string(v))
			if err != nil {
				continue
			}
			n = i
		case string:
			i, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.ToLower(v), "chunk")))
			if err != nil {
				continue
			}
			n = i
		default:
			continue
		}
		if id, ok := byOrdinal[n]; ok {
			seen[id] = true
		}
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// semanticSpec finds the spec matching the document's type (as phase 2 observed it).
func (in *Ingester) semanticSpec(ctx context.Context, doc store.Document) (*spec.Semantic, error) {
	row, err := store.GetSnapshot(ctx, in.DB.Reader(), ids.Entity(typeDocument, doc.DocumentID))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("semantic %s: %w", doc.DocumentID, err)
	}
	var snap map[string]json.RawMessage
	if err := json.Unmarshal(row.Snapshot, &snap); err != nil {
		return nil, fmt.Errorf("semantic %s: %w", doc.DocumentID, err)
	}
	var docType string
	_ = json.Unmarshal(snap["doc_type"], &docType) // absent → no match
	return in.Specs.SemanticFor(docType), nil
}

// WriteSemantic stores one semantic result in the caller's transaction, if the job's lease is
// still held and the document is still at that version.
func (in *Ingester) WriteSemantic(ctx context.Context, tx *store.Tx, r *SemanticResult) error {
	now := store.FormatTime(in.Now())
	cur, err := store.GetDocument(ctx, tx, r.Job.DocumentID)
	if err != nil {
		return err
	}
	// A document made a duplicate while the job ran (settleOriginals) is not read: its original is.
	if cur.PayloadID != r.Job.PayloadID || !can(cur, docstate.SemanticDone) || cur.DuplicateOf != "" {
		return in.endJob(ctx, r.Job, store.JobSkipped, supersededErr())(tx)
	}
	if err := store.FinishJob(ctx, tx, r.Job.JobID, r.Job.LeaseOwner, store.JobDone, nil, now, now); errors.Is(err, store.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	p := r.Plan
	origin := ids.MustMarshal(p.Origin)
	_, created, err := store.InsertPayload(ctx, tx, store.Payload{PayloadID: p.PayloadID(), PayloadContentID: p.ContentID(), Kind: p.Kind,
		CapabilityID: p.CapabilityID, Body: p.Canonical, Origin: origin, CreatedAt: now})
	if err != nil {
		return err
	}
	subID, err := ids.Submission()
	if err != nil {
		return err
	}
	if err := store.InsertSubmission(ctx, tx, store.Submission{SubmissionID: subID, PayloadID: p.PayloadID(), Created: created, Origin: origin, CreatedAt: now}); err != nil {
		return err
	}
	if created {
		if err := writeObserved(ctx, tx, p.PayloadID(), p.Entities, p.Relationships, now); err != nil {
			return err
		}
	}
	if err := setStatus(&cur, docstate.SemanticDone); err != nil {
		return err
	}
	cur.PhaseSemantic, cur.UpdatedAt = "done", now
	return store.UpdateDocument(ctx, tx, cur)
}
