package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Q is what both *sql.DB and *sql.Tx offer, so every query works inside or outside a write.
type Q interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Payload is the immutable record of one distinct submission content.
type Payload struct {
	PayloadID        string          `json:"payload_id"`
	PayloadContentID string          `json:"payload_content_id"`
	Kind             string          `json:"kind"`
	CapabilityID     string          `json:"capability_id,omitempty"`
	Body             json.RawMessage `json:"body"`
	Origin           json.RawMessage `json:"origin"`
	CreatedAt        string          `json:"created_at"`
}

// Submission is one call that delivered a payload (duplicates included).
type Submission struct {
	SubmissionID    string
	PayloadID       string
	ClientRequestID string
	Created         bool
	Origin          json.RawMessage
	CreatedAt       string
}

// DocTypeGenerated is the document type of what Strata writes into the store itself (answers
// filed back by ask, published lint reports): searchable like any document, but no source of
// entities, facts or concepts, so an answer never becomes evidence for itself.
const DocTypeGenerated = "generated"

// Document is a file or a text known to Strata.
type Document struct {
	DocumentID    string          `json:"document_id"`
	PayloadID     string          `json:"payload_id,omitempty"`
	EntityID      string          `json:"entity_id,omitempty"`
	Kind          string          `json:"kind"`
	Path          string          `json:"path,omitempty"`
	Title         string          `json:"title"`
	Mime          string          `json:"mime"`
	Size          int64           `json:"size"`
	Mtime         string          `json:"mtime,omitempty"`
	Pages         int             `json:"pages,omitempty"`
	ContentHash   string          `json:"content_hash"`
	DuplicateOf   string          `json:"duplicate_of,omitempty"`
	DocType       string          `json:"doc_type,omitempty"`
	Tags          []string        `json:"tags,omitempty"`
	Status        string          `json:"status"`
	PhaseRegister string          `json:"phase_register"`
	PhaseAnalyze  string          `json:"phase_analyze"`
	PhaseSemantic string          `json:"phase_semantic"`
	LastError     json.RawMessage `json:"last_error,omitempty"`
	CreatedAt     string          `json:"created_at"`
	UpdatedAt     string          `json:"updated_at"`
	// ChangedAt is when Strata got the document's current content: CreatedAt, or later when
	// its file's content changed (a trigger of migration 0017 keeps it). It is what the
	// Library's "newest first" orders by; UpdatedAt moves with every phase. Read-only.
	ChangedAt string `json:"changed_at"`
	// Not columns: the engine fills them for clients (the store leaves them empty).
	// DuplicateOfPath is the path of the document DuplicateOf names.
	DuplicateOfPath string `json:"duplicate_of_path,omitempty"`
	// Note says in one sentence why an analyzed document holds no text of its own ("empty —
	// nothing to index", "same content as X, not read again").
	Note string `json:"note,omitempty"`
	// CanRetry says whether reading the file again may change anything (no for an unsupported
	// format, a removed document or a text), so a client offers Retry only where it helps.
	CanRetry bool `json:"can_retry"`
}

// Chunk is a span of a document's text.
type Chunk struct {
	ChunkID    string `json:"chunk_id"`
	DocumentID string `json:"document_id"`
	Ordinal    int    `json:"ordinal"`
	Text       string `json:"text"`
	Heading    string `json:"heading"`
	ByteStart  int    `json:"byte_start"`
	ByteEnd    int    `json:"byte_end"`
	LineStart  int    `json:"line_start"`
	LineEnd    int    `json:"line_end"`
	Page       int    `json:"page,omitempty"`
	// TextStart and TextEnd index the document's extracted text (what fact offsets index);
	// ByteStart/ByteEnd and the lines index the file. They differ only where the reader
	// rewrote the file (HTML).
	TextStart int `json:"text_start"`
	TextEnd   int `json:"text_end"`
	// Lines is the file's line of each line of Text when they do not simply count up from
	// LineStart; empty otherwise.
	Lines []int `json:"lines,omitempty"`
}

// FileLine is the file's line of line i (0-based) of the chunk's Text: Lines[i] where the
// reader rewrote the file, else LineStart + i. Where a reader folded several lines of the file
// into one line of text (an HTML paragraph), it is the first of them.
func (c Chunk) FileLine(i int) int {
	if i < len(c.Lines) {
		return c.Lines[i]
	}
	if len(c.Lines) > 0 {
		return c.Lines[len(c.Lines)-1]
	}
	return c.LineStart + i
}

// Entity is a thing the store knows about (a company, an invoice, a document…).
type Entity struct {
	EntityID      string   `json:"entity_id"`
	EntityType    string   `json:"entity_type"`
	CanonicalName string   `json:"canonical_name"`
	IdentityKey   string   `json:"identity_key"`
	Aliases       []string `json:"aliases"`
	CreatedAt     string   `json:"created_at"`
}

// Observation is what one payload said about one entity.
type Observation struct {
	ID              string `json:"id"`
	EntityID        string `json:"entity_id"`
	EntityType      string `json:"entity_type"`
	SchemaVersion   string `json:"schema_version"`
	SourcePayloadID string `json:"source_payload_id"`
	// SourceRecordID is SourcePayloadID under seed 001 §3.8's name (the payload is the
	// seed's "record"): clients written against the seed read this one. Filled on read.
	SourceRecordID   string          `json:"source_record_id"`
	DocumentID       string          `json:"document_id,omitempty"`
	Extractor        string          `json:"extractor"`
	ObservedAt       string          `json:"observed_at"`
	SpecificityScore float64         `json:"specificity_score"`
	SourcePriority   int             `json:"source_priority"`
	Fields           json.RawMessage `json:"fields"`
	Span             json.RawMessage `json:"span,omitempty"`
	CreatedAt        string          `json:"created_at"`
}

// SnapshotRow is the materialised reducer output of one entity.
type SnapshotRow struct {
	EntityID          string
	EntityType        string
	SchemaVersion     string
	Snapshot          json.RawMessage
	Provenance        json.RawMessage
	State             json.RawMessage
	ObservationCount  int
	LastObservationAt string
	ComputedAt        string
}

// Relationship is a typed edge between two entities.
type Relationship struct {
	ID               string          `json:"id"`
	RelationshipType string          `json:"relationship_type"`
	SourceEntityID   string          `json:"source_entity_id"`
	TargetEntityID   string          `json:"target_entity_id"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	SourcePayloadID  string          `json:"source_payload_id,omitempty"`
	CreatedAt        string          `json:"created_at"`
}

func nullStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullRaw(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// InsertPayload stores p unless it exists (its ID is derived from its content ID, so equal
// content conflicts); it returns the payload's ID and whether this call created it.
func InsertPayload(ctx context.Context, q Q, p Payload) (string, bool, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO payloads(payload_id, payload_content_id, kind, capability_id, body, origin, created_at)
		VALUES (?,?,?,?,?,?,?) ON CONFLICT(payload_id) DO NOTHING`,
		p.PayloadID, p.PayloadContentID, p.Kind, nullStr(p.CapabilityID), string(p.Body), string(p.Origin), p.CreatedAt)
	if err != nil {
		return "", false, fmt.Errorf("insert payload: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return p.PayloadID, true, nil
	}
	return p.PayloadID, false, nil
}

// GetPayload reads one payload by ID.
func GetPayload(ctx context.Context, q Q, id string) (Payload, error) {
	var p Payload
	var capID sql.NullString
	var body, origin string
	err := q.QueryRowContext(ctx, `SELECT payload_id, payload_content_id, kind, capability_id, body, origin, created_at FROM payloads WHERE payload_id = ?`, id).
		Scan(&p.PayloadID, &p.PayloadContentID, &p.Kind, &capID, &body, &origin, &p.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return p, ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("get payload: %w", err)
	}
	p.CapabilityID, p.Body, p.Origin = capID.String, json.RawMessage(body), json.RawMessage(origin)
	return p, nil
}

// InsertSubmission records one submission.
func InsertSubmission(ctx context.Context, q Q, s Submission) error {
	created := 0
	if s.Created {
		created = 1
	}
	_, err := q.ExecContext(ctx, `INSERT INTO submissions(submission_id, payload_id, client_request_id, created, origin, created_at) VALUES (?,?,?,?,?,?)`,
		s.SubmissionID, s.PayloadID, nullStr(s.ClientRequestID), created, string(s.Origin), s.CreatedAt)
	if err != nil {
		return fmt.Errorf("insert submission: %w", err)
	}
	return nil
}

// SubmissionByClientRequest finds an earlier submission with the same client_request_id.
func SubmissionByClientRequest(ctx context.Context, q Q, clientRequestID string) (Submission, error) {
	var s Submission
	var created int
	var origin string
	err := q.QueryRowContext(ctx, `SELECT submission_id, payload_id, created, origin, created_at FROM submissions WHERE client_request_id = ?`, clientRequestID).
		Scan(&s.SubmissionID, &s.PayloadID, &created, &origin, &s.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return s, ErrNotFound
	}
	if err != nil {
		return s, fmt.Errorf("find submission: %w", err)
	}
	s.ClientRequestID, s.Created, s.Origin = clientRequestID, created == 1, json.RawMessage(origin)
	return s, nil
}

const entityCols = `entity_id, entity_type, canonical_name, identity_key, aliases, created_at`

func scanEntity(sc interface{ Scan(...any) error }) (Entity, error) {
	var e Entity
	var aliases string
	if err := sc.Scan(&e.EntityID, &e.EntityType, &e.CanonicalName, &e.IdentityKey, &aliases, &e.CreatedAt); err != nil {
		return e, err
	}
	if err := json.Unmarshal([]byte(aliases), &e.Aliases); err != nil {
		return e, fmt.Errorf("entity %s aliases: %w", e.EntityID, err)
	}
	return e, nil
}

// GetEntity reads one entity.
func GetEntity(ctx context.Context, q Q, id string) (Entity, error) {
	e, err := scanEntity(q.QueryRowContext(ctx, `SELECT `+entityCols+` FROM entities WHERE entity_id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return e, ErrNotFound
	}
	if err != nil {
		return e, fmt.Errorf("get entity: %w", err)
	}
	return e, nil
}

// EntityFilter selects entities for ListEntities.
type EntityFilter struct {
	Type        string
	ExcludeType string // leave out entities of this type (used when Type is empty)
	Query       string // case-insensitive substring of the canonical name or an alias
	Limit       int
	Offset      int
}

// ListEntities pages through entities in ID order (stable and deterministic) and counts all
// that match.
func ListEntities(ctx context.Context, q Q, f EntityFilter) ([]Entity, int, error) {
	where, args := []string{"1=1"}, []any{}
	if f.Type != "" {
		where = append(where, "entity_type = ?")
		args = append(args, f.Type)
	} else if f.ExcludeType != "" {
		where = append(where, "entity_type <> ?")
		args = append(args, f.ExcludeType)
	}
	if f.Query != "" {
		like := "%" + escapeLike(strings.ToLower(f.Query)) + "%"
		where = append(where, `(lower(canonical_name) LIKE ? ESCAPE '\' OR lower(aliases) LIKE ? ESCAPE '\')`)
		args = append(args, like, like)
	}
	w := strings.Join(where, " AND ")
	var total int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM entities WHERE `+w, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count entities: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT `+entityCols+` FROM entities WHERE `+w+` ORDER BY entity_id LIMIT ? OFFSET ?`,
		append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list entities: %w", err)
	}
	defer rows.Close()
	out := []Entity{}
	for rows.Next() {
		e, err := scanEntity(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("list entities: %w", err)
		}
		out = append(out, e)
	}
	return out, total, rows.Err()
}

// pathPrefix is the condition "col starts with prefix". With fold, letters match in either
// case, for file systems that ignore it (Windows, macOS); SQLite's LIKE folds ASCII letters
// only, so É and é still differ. Without fold the bytes must match: LIKE alone took
// /home/ann/Notes/ for a prefix of /home/ann/notes/x, another folder on Linux, and reconcile
// then counted that folder's documents among the watched folder's.
//
// Without fold a byte range comes with it, so that an index on col narrows the scan (neither
// substr nor LIKE can use a BINARY index); the substr test keeps the exact meaning.
func pathPrefix(col, prefix string, fold bool) (string, []any) {
	if fold {
		return col + ` LIKE ? ESCAPE '\'`, []any{escapeLike(prefix) + "%"}
	}
	cond, args := col+` >= ? AND substr(`+col+`, 1, length(?)) = ?`, []any{prefix, prefix, prefix}
	if end, ok := prefixEnd(prefix); ok {
		cond, args = cond+` AND `+col+` < ?`, append(args, end)
	}
	return cond, args
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

const obsCols = `observation_id, entity_id, entity_type, schema_version, source_payload_id, document_id, extractor, observed_at,
	specificity_score, source_priority, fields, span, created_at`

func scanObservation(sc interface{ Scan(...any) error }) (Observation, error) {
	var o Observation
	var doc, span sql.NullString
	var fields string
	err := sc.Scan(&o.ID, &o.EntityID, &o.EntityType, &o.SchemaVersion, &o.SourcePayloadID, &doc, &o.Extractor, &o.ObservedAt,
		&o.SpecificityScore, &o.SourcePriority, &fields, &span, &o.CreatedAt)
	o.DocumentID, o.Fields, o.SourceRecordID = doc.String, json.RawMessage(fields), o.SourcePayloadID
	if span.Valid {
		o.Span = json.RawMessage(span.String)
	}
	return o, err
}

// ListObservations pages through an entity's observations, newest observed first, ties by ID.
func ListObservations(ctx context.Context, q Q, entityID string, limit, offset int) ([]Observation, int, error) {
	var total int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM observations WHERE entity_id = ?`, entityID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count observations: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT `+obsCols+` FROM observations WHERE entity_id = ?
		ORDER BY observed_at DESC, observation_id LIMIT ? OFFSET ?`, entityID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list observations: %w", err)
	}
	out, err := collectObservations(rows)
	return out, total, err
}

// ObservationsUntil returns all observations of an entity observed at or before at ("" = all).
func ObservationsUntil(ctx context.Context, q Q, entityID, at string) ([]Observation, error) {
	query, args := `SELECT `+obsCols+` FROM observations WHERE entity_id = ?`, []any{entityID}
	if at != "" {
		query += ` AND observed_at <= ?`
		args = append(args, at)
	}
	rows, err := q.QueryContext(ctx, query+` ORDER BY observed_at, observation_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read observations: %w", err)
	}
	return collectObservations(rows)
}

func collectObservations(rows *sql.Rows) ([]Observation, error) {
	defer rows.Close()
	out := []Observation{}
	for rows.Next() {
		o, err := scanObservation(rows)
		if err != nil {
			return nil, fmt.Errorf("scan observation: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// GetObservation reads one observation of an entity.
func GetObservation(ctx context.Context, q Q, entityID, id string) (Observation, error) {
	o, err := scanObservation(q.QueryRowContext(ctx, `SELECT `+obsCols+` FROM observations WHERE entity_id = ? AND observation_id = ?`, entityID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return o, ErrNotFound
	}
	if err != nil {
		return o, fmt.Errorf("get observation: %w", err)
	}
	return o, nil
}

// GetSnapshot reads an entity's materialised snapshot.
func GetSnapshot(ctx context.Context, q Q, entityID string) (SnapshotRow, error) {
	var s SnapshotRow
	var snap, prov, state string
	err := q.QueryRowContext(ctx, `SELECT entity_id, entity_type, schema_version, snapshot, provenance, state, observation_count,
		last_observation_at, computed_at FROM snapshots WHERE entity_id = ?`, entityID).
		Scan(&s.EntityID, &s.EntityType, &s.SchemaVersion, &snap, &prov, &state, &s.ObservationCount, &s.LastObservationAt, &s.ComputedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return s, ErrNotFound
	}
	if err != nil {
		return s, fmt.Errorf("get snapshot: %w", err)
	}
	s.Snapshot, s.Provenance, s.State = json.RawMessage(snap), json.RawMessage(prov), json.RawMessage(state)
	return s, nil
}
