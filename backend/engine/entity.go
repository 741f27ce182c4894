package engine

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/paths"
	"github.com/strata-app/strata/backend/reduce"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// Entity, Observation and Relationship are the store's rows, which are also the API's shape.
type (
	Entity       = store.Entity
	Observation  = store.Observation
	Relationship = store.Relationship
)

// Snapshot is seed 001 §3.7's get_entity_snapshot response, plus the entity's names.
type Snapshot struct {
	EntityID          string                     `json:"entity_id"`
	EntityType        string                     `json:"entity_type"`
	SchemaVersion     string                     `json:"schema_version"`
	CanonicalName     string                     `json:"canonical_name"`
	Aliases           []string                   `json:"aliases"`
	Snapshot          map[string]json.RawMessage `json:"snapshot"`
	Provenance        map[string]string          `json:"provenance"`
	ComputedAt        string                     `json:"computed_at"`
	ObservationCount  int                        `json:"observation_count"`
	LastObservationAt *string                    `json:"last_observation_at"` // null when nothing was observed (yet, or before `at`)
	At                string                     `json:"at,omitempty"`
}

func checkEntityID(id string) error {
	if !ids.ValidEntityID(id) {
		return errs.New(errs.Validation, "%q is not an entity ID", id).With("field", "entity_id").
			WithHint("entity IDs look like ent_ followed by 24 hex digits; find them with `strata entity list`")
	}
	return nil
}

func (e *Engine) entity(ctx context.Context, q store.Q, id string) (store.Entity, error) {
	if err := checkEntityID(id); err != nil {
		return store.Entity{}, err
	}
	ent, err := store.GetEntity(ctx, q, id)
	if errors.Is(err, store.ErrNotFound) {
		return ent, errs.New(errs.EntityNotFound, "entity %s does not exist", id).With("entity_id", id).
			WithHint("list entities with `strata entity list` or the entity tool's list action")
	}
	if err != nil {
		return ent, queryErr(err, "the entity")
	}
	return ent, nil
}

// ParseAt parses an `at` time: RFC 3339, or a bare date meaning the end of that day (UTC).
func ParseAt(at string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", at); err == nil {
		return t.Add(24*time.Hour - time.Nanosecond), nil
	}
	return time.Time{}, errs.New(errs.Validation, "at %q is not an RFC 3339 time or a date", at).With("field", "at").
		WithHint("use a time like 2025-01-15T10:30:00Z or a date like 2025-01-15")
}

// GetEntity returns an entity's snapshot: the current one, or as of `at` (RFC 3339) when given,
// recomputed from the observations made up to then.
func (e *Engine) GetEntity(ctx context.Context, id, at string) (*Snapshot, error) {
	ent, err := e.entity(ctx, e.db.Reader(), id)
	if err != nil {
		return nil, err
	}
	t := e.entityType(ent.EntityType)
	out := &Snapshot{EntityID: ent.EntityID, EntityType: ent.EntityType, SchemaVersion: t.SchemaVersion, CanonicalName: ent.CanonicalName,
		Aliases: ent.Aliases, Snapshot: map[string]json.RawMessage{}, Provenance: map[string]string{}}
	if at != "" {
		when, err := ParseAt(at)
		if err != nil {
			return nil, err
		}
		st, err := e.stateUntil(ctx, ent.EntityID, t, store.FormatTime(when))
		if err != nil {
			return nil, err
		}
		out.Snapshot, out.Provenance = st.Snapshot()
		out.ObservationCount, out.LastObservationAt = st.Count, optTime(st.Last)
		out.At, out.ComputedAt = store.FormatTime(when), store.FormatTime(e.now())
		return out, nil
	}
	row, err := store.GetSnapshot(ctx, e.db.Reader(), ent.EntityID)
	if errors.Is(err, store.ErrNotFound) {
		out.ComputedAt = store.FormatTime(e.now())
		return out, nil // an entity known only as a relationship end: nothing observed yet
	}
	if err != nil {
		return nil, queryErr(err, "the snapshot")
	}
	if err := json.Unmarshal(row.Snapshot, &out.Snapshot); err != nil {
		return nil, queryErr(err, "the snapshot")
	}
	if err := json.Unmarshal(row.Provenance, &out.Provenance); err != nil {
		return nil, queryErr(err, "the snapshot provenance")
	}
	out.SchemaVersion, out.ComputedAt, out.ObservationCount, out.LastObservationAt = row.SchemaVersion, row.ComputedAt, row.ObservationCount, optTime(row.LastObservationAt)
	return out, nil
}

// optTime is a stored time as an optional wire value: "" (no observation) is JSON null, so a
// client parsing last_observation_at as a time never meets an empty string.
func optTime(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// entityType returns the spec of typ; an entity whose type spec was removed still reduces,
// with the default policy for every field.
func (e *Engine) entityType(typ string) *spec.EntityType {
	if t, ok := e.specs.EntityTypes[typ]; ok {
		return t
	}
	return &spec.EntityType{Type: typ, SchemaVersion: "1.0", DefaultMerge: spec.MergeLatest}
}

func (e *Engine) stateUntil(ctx context.Context, entityID string, t *spec.EntityType, at string) (*reduce.State, error) {
	obs, err := store.ObservationsUntil(ctx, e.db.Reader(), entityID, at)
	if err != nil {
		return nil, queryErr(err, "observations")
	}
	return reduceAll(t, obs)
}

// reduceAll folds observations into a state.
func reduceAll(t *spec.EntityType, obs []store.Observation) (*reduce.State, error) {
	st := reduce.New()
	for _, o := range obs {
		ro, err := ingest.ReduceObs(o)
		if err != nil {
			return nil, queryErr(err, "observations")
		}
		st.Apply(t, ro)
	}
	return st, nil
}

// ObservationPage is seed 001 §3.8's list_observations response.
type ObservationPage struct {
	Observations []Observation `json:"observations"`
	Total        int           `json:"total"`
	Limit        int           `json:"limit"`
	Offset       int           `json:"offset"`
}

// ListObservations pages through what every source said about an entity, newest first.
func (e *Engine) ListObservations(ctx context.Context, id string, limit, offset int) (*ObservationPage, error) {
	limit, offset, err := pageLimit(limit, offset)
	if err != nil {
		return nil, err
	}
	if _, err := e.entity(ctx, e.db.Reader(), id); err != nil {
		return nil, err
	}
	list, total, err := store.ListObservations(ctx, e.db.Reader(), id, limit, offset)
	if err != nil {
		return nil, queryErr(err, "observations")
	}
	return &ObservationPage{Observations: list, Total: total, Limit: limit, Offset: offset}, nil
}

// SourceObservation summarises the observation behind a value.
type SourceObservation struct {
	ID               string          `json:"id"`
	SourcePayloadID  string          `json:"source_payload_id"`
	SourceRecordID   string          `json:"source_record_id"` // = source_payload_id, seed 001 §3.9's name
	Extractor        string          `json:"extractor"`
	ObservedAt       string          `json:"observed_at"`
	SpecificityScore float64         `json:"specificity_score"`
	SourcePriority   int             `json:"source_priority"`
	Span             json.RawMessage `json:"span,omitempty"`
}

// SourceRecord is seed 001 §3.9's source_record: the payload (the seed's "record") under the
// seed's names, with the file it was read from as a file:// URL. It repeats SourcePayload and
// SourceDocument so that a client written against the seed needs nothing else.
type SourceRecord struct {
	ID        string   `json:"id"`
	Type      string   `json:"type"` // the capability ID for payloads, else the kind (content, file, …)
	FileURLs  []string `json:"file_urls"`
	CreatedAt string   `json:"created_at"`
}

// SourcePayload summarises the payload an observation came from.
type SourcePayload struct {
	PayloadID        string          `json:"payload_id"`
	PayloadContentID string          `json:"payload_content_id"`
	Kind             string          `json:"kind"`
	CapabilityID     string          `json:"capability_id,omitempty"`
	Origin           json.RawMessage `json:"origin"`
	CreatedAt        string          `json:"created_at"`
}

// SourceDocument summarises the document an observation came from.
type SourceDocument struct {
	DocumentID string `json:"document_id"`
	Kind       string `json:"kind"`
	Path       string `json:"path,omitempty"`
	Title      string `json:"title"`
}

// Candidate is one observation's value for a field, in the order the merge policy ranks them.
type Candidate struct {
	ObservationID    string          `json:"observation_id"`
	Value            json.RawMessage `json:"value"`
	ObservedAt       string          `json:"observed_at"`
	SourcePriority   int             `json:"source_priority"`
	SpecificityScore float64         `json:"specificity_score"`
	Chosen           bool            `json:"chosen"`
}

// FieldProvenance is seed 001 §3.9's answer — field → observation → payload → document/file —
// plus the merge policy and the competing values, so a reader sees why this value won.
type FieldProvenance struct {
	EntityID          string            `json:"entity_id"`
	Field             string            `json:"field"`
	Value             json.RawMessage   `json:"value"`
	MergePolicy       string            `json:"merge_policy"`
	SourceObservation SourceObservation `json:"source_observation"`
	SourceRecord      SourceRecord      `json:"source_record"`
	SourcePayload     SourcePayload     `json:"source_payload"`
	SourceDocument    *SourceDocument   `json:"source_document,omitempty"`
	ObservedAt        string            `json:"observed_at"`
	Contributors      []string          `json:"contributors,omitempty"` // union fields: the latest source of each element
	Candidates        []Candidate       `json:"candidates"`
}

const maxCandidates = 50

// FieldProvenance traces one snapshot field to its source.
func (e *Engine) FieldProvenance(ctx context.Context, id, field string) (*FieldProvenance, error) {
	if strings.TrimSpace(field) == "" {
		return nil, errs.New(errs.Validation, "field is required").With("field", "field")
	}
	tr, err := e.tracer(ctx, id)
	if err != nil {
		return nil, err
	}
	return tr.trace(ctx, field)
}

// EntityProvenance is an entity's snapshot with every field traced to its source: what the
// MCP entity resource shows.
type EntityProvenance struct {
	Entity     *Snapshot                   `json:"entity"`
	Provenance map[string]*FieldProvenance `json:"provenance"`
}

// EntityWithProvenance returns an entity's current snapshot and the provenance of each of its
// fields. It reads the observations once and each payload and document once, where asking
// FieldProvenance per field re-read and re-reduced every observation for every field.
func (e *Engine) EntityWithProvenance(ctx context.Context, id string) (*EntityProvenance, error) {
	snap, err := e.GetEntity(ctx, id, "")
	if err != nil {
		return nil, err
	}
	tr, err := e.tracer(ctx, id)
	if err != nil {
		return nil, err
	}
	fields := make([]string, 0, len(tr.snap))
	for f := range tr.snap {
		fields = append(fields, f)
	}
	sort.Strings(fields) // deterministic reads and errors
	out := &EntityProvenance{Entity: snap, Provenance: make(map[string]*FieldProvenance, len(fields))}
	for _, f := range fields {
		p, err := tr.trace(ctx, f)
		if err != nil {
			return nil, err
		}
		out.Provenance[f] = p
	}
	return out, nil
}

// tracer holds what tracing an entity's fields needs, read once: its observations, their
// reduced state, and the payloads and documents already looked up.
type tracer struct {
	e    *Engine
	rq   store.Q
	ent  store.Entity
	t    *spec.EntityType
	obs  []store.Observation
	byID map[string]store.Observation
	st   *reduce.State
	snap map[string]json.RawMessage
	prov map[string]string
	pays map[string]store.Payload
	docs map[string]*SourceDocument
}

func (e *Engine) tracer(ctx context.Context, id string) (*tracer, error) {
	rq := e.db.Reader()
	ent, err := e.entity(ctx, rq, id)
	if err != nil {
		return nil, err
	}
	t := e.entityType(ent.EntityType)
	obs, err := store.ObservationsUntil(ctx, rq, ent.EntityID, "")
	if err != nil {
		return nil, queryErr(err, "observations")
	}
	st, err := reduceAll(t, obs)
	if err != nil {
		return nil, err
	}
	tr := &tracer{e: e, rq: rq, ent: ent, t: t, obs: obs, st: st, byID: make(map[string]store.Observation, len(obs)),
		pays: map[string]store.Payload{}, docs: map[string]*SourceDocument{}}
	for _, o := range obs {
		tr.byID[o.ID] = o
	}
	tr.snap, tr.prov = st.Snapshot()
	return tr, nil
}

// trace is one field's provenance from the tracer's reads.
func (tr *tracer) trace(ctx context.Context, field string) (*FieldProvenance, error) {
	obsID, ok := tr.prov[field]
	if !ok {
		fields := make([]string, 0, len(tr.snap))
		for f := range tr.snap {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		return nil, errs.New(errs.FieldNotFound, "entity %s has no field %q", tr.ent.EntityID, field).With("fields", fields).
			WithHint("fields of this entity: %s", strings.Join(fields, ", "))
	}
	obs, ok := tr.byID[obsID]
	if !ok {
		return nil, queryErr(store.ErrNotFound, "the observation")
	}
	pay, ok := tr.pays[obs.SourcePayloadID]
	if !ok {
		var err error
		if pay, err = store.GetPayload(ctx, tr.rq, obs.SourcePayloadID); err != nil {
			return nil, queryErr(err, "the payload")
		}
		tr.pays[obs.SourcePayloadID] = pay
	}
	t := tr.t
	out := &FieldProvenance{EntityID: tr.ent.EntityID, Field: field, Value: tr.snap[field], MergePolicy: t.Policy(field),
		SourceObservation: SourceObservation{ID: obs.ID, SourcePayloadID: obs.SourcePayloadID, SourceRecordID: obs.SourcePayloadID, Extractor: obs.Extractor,
			ObservedAt: obs.ObservedAt, SpecificityScore: obs.SpecificityScore, SourcePriority: obs.SourcePriority, Span: obs.Span},
		SourcePayload: SourcePayload{PayloadID: pay.PayloadID, PayloadContentID: pay.PayloadContentID, Kind: pay.Kind,
			CapabilityID: pay.CapabilityID, Origin: pay.Origin, CreatedAt: pay.CreatedAt},
		SourceRecord: SourceRecord{ID: pay.PayloadID, Type: recordType(pay), FileURLs: []string{}, CreatedAt: pay.CreatedAt},
		ObservedAt:   obs.ObservedAt, Candidates: []Candidate{}}
	if obs.DocumentID != "" {
		sd, ok := tr.docs[obs.DocumentID]
		if !ok {
			d, err := store.GetDocument(ctx, tr.rq, obs.DocumentID)
			switch {
			case err == nil:
				sd = &SourceDocument{DocumentID: d.DocumentID, Kind: d.Kind, Path: d.Path, Title: d.Title}
			case !errors.Is(err, store.ErrNotFound):
				return nil, queryErr(err, "the document")
			}
			tr.docs[obs.DocumentID] = sd
		}
		if sd != nil && sd.Path != "" {
			out.SourceRecord.FileURLs = []string{fileURL(sd.Path)}
		}
		out.SourceDocument = sd
	}
	if t.Policy(field) == spec.MergeUnion {
		for _, w := range tr.st.Contributors(field) {
			out.Contributors = append(out.Contributors, w.Obs)
		}
	}
	cands, err := candidatesOf(tr.obs, t, field, obsID)
	if err != nil {
		return nil, err
	}
	out.Candidates = cands
	return out, nil
}

// recordType is source_record.type: what kind of record the payload is, as precisely as known.
func recordType(p store.Payload) string {
	if p.CapabilityID != "" {
		return p.CapabilityID
	}
	return p.Kind
}

// fileURL is a local path as a file:// URL (seed 001 §3.9 file_urls; Strata has no signed URLs
// because nothing leaves the machine).
func fileURL(path string) string { return paths.Host.FileURL(path) }

// candidatesOf lists every observation's value for field, ranked by the field's merge policy.
func candidatesOf(obs []store.Observation, t *spec.EntityType, field, chosen string) ([]Candidate, error) {
	policy := t.Policy(field)
	if policy == spec.MergeUnion {
		policy = spec.MergeLatest
	}
	type ranked struct {
		w reduce.Winner
		c Candidate
	}
	var list []ranked
	for _, o := range obs {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(o.Fields, &fields); err != nil {
			return nil, queryErr(err, "observation fields")
		}
		v, ok := fields[field]
		if !ok || string(v) == "null" {
			continue
		}
		list = append(list, ranked{
			w: reduce.Winner{Obs: o.ID, ObservedAt: o.ObservedAt, Priority: o.SourcePriority, Specificity: o.SpecificityScore},
			c: Candidate{ObservationID: o.ID, Value: v, ObservedAt: o.ObservedAt, SourcePriority: o.SourcePriority,
				SpecificityScore: o.SpecificityScore, Chosen: o.ID == chosen},
		})
	}
	sort.Slice(list, func(i, j int) bool { return reduce.Better(policy, &list[i].w, &list[j].w) })
	out := []Candidate{}
	for i, r := range list {
		if i == maxCandidates {
			break
		}
		out = append(out, r.c)
	}
	return out, nil
}

// EntityPage is a page of entities.
type EntityPage struct {
	Entities []Entity `json:"entities"`
	Total    int      `json:"total"`
	Limit    int      `json:"limit"`
	Offset   int      `json:"offset"`
}

// AllTypes asks ListEntities for entities of every type, documents included.
const AllTypes = "*"

// DocumentType is the entity type of the one entity each file gets.
const DocumentType = "document"

// ListEntities pages through entities in ID order, optionally of one type or matching a name.
// Without a type it leaves out document entities: a folder of 5,000 files makes 5,000 of
// them, which would bury every person, company and concept; typ DocumentType lists only them
// and AllTypes lists everything.
func (e *Engine) ListEntities(ctx context.Context, typ, query string, limit, offset int) (*EntityPage, error) {
	limit, offset, err := pageLimit(limit, offset)
	if err != nil {
		return nil, err
	}
	f := store.EntityFilter{Type: typ, Query: query, Limit: limit, Offset: offset}
	switch typ {
	case "":
		f.ExcludeType = DocumentType
	case AllTypes:
		f.Type = ""
	}
	list, total, err := store.ListEntities(ctx, e.db.Reader(), f)
	if err != nil {
		return nil, queryErr(err, "entities")
	}
	return &EntityPage{Entities: list, Total: total, Limit: limit, Offset: offset}, nil
}

// RelationshipResult is seed 001 §3.10's create_relationship response, plus whether it was new.
type RelationshipResult struct {
	Relationship
	Created bool `json:"created"`
}

// CreateRelationship adds a typed edge; the same edge twice returns the first one.
func (e *Engine) CreateRelationship(ctx context.Context, typ, source, target string, metadata json.RawMessage) (*RelationshipResult, error) {
	if len(metadata) > 0 && string(metadata) != "null" {
		v, err := ids.Decode(metadata)
		if _, isObj := v.(map[string]any); err != nil || !isObj {
			return nil, errs.New(errs.Validation, "metadata must be a JSON object").With("field", "metadata")
		}
		metadata = ids.MustMarshal(ids.Normalize(v))
	} else {
		metadata = nil
	}
	var out RelationshipResult
	err := e.db.WriteTx(ctx, func(tx *store.Tx) error {
		r, created, err := ingest.CreateRelationship(ctx, tx, store.Relationship{RelationshipType: typ, SourceEntityID: source,
			TargetEntityID: target, Metadata: metadata, CreatedAt: store.FormatTime(e.now())})
		out.Relationship, out.Created = r, created
		return err
	})
	if err != nil {
		if ee := (*errs.Error)(nil); errors.As(err, &ee) {
			return nil, ee
		}
		return nil, errs.Wrap(errs.DBInsertFailed, err, "could not store the relationship").WithHint("nothing was written; retry")
	}
	return &out, nil
}
