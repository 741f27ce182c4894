// Package ingest is Strata's one write path (ADR-028): ingest(data, input_kind?).
//
// An adapter turns the caller's JSON into a Plan — every row it will write, with every ID
// already derived from content — and Apply writes a plan in one transaction. Because a plan is
// a pure function of its input, a duplicate submission is answered from the plan (same IDs,
// created: false) without touching anything but the submissions log.
package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/reduce"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// Input kinds.
const (
	KindAuto        = "auto"
	KindContent     = "content"
	KindExtractFile = "extract-file"
	KindPayload     = "payload"
)

// Source priorities: how much a source is trusted when fields conflict (highest_priority merge).
const (
	PriorityContent    = 80 // text a person or agent wrote down on purpose
	PriorityCapability = 50 // default for structured payloads
)

// Result is what every ingest returns: the seed's submit_payload response plus the IDs of what
// was made, so no transport ever has to guess.
type Result struct {
	InputKind           string            `json:"input_kind"`
	CapabilityID        string            `json:"capability_id,omitempty"`
	PayloadID           string            `json:"payload_id"`
	PayloadContentID    string            `json:"payload_content_id"`
	PayloadSubmissionID string            `json:"payload_submission_id"`
	Created             bool              `json:"created"`
	Message             string            `json:"message"`
	EntityIDs           []string          `json:"entity_ids"`
	Entities            []EntityRef       `json:"entities"`
	RelationshipIDs     []string          `json:"relationship_ids"`
	DocumentID          string            `json:"document_id,omitempty"`
	Phases              map[string]string `json:"phases,omitempty"`
}

// ChunkEmbedder embeds chunk texts into one vector space inline, as chunks are written (the
// fast static embedder; a slower semantic space is built in the background instead).
type ChunkEmbedder interface {
	EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error)
	Space() string
}

// embedChunks computes the chunks' vectors (nil when there is no embedder).
func (in *Ingester) embedChunks(ctx context.Context, chunks []store.Chunk) ([][]float32, error) {
	if in.Embedder == nil || len(chunks) == 0 {
		return nil, nil
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Heading + "\n" + c.Text // the heading path gives a chunk its context
	}
	vecs, err := in.Embedder.EmbedDocuments(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed %d chunks: %w", len(chunks), err)
	}
	return vecs, nil
}

// writeVectors stores the vectors of freshly inserted chunks.
func (in *Ingester) writeVectors(ctx context.Context, tx *store.Tx, chunks []store.Chunk, vecs [][]float32) error {
	if in.Embedder == nil || len(vecs) == 0 {
		return nil
	}
	ids := make([]string, len(chunks))
	for i, c := range chunks {
		ids[i] = c.ChunkID
	}
	rowids, err := store.ChunkRowIDs(ctx, tx, ids)
	if err != nil {
		return err
	}
	list := make([]store.Embedding, 0, len(chunks))
	for i, c := range chunks {
		if rid, ok := rowids[c.ChunkID]; ok && i < len(vecs) && vecs[i] != nil {
			list = append(list, store.Embedding{ChunkRowID: rid, Vector: vecs[i]})
		}
	}
	return store.InsertEmbeddings(ctx, tx, in.Embedder.Space(), list)
}

// EntityRef names an entity an ingest observed, so a reader need not look each ID up.
type EntityRef struct {
	EntityID   string `json:"entity_id"`
	EntityType string `json:"entity_type"`
	Name       string `json:"name"`
}

// PathCheck vets a file path on behalf of whoever asked for it and returns the path to read
// (for a remote caller: cleaned, with symlinks resolved), or an error envelope. The engine
// builds one per call from the caller it is given; Ingest refuses a file_path without one, so
// no route reads a file that nobody vetted.
type PathCheck func(ctx context.Context, path string) (string, error)

// Ingester writes plans into the store.
type Ingester struct {
	DB           *store.DB
	Specs        *spec.Registry
	Now          func() time.Time
	MaxFileBytes int64         // 0 = DefaultMaxFileBytes
	ReadTimeout  time.Duration // one file's reader; 0 = DefaultReadTimeout
	Chat         ChatModel     // the semantic phase's model; nil: the phase is skipped
	Embedder     ChunkEmbedder // vectors written with every chunk; nil: none
	// Reembedder builds the semantic vector space in the background (embed jobs); nil: no
	// semantic space is configured.
	Reembedder ChunkEmbedder
}

// Ingest classifies data, builds its plan and applies it. A file_path is read only after check
// allows it; check is a parameter rather than a context value so that no caller can forget it.
func (in *Ingester) Ingest(ctx context.Context, kind string, data json.RawMessage, check PathCheck) (*Result, error) {
	obj, err := decodeObject(data)
	if err != nil {
		return nil, err
	}
	route, err := Classify(in.Specs, kind, obj)
	if err != nil {
		return nil, err
	}
	now := in.Now().UTC()
	var plan *Plan
	switch route.Kind {
	case KindContent:
		plan, err = planContent(in.Specs, data, now)
	case KindPayload:
		plan, err = planPayload(in.Specs, data, route.Capability, now)
	case KindExtractFile:
		var fi fileInput
		if err := strictDecode(data, &fi, "file input"); err != nil {
			return nil, err
		}
		if strings.TrimSpace(fi.FilePath) == "" {
			return nil, errs.New(errs.Validation, "file_path is empty").With("field", "file_path")
		}
		if check == nil {
			return nil, errs.New(errs.Internal, "no path rule was given for %s", fi.FilePath).With("path", fi.FilePath)
		}
		real, err := check(ctx, fi.FilePath)
		if err != nil {
			return nil, err
		}
		fi.FilePath = real
		return in.RegisterFile(ctx, fi.FilePath, map[string]any{"source": fi.Source, "agent_id": fi.AgentID})
	}
	if err != nil {
		return nil, err
	}
	if plan.Vectors, err = in.embedChunks(ctx, plan.Chunks); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "could not embed the text")
	}
	return in.Apply(ctx, plan)
}

func decodeObject(data json.RawMessage) (map[string]any, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, errs.New(errs.Validation, "data is empty").WithHint("send one JSON object, e.g. {\"text\": \"…\"}")
	}
	v, err := ids.Decode(data)
	if err != nil {
		return nil, errs.New(errs.Validation, "data is not valid JSON: %v", err).WithHint("send one JSON object, e.g. {\"text\": \"…\"}")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errs.New(errs.Validation, "data must be a JSON object, got %s", jsonKind(v)).WithHint("wrap the value in an object, e.g. {\"text\": \"…\"}")
	}
	return obj, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "an object"
}

// Route is where the classifier sends an input.
type Route struct {
	Kind       string           // content | extract-file | payload
	Capability *spec.Capability // for payloads routed by spec shape or explicit capability kind
}

// Classify decides the input kind. With kind empty or "auto" it applies DESIGN.md's precedence:
// {text}/{annotation} → content; {file_path} → extract-file; {capability_id, body, provenance}
// → payload; bare JSON matching a registered capability's shape → that capability.
func Classify(reg *spec.Registry, kind string, obj map[string]any) (Route, error) {
	switch kind {
	case "", KindAuto:
	case KindContent, KindExtractFile, KindPayload:
		return Route{Kind: kind}, nil
	default:
		if c, ok := reg.Capabilities[kind]; ok {
			return Route{Kind: KindPayload, Capability: c}, nil
		}
		return Route{}, errs.New(errs.UnsupportedInputKind, "unknown input kind %q", kind).
			With("accepted_kinds", acceptedKinds(reg)).
			WithHint("omit input_kind to let Strata detect it, or use one of the accepted kinds")
	}
	has := func(k string) bool { _, ok := obj[k]; return ok }
	switch {
	case has("text") || has("annotation"):
		return Route{Kind: KindContent}, nil
	case has("file_path"):
		return Route{Kind: KindExtractFile}, nil
	case has("capability_id") && has("body"):
		return Route{Kind: KindPayload}, nil
	}
	var best []*spec.Capability
	bestN := 0
	for _, id := range reg.CapabilityIDs() {
		c := reg.Capabilities[id]
		if c.Match == nil {
			continue
		}
		ok := true
		for _, f := range c.Match.Required {
			if v, present := obj[f]; !present || v == nil {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		switch n := len(c.Match.Required); {
		case n > bestN:
			best, bestN = []*spec.Capability{c}, n
		case n == bestN:
			best = append(best, c)
		}
	}
	switch len(best) {
	case 1:
		return Route{Kind: KindPayload, Capability: best[0]}, nil
	case 0:
		return Route{}, errs.New(errs.Validation, "cannot tell what kind of input this is; accepted shapes: %s", strings.Join(acceptedShapes(reg), "; ")).
			With("accepted_shapes", acceptedShapes(reg)).
			WithHint("send {\"text\": …} for notes, {\"capability_id\", \"body\", \"provenance\"} for structured data, or pass input_kind")
	default:
		names := make([]string, len(best))
		for i, c := range best {
			names[i] = c.ID
		}
		return Route{}, errs.New(errs.Validation, "input matches several capabilities: %s", strings.Join(names, ", ")).
			With("candidates", names).WithHint("pass input_kind with the capability you mean")
	}
}

func acceptedKinds(reg *spec.Registry) []string {
	return append([]string{KindAuto, KindContent, KindExtractFile, KindPayload}, reg.CapabilityIDs()...)
}

func acceptedShapes(reg *spec.Registry) []string {
	out := []string{
		`{"text": string, "tags"?, "title"?, "source"?, "agent_id"?, "file"?, "line_start"?, "line_end"?, "chain_name"?} (content)`,
		`{"annotation": string, …} (content)`,
		`{"file_path": string} (extract-file)`,
		`{"capability_id": string, "body": object, "provenance": {"source_refs", "extracted_at", "extractor_version", "agent_id"?}} (payload)`,
	}
	for _, id := range reg.CapabilityIDs() {
		if c := reg.Capabilities[id]; c.Match != nil {
			out = append(out, fmt.Sprintf("{%s, …} (%s)", quoteAll(c.Match.Required), id))
		}
	}
	return out
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = `"` + x + `"`
	}
	return strings.Join(q, ", ")
}

// Plan is everything one input will write, with all IDs derived up front.
type Plan struct {
	Kind            string
	CapabilityID    string
	Canonical       []byte // normalised content; its hash is the payload content ID
	Origin          map[string]any
	ClientRequestID string
	Document        *store.Document
	Chunks          []store.Chunk
	Vectors         [][]float32 // one per chunk, in the embedder's space
	Entities        []PlannedEntity
	Relationships   []store.Relationship
	Phases          map[string]string

	contentID, payloadID string
}

// PlannedEntity is an entity and the observation the input makes of it.
type PlannedEntity struct {
	Entity      store.Entity
	Observation store.Observation
	Type        *spec.EntityType
}

// ContentID is the plan's payload content ID.
func (p *Plan) ContentID() string {
	if p.contentID == "" {
		p.contentID = ids.PayloadContent(p.Kind, p.Canonical)
		p.payloadID = ids.Payload(p.contentID)
	}
	return p.contentID
}

// PayloadID is the plan's payload UUID.
func (p *Plan) PayloadID() string { p.ContentID(); return p.payloadID }

func (p *Plan) result(created bool, submissionID string) *Result {
	r := &Result{InputKind: p.Kind, CapabilityID: p.CapabilityID, PayloadID: p.PayloadID(), PayloadContentID: p.ContentID(),
		PayloadSubmissionID: submissionID, Created: created, EntityIDs: []string{}, Entities: []EntityRef{}, RelationshipIDs: []string{},
		Phases: p.Phases}
	seen := map[string]bool{}
	for _, e := range p.Entities {
		if !seen[e.Entity.EntityID] {
			seen[e.Entity.EntityID] = true
			r.EntityIDs = append(r.EntityIDs, e.Entity.EntityID)
			r.Entities = append(r.Entities, EntityRef{EntityID: e.Entity.EntityID, EntityType: e.Entity.EntityType, Name: e.Entity.CanonicalName})
		}
	}
	for _, rel := range p.Relationships {
		r.RelationshipIDs = append(r.RelationshipIDs, rel.ID)
	}
	if p.Document != nil {
		r.DocumentID = p.Document.DocumentID
	}
	if created {
		r.Message = fmt.Sprintf("Payload created: %s observed, %s", plural(len(r.EntityIDs), "entity", "entities"),
			plural(len(r.RelationshipIDs), "relationship", "relationships"))
		if p.Document != nil {
			r.Message += fmt.Sprintf(", %s indexed", plural(len(p.Chunks), "chunk", "chunks"))
		}
	} else {
		r.Message = "Duplicate payload: this content is already stored; nothing changed"
	}
	return r
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Apply writes a plan in one transaction: the payload and a submission record always; the
// rest only when the payload is new. A failure leaves nothing behind.
func (in *Ingester) Apply(ctx context.Context, p *Plan) (*Result, error) {
	subID, err := ids.Submission()
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "could not make a submission ID")
	}
	now := store.FormatTime(in.Now())
	origin := ids.MustMarshal(p.Origin)
	var res *Result
	err = in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		if p.ClientRequestID != "" {
			prev, err := store.SubmissionByClientRequest(ctx, tx, p.ClientRequestID)
			switch {
			case err == nil && prev.PayloadID == p.PayloadID():
				res = p.result(prev.Created, prev.SubmissionID) // a retry of the same call: same answer
				return nil
			case err == nil:
				return errs.New(errs.Validation, "client_request_id %q was already used for different content", p.ClientRequestID).
					WithHint("use a new client_request_id for a new submission")
			case !errors.Is(err, store.ErrNotFound):
				return err
			}
		}
		_, created, err := store.InsertPayload(ctx, tx, store.Payload{PayloadID: p.PayloadID(), PayloadContentID: p.ContentID(), Kind: p.Kind,
			CapabilityID: p.CapabilityID, Body: p.Canonical, Origin: origin, CreatedAt: now})
		if err != nil {
			return err
		}
		if err := store.InsertSubmission(ctx, tx, store.Submission{SubmissionID: subID, PayloadID: p.PayloadID(),
			ClientRequestID: p.ClientRequestID, Created: created, Origin: origin, CreatedAt: now}); err != nil {
			return err
		}
		res = p.result(created, subID)
		if !created {
			return nil
		}
		return in.writeNew(ctx, tx, p, now)
	})
	if err != nil {
		if e := (*errs.Error)(nil); errors.As(err, &e) {
			return nil, e
		}
		return nil, errs.Wrap(errs.DBInsertFailed, err, "could not store the submission").
			WithHint("nothing was written; retry, and if it keeps failing check the data folder's disk space and permissions")
	}
	return res, nil
}

func (in *Ingester) writeNew(ctx context.Context, tx *store.Tx, p *Plan, now string) error {
	if p.Document != nil {
		d := *p.Document
		d.PayloadID, d.CreatedAt, d.UpdatedAt = p.PayloadID(), now, now
		if _, err := store.InsertDocument(ctx, tx, d); err != nil {
			return err
		}
		if err := store.InsertChunks(ctx, tx, p.Chunks); err != nil {
			return err
		}
		if err := in.writeVectors(ctx, tx, p.Chunks, p.Vectors); err != nil {
			return err
		}
	}
	return writeObserved(ctx, tx, p.PayloadID(), p.Entities, p.Relationships, now)
}

// writeObserved writes entities, their new observations (folded into snapshots) and
// relationships; payloadID is the source of those that do not name their own. Observations must be new — their IDs include a new payload's content ID — so
// each table is written with one multi-row statement and each snapshot is read and written once.
func writeObserved(ctx context.Context, tx *store.Tx, payloadID string, planned []PlannedEntity, relationships []store.Relationship, now string) error {
	entities := make([]store.Entity, 0, len(planned))
	observations := make([]store.Observation, 0, len(planned))
	byEntity := map[string][]PlannedEntity{}
	var order []string
	for _, pe := range planned {
		pe.Entity.CreatedAt = now
		if pe.Observation.SourcePayloadID == "" {
			pe.Observation.SourcePayloadID = payloadID
		}
		pe.Observation.CreatedAt = now
		entities = append(entities, pe.Entity)
		observations = append(observations, pe.Observation)
		if _, ok := byEntity[pe.Entity.EntityID]; !ok {
			order = append(order, pe.Entity.EntityID)
		}
		byEntity[pe.Entity.EntityID] = append(byEntity[pe.Entity.EntityID], pe)
	}
	if err := store.UpsertEntities(ctx, tx, entities); err != nil {
		return err
	}
	if err := store.InsertObservations(ctx, tx, observations); err != nil {
		return err
	}
	if err := applyObservations(ctx, tx, order, byEntity, now); err != nil {
		return err
	}
	rels := make([]store.Relationship, 0, len(relationships))
	for _, r := range relationships {
		if r.SourcePayloadID == "" {
			r.SourcePayloadID = payloadID
		}
		r.CreatedAt = now
		// both ends were upserted above in this transaction: only the cycle check remains
		if err := checkCycle(ctx, tx, r); err != nil {
			return err
		}
		rels = append(rels, r)
	}
	return store.InsertRelationships(ctx, tx, rels)
}

// applyObservations folds new observations into the stored snapshots of their entities.
func applyObservations(ctx context.Context, tx *store.Tx, order []string, byEntity map[string][]PlannedEntity, now string) error {
	stored, err := store.GetSnapshots(ctx, tx, order)
	if err != nil {
		return err
	}
	rows := make([]store.SnapshotRow, 0, len(order))
	for _, id := range order {
		list := byEntity[id]
		st := reduce.New()
		if row, ok := stored[id]; ok {
			if err := json.Unmarshal(row.State, st); err != nil {
				return fmt.Errorf("snapshot state of %s: %w", id, err)
			}
			if st.Unions == nil {
				st.Unions = map[string]map[string]*reduce.Winner{}
			}
		}
		for _, pe := range list {
			obs, err := ReduceObs(pe.Observation)
			if err != nil {
				return err
			}
			st.Apply(pe.Type, obs)
		}
		rows = append(rows, SnapshotRow(id, list[0].Type, st, now))
	}
	return store.PutSnapshots(ctx, tx, rows)
}

// ReduceObs converts a stored observation for the reducer.
func ReduceObs(o store.Observation) (reduce.Obs, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(o.Fields, &fields); err != nil {
		return reduce.Obs{}, fmt.Errorf("observation %s fields: %w", o.ID, err)
	}
	return reduce.Obs{ID: o.ID, ObservedAt: o.ObservedAt, SourcePriority: o.SourcePriority, Specificity: o.SpecificityScore, Fields: fields}, nil
}

// SnapshotRow renders a reducer state as the stored snapshot row.
func SnapshotRow(entityID string, t *spec.EntityType, st *reduce.State, now string) store.SnapshotRow {
	snap, prov := st.Snapshot()
	return store.SnapshotRow{EntityID: entityID, EntityType: t.Type, SchemaVersion: t.SchemaVersion,
		Snapshot: ids.MustMarshal(snap), Provenance: ids.MustMarshal(prov), State: ids.MustMarshal(st),
		ObservationCount: st.Count, LastObservationAt: st.Last, ComputedAt: now}
}

// CreateRelationship stores r (its ID derived from type, source and target) after checking the
// type, both ends, and — for PART_OF, DEPENDS_ON and SUPERSEDES — that it closes no cycle.
// Creating an existing edge returns the stored one unchanged.
func CreateRelationship(ctx context.Context, q store.Q, r store.Relationship) (store.Relationship, bool, error) {
	if !spec.ValidRelationshipType(r.RelationshipType) {
		return r, false, errs.New(errs.InvalidRelationshipType, "unknown relationship type %q", r.RelationshipType).
			With("accepted_types", spec.RelationshipTypes).WithHint("use one of %s", strings.Join(spec.RelationshipTypes, ", "))
	}
	for _, id := range []string{r.SourceEntityID, r.TargetEntityID} {
		if !ids.ValidEntityID(id) {
			return r, false, errs.New(errs.Validation, "%q is not an entity ID", id).WithHint("entity IDs look like ent_ followed by 24 hex digits")
		}
	}
	r.ID = ids.Relationship(r.RelationshipType, r.SourceEntityID, r.TargetEntityID)
	if prev, err := store.GetRelationship(ctx, q, r.RelationshipType, r.SourceEntityID, r.TargetEntityID); err == nil {
		return prev, false, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return r, false, err
	}
	for _, id := range []string{r.SourceEntityID, r.TargetEntityID} {
		if _, err := store.GetEntity(ctx, q, id); errors.Is(err, store.ErrNotFound) {
			return r, false, errs.New(errs.EntityNotFound, "entity %s does not exist", id).With("entity_id", id).
				WithHint("create it by ingesting something that names it, or check the ID with `strata entity list`")
		} else if err != nil {
			return r, false, err
		}
	}
	if err := checkCycle(ctx, q, r); err != nil {
		return r, false, err
	}
	created, err := store.InsertRelationship(ctx, q, r)
	return r, created, err
}

// checkCycle refuses an edge of an acyclic type (PART_OF, DEPENDS_ON, SUPERSEDES) that would
// close a cycle.
func checkCycle(ctx context.Context, q store.Q, r store.Relationship) error {
	if spec.Acyclic[r.RelationshipType] {
		if r.SourceEntityID == r.TargetEntityID {
			return errs.New(errs.CycleDetected, "%s from an entity to itself is a cycle", r.RelationshipType).
				With("entity_id", r.SourceEntityID).WithHint("%s relationships must form no cycle", r.RelationshipType)
		}
		cyc, err := store.Reaches(ctx, q, r.RelationshipType, r.TargetEntityID, r.SourceEntityID)
		if err != nil {
			return err
		}
		if cyc {
			return errs.New(errs.CycleDetected, "%s %s → %s would close a cycle: %s already reaches %s", r.RelationshipType,
				r.SourceEntityID, r.TargetEntityID, r.TargetEntityID, r.SourceEntityID).
				With("source_entity_id", r.SourceEntityID).With("target_entity_id", r.TargetEntityID).
				WithHint("%s relationships must form no cycle; remove the opposite path or use another type", r.RelationshipType)
		}
	}
	return nil
}

// observation builds a planned entity with its observation; fields must be canonical JSON
// values.
func observation(t *spec.EntityType, key, name string, fields map[string]any, specificity float64, priority int,
	extractor, rule, contentID, observedAt, documentID string, span any) PlannedEntity {
	entityID := ids.Entity(t.Type, key)
	var spanJSON json.RawMessage
	if span != nil {
		spanJSON = ids.MustMarshal(span)
	}
	return PlannedEntity{
		Type:   t,
		Entity: store.Entity{EntityID: entityID, EntityType: t.Type, CanonicalName: name, IdentityKey: key},
		Observation: store.Observation{
			ID: ids.Observation(entityID, contentID, rule), EntityID: entityID, EntityType: t.Type, SchemaVersion: t.SchemaVersion,
			DocumentID: documentID, Extractor: extractor, ObservedAt: observedAt, SpecificityScore: specificity,
			SourcePriority: priority, Fields: ids.MustMarshal(fields), Span: spanJSON,
		},
	}
}
