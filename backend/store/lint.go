package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Lint's reads and writes (migration 0013). Every read takes an optional list of IDs: nil reads
// the whole store (a full run), a list reads only those (a run after the first rechecks what
// changed). Lists go to SQLite as one JSON array, whatever their length.

// LintVersionKey is the setting holding the checks' versions the stored findings were made by.
const LintVersionKey = "lint.version"

func idList(ids []string) string {
	b, _ := json.Marshal(ids) // strings: cannot fail
	return string(b)
}

// within is an SQL condition restricting col to ids, or true when ids is nil (everything).
func within(col string, ids []string) (string, []any) {
	if ids == nil {
		return "1", nil
	}
	return col + " IN (SELECT value FROM json_each(?))", []any{idList(ids)}
}

func scanStrings(rows *sql.Rows, err error, what string) ([]string, error) {
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// LintDirty lists the entities marked since the last run, in ID order.
func LintDirty(ctx context.Context, q Q) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT entity_id FROM lint_dirty ORDER BY entity_id`)
	return scanStrings(rows, err, "read lint marks")
}

// CountLintDirty counts the entities marked since the last run.
func CountLintDirty(ctx context.Context, q Q) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM lint_dirty`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count lint marks: %w", err)
	}
	return n, nil
}

// ClearLintDirty forgets the marks (the run that read them has rechecked everything they touch).
func ClearLintDirty(ctx context.Context, q Q) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM lint_dirty`); err != nil {
		return fmt.Errorf("clear lint marks: %w", err)
	}
	return nil
}

// StoredFinding is a finding as lint_findings keeps it.
type StoredFinding struct {
	ID       string
	Check    string
	Kind     string
	Severity int
	KindRank int
	Scope    string
	Subject  string
	GapDays  int
	Body     json.RawMessage
	Refs     []string // entities the finding rests on besides its subject
}

// LintSubjectsWithFindings lists the subjects of check's findings that are one of ids or rest
// on one of them, in ID order.
func LintSubjectsWithFindings(ctx context.Context, q Q, check string, ids []string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT f.subject_id FROM lint_findings f
		WHERE f.check_name = ? AND (f.subject_id IN (SELECT value FROM json_each(?))
			OR f.finding_id IN (SELECT finding_id FROM lint_refs WHERE entity_id IN (SELECT value FROM json_each(?))))
		ORDER BY f.subject_id`, check, idList(ids), idList(ids))
	return scanStrings(rows, err, "read lint subjects")
}

// DeleteLintFindings deletes check's findings about subjects (nil: all of the check's).
func DeleteLintFindings(ctx context.Context, q Q, check string, subjects []string) error {
	cond, args := within("subject_id", subjects)
	args = append([]any{check}, args...)
	if _, err := q.ExecContext(ctx, `DELETE FROM lint_refs WHERE finding_id IN (SELECT finding_id FROM lint_findings WHERE check_name = ? AND `+cond+`)`, args...); err != nil {
		return fmt.Errorf("delete lint refs: %w", err)
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM lint_findings WHERE check_name = ? AND `+cond, args...); err != nil {
		return fmt.Errorf("delete lint findings: %w", err)
	}
	return nil
}

// DeleteAllLintFindings empties the findings (before a full run).
func DeleteAllLintFindings(ctx context.Context, q Q) error {
	for _, t := range []string{"lint_refs", "lint_findings"} {
		if _, err := q.ExecContext(ctx, `DELETE FROM `+t); err != nil {
			return fmt.Errorf("delete %s: %w", t, err)
		}
	}
	return nil
}

// InsertLintFindings writes findings; one already stored (the same ID) is replaced.
func InsertLintFindings(ctx context.Context, q Q, list []StoredFinding) error {
	if err := inBatches(list, func(part []StoredFinding) error {
		args := make([]any, 0, len(part)*9)
		for _, f := range part {
			args = append(args, f.ID, f.Check, f.Kind, f.Severity, f.KindRank, f.Scope, f.Subject, f.GapDays, string(f.Body))
		}
		_, err := q.ExecContext(ctx, `INSERT INTO lint_findings(finding_id, check_name, kind, severity, kind_rank, scope, subject_id, gap_days, body) VALUES `+
			placeholders(len(part), 9)+` ON CONFLICT(finding_id) DO UPDATE SET check_name = excluded.check_name, kind = excluded.kind, severity = excluded.severity,
			kind_rank = excluded.kind_rank, scope = excluded.scope, subject_id = excluded.subject_id, gap_days = excluded.gap_days, body = excluded.body`, args...)
		if err != nil {
			return fmt.Errorf("write lint findings: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	var refs [][2]string
	for _, f := range list {
		for _, r := range f.Refs {
			refs = append(refs, [2]string{r, f.ID})
		}
	}
	return inBatches(refs, func(part [][2]string) error {
		args := make([]any, 0, len(part)*2)
		for _, r := range part {
			args = append(args, r[0], r[1])
		}
		if _, err := q.ExecContext(ctx, `INSERT OR IGNORE INTO lint_refs(entity_id, finding_id) VALUES `+placeholders(len(part), 2), args...); err != nil {
			return fmt.Errorf("write lint refs: %w", err)
		}
		return nil
	})
}

// LintFilter selects stored findings for a report.
type LintFilter struct {
	Scopes        []string // the scopes asked for (nil: all)
	Kind          string   // "" every kind
	StalenessDays int      // a finding resting on an age gap shows when the gap is at least this
}

func (f LintFilter) where() (string, []any) {
	w := []string{"(gap_days < 0 OR gap_days >= ?)"}
	args := []any{f.StalenessDays}
	if f.Scopes != nil {
		w, args = append(w, "scope IN (SELECT value FROM json_each(?))"), append(args, idList(f.Scopes))
	}
	if f.Kind != "" {
		w, args = append(w, "kind = ?"), append(args, f.Kind)
	}
	return strings.Join(w, " AND "), args
}

// LintFindings pages through the findings in report order (severity, kind, ID) and counts them
// per kind (before the kind filter, so the app's tabs show every count).
func LintFindings(ctx context.Context, q Q, f LintFilter, limit, offset int) ([]json.RawMessage, int, map[string]int, error) {
	counts := map[string]int{}
	all := f
	all.Kind = ""
	w, args := all.where()
	rows, err := q.QueryContext(ctx, `SELECT kind, count(*) FROM lint_findings WHERE `+w+` GROUP BY kind`, args...)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("count lint findings: %w", err)
	}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			rows.Close()
			return nil, 0, nil, fmt.Errorf("count lint findings: %w", err)
		}
		counts[k] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, nil, fmt.Errorf("count lint findings: %w", err)
	}
	total := 0
	for k, n := range counts {
		if f.Kind == "" || f.Kind == k {
			total += n
		}
	}
	w, args = f.where()
	rows, err = q.QueryContext(ctx, `SELECT body FROM lint_findings WHERE `+w+` ORDER BY severity, kind_rank, finding_id LIMIT ? OFFSET ?`,
		append(args, limit, offset)...)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("read lint findings: %w", err)
	}
	defer rows.Close()
	var out []json.RawMessage
	for rows.Next() {
		var b string
		if err := rows.Scan(&b); err != nil {
			return nil, 0, nil, fmt.Errorf("read lint findings: %w", err)
		}
		out = append(out, json.RawMessage(b))
	}
	return out, total, counts, rows.Err()
}

// LintDoc is what lint knows of a document: the source of observations, the end of links.
type LintDoc struct {
	DocumentID  string
	EntityID    string
	Kind        string // file | content
	Path        string
	Title       string
	Mime        string
	Status      string
	PayloadID   string // the current version
	ContentHash string
	DuplicateOf string
	Day         string // the day the document is about (dated_items), "" if none was read
	Mtime       string // the file's modification time (content: when it was stored)
	Chunks      int
	Tagged      bool // the document declares tags (the enrichment links them to concepts)
	Pending     bool // its enrichments have not run yet (its links are not all there)
}

const lintDocCols = `d.document_id, coalesce(d.entity_id, ''), d.kind, coalesce(d.path, ''), d.title, d.mime, d.status, coalesce(d.payload_id, ''),
	d.content_hash, coalesce(d.duplicate_of, ''), coalesce(di.day, ''), coalesce(d.mtime, d.created_at),
	(SELECT count(*) FROM chunks c WHERE c.document_id = d.document_id), d.tags NOT IN ('', '[]'),
	EXISTS (SELECT 1 FROM jobs j WHERE j.document_id = d.document_id AND j.phase = 'enrich' AND j.state IN ('queued', 'running'))`

func scanLintDocs(rows *sql.Rows, err error) ([]LintDoc, error) {
	if err != nil {
		return nil, fmt.Errorf("read documents for lint: %w", err)
	}
	defer rows.Close()
	var out []LintDoc
	for rows.Next() {
		var d LintDoc
		if err := rows.Scan(&d.DocumentID, &d.EntityID, &d.Kind, &d.Path, &d.Title, &d.Mime, &d.Status, &d.PayloadID, &d.ContentHash,
			&d.DuplicateOf, &d.Day, &d.Mtime, &d.Chunks, &d.Tagged, &d.Pending); err != nil {
			return nil, fmt.Errorf("read documents for lint: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// LintDocsByEntity reads the documents whose entities are ids (nil: every document), in
// document ID order.
func LintDocsByEntity(ctx context.Context, q Q, ids []string) ([]LintDoc, error) {
	cond, args := within("d.entity_id", ids)
	rows, err := q.QueryContext(ctx, `SELECT `+lintDocCols+` FROM documents d LEFT JOIN dated_items di ON di.entity_id = d.entity_id
		WHERE d.entity_id IS NOT NULL AND `+cond+` ORDER BY d.document_id`, args...)
	return scanLintDocs(rows, err)
}

// LintDocsByID reads documents by their IDs, in ID order.
func LintDocsByID(ctx context.Context, q Q, ids []string) ([]LintDoc, error) {
	cond, args := within("d.document_id", ids)
	rows, err := q.QueryContext(ctx, `SELECT `+lintDocCols+` FROM documents d LEFT JOIN dated_items di ON di.entity_id = d.entity_id
		WHERE `+cond+` ORDER BY d.document_id`, args...)
	return scanLintDocs(rows, err)
}

// LintObservation is one observation with what lint needs of its source.
type LintObservation struct {
	ObservationID string
	EntityID      string
	EntityType    string
	ObservedAt    string
	Fields        json.RawMessage
	DocumentID    string // "" for a payload that no document holds
	PayloadID     string
	PayloadKind   string // content | file | payload | semantic
	Capability    string // the payload's capability, if any
	Origin        json.RawMessage
	Span          json.RawMessage
	Extractor     string
}

// LintObservations reads the observations of ids (nil: of every entity whose type is not one of
// skipTypes), by entity, then time, then ID.
func LintObservations(ctx context.Context, q Q, ids []string, skipTypes []string) ([]LintObservation, error) {
	cond, args := within("o.entity_id", ids)
	args = append(args, idList(skipTypes))
	rows, err := q.QueryContext(ctx, `SELECT o.observation_id, o.entity_id, o.entity_type, o.observed_at, o.fields, coalesce(o.document_id, ''),
		o.source_payload_id, p.kind, coalesce(p.capability_id, ''), p.origin, coalesce(o.span, ''), o.extractor
		FROM observations o JOIN payloads p ON p.payload_id = o.source_payload_id
		WHERE `+cond+` AND o.entity_type NOT IN (SELECT value FROM json_each(?))
		ORDER BY o.entity_id, o.observed_at, o.observation_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read observations for lint: %w", err)
	}
	defer rows.Close()
	var out []LintObservation
	for rows.Next() {
		var o LintObservation
		var fields, origin, span string
		if err := rows.Scan(&o.ObservationID, &o.EntityID, &o.EntityType, &o.ObservedAt, &fields, &o.DocumentID, &o.PayloadID, &o.PayloadKind,
			&o.Capability, &origin, &span, &o.Extractor); err != nil {
			return nil, fmt.Errorf("read observations for lint: %w", err)
		}
		o.Fields, o.Origin = json.RawMessage(fields), json.RawMessage(origin)
		if span != "" {
			o.Span = json.RawMessage(span)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// LintEntity is an entity with its snapshot's field provenance (field → observation).
type LintEntity struct {
	EntityID   string
	EntityType string
	Name       string
	Aliases    []string
	Provenance map[string]string
}

// LintEntities reads ids (nil: every entity whose type is one of types; types nil: any type),
// in ID order.
func LintEntities(ctx context.Context, q Q, ids []string, types []string) ([]LintEntity, error) {
	cond, args := within("e.entity_id", ids)
	tcond, targs := within("e.entity_type", types)
	return lintEntities(ctx, q, cond+" AND "+tcond, append(args, targs...)...)
}

func lintEntities(ctx context.Context, q Q, where string, args ...any) ([]LintEntity, error) {
	rows, err := q.QueryContext(ctx, `SELECT e.entity_id, e.entity_type, e.canonical_name, e.aliases, coalesce(s.provenance, '{}')
		FROM entities e LEFT JOIN snapshots s ON s.entity_id = e.entity_id
		WHERE `+where+` ORDER BY e.entity_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read entities for lint: %w", err)
	}
	defer rows.Close()
	var out []LintEntity
	for rows.Next() {
		var e LintEntity
		var aliases, prov string
		if err := rows.Scan(&e.EntityID, &e.EntityType, &e.Name, &aliases, &prov); err != nil {
			return nil, fmt.Errorf("read entities for lint: %w", err)
		}
		if err := json.Unmarshal([]byte(aliases), &e.Aliases); err != nil {
			return nil, fmt.Errorf("decode aliases of %s: %w", e.EntityID, err)
		}
		if err := json.Unmarshal([]byte(prov), &e.Provenance); err != nil {
			return nil, fmt.Errorf("decode provenance of %s: %w", e.EntityID, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// LintEntitiesNotOf reads every entity whose type is not one of skip, in ID order (the named
// ones, without the documents and concepts that are most of a store).
func LintEntitiesNotOf(ctx context.Context, q Q, skip []string) ([]LintEntity, error) {
	return lintEntities(ctx, q, `e.entity_type NOT IN (SELECT value FROM json_each(?))`, idList(skip))
}

// AssertedLinksOfType reads the asserted links of the given types (a few: what people and
// agents said corrects or supersedes what), in a fixed order.
func AssertedLinksOfType(ctx context.Context, q Q, types []string) ([]LintLink, error) {
	rows, err := q.QueryContext(ctx, `SELECT source_entity_id, relationship_type, target_entity_id, 0, '', 0 FROM relationships
		WHERE relationship_type IN (SELECT value FROM json_each(?)) ORDER BY 1, 2, 3`, idList(types))
	return scanLintLinks(rows, err)
}

// LintLink is an edge between two entities, asserted (relationships) or derived (derived_links).
type LintLink struct {
	Source, Type, Target string
	Derived              bool
	Enrichment           string
	Score                float64
}

// LintLinksOf reads every link, asserted and derived, with an end in ids (nil: every link),
// optionally only of types (nil: any), in a fixed order.
func LintLinksOf(ctx context.Context, q Q, ids []string, types []string) ([]LintLink, error) {
	var (
		src, sargs = within("source_entity_id", ids)
		tgt, targs = within("target_entity_id", ids)
		typ, yargs = within("relationship_type", types)
	)
	args := []any{}
	for range 2 {
		args = append(append(append(args, sargs...), targs...), yargs...)
	}
	rows, err := q.QueryContext(ctx, `SELECT source_entity_id, relationship_type, target_entity_id, 0, '', 0 FROM relationships
		WHERE (`+src+` OR `+tgt+`) AND `+typ+`
		UNION ALL
		SELECT source_entity_id, relationship_type, target_entity_id, 1, enrichment, score FROM derived_links
		WHERE (`+src+` OR `+tgt+`) AND `+typ+`
		ORDER BY 1, 2, 3, 4, 5`, args...)
	return scanLintLinks(rows, err)
}

// scanLintLinks reads rows of (source, type, target, derived, enrichment, score).
func scanLintLinks(rows *sql.Rows, err error) ([]LintLink, error) {
	if err != nil {
		return nil, fmt.Errorf("read links for lint: %w", err)
	}
	defer rows.Close()
	var out []LintLink
	for rows.Next() {
		var l LintLink
		if err := rows.Scan(&l.Source, &l.Type, &l.Target, &l.Derived, &l.Enrichment, &l.Score); err != nil {
			return nil, fmt.Errorf("read links for lint: %w", err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// LintLinksFrom reads the links, asserted and derived, whose source is one of ids (what those
// entities link to; cheaper than LintLinksOf when the other ends are popular), in a fixed order.
func LintLinksFrom(ctx context.Context, q Q, ids []string) ([]LintLink, error) {
	list := idList(ids)
	rows, err := q.QueryContext(ctx, `SELECT source_entity_id, relationship_type, target_entity_id, 0, '', 0 FROM relationships
		WHERE source_entity_id IN (SELECT value FROM json_each(?))
		UNION ALL
		SELECT source_entity_id, relationship_type, target_entity_id, 1, enrichment, score FROM derived_links
		WHERE source_entity_id IN (SELECT value FROM json_each(?))
		ORDER BY 1, 2, 3, 4, 5`, list, list)
	return scanLintLinks(rows, err)
}

// LintMentionsOf reads the mention rows, in live documents, of the entities ids or in the
// documents whose entities are docEntities (both nil: every mention), by entity, document,
// ordinal.
func LintMentionsOf(ctx context.Context, q Q, ids, docEntities []string) ([]Mention, error) {
	return LintMentions(ctx, q, MentionFilter{Entities: ids, DocEntities: docEntities})
}

// MentionFilter selects mention rows: of Entities or in the documents DocEntities (either
// list; both nil: any), from one of Sources (nil: any).
type MentionFilter struct {
	Entities, DocEntities, Sources []string
}

// LintMentions reads the mention rows f selects, in live documents, by entity, document,
// ordinal. Each list is its own indexed look-up (an OR of the two made SQLite scan every row).
func LintMentions(ctx context.Context, q Q, f MentionFilter) ([]Mention, error) {
	src, sargs := "", []any{}
	if f.Sources != nil {
		// Literal names, not a JSON list: only then does SQLite use entity_mentions_declared
		// (0013) for sources other than text (7 ms instead of 225 ms at 10,000 notes).
		quoted := make([]string, len(f.Sources))
		for i, s := range f.Sources {
			quoted[i] = "'" + strings.ReplaceAll(s, "'", "''") + "'"
		}
		src = " AND m.source IN (" + strings.Join(quoted, ", ") + ")"
		if !slices.Contains(f.Sources, "text") {
			src += " AND m.source <> 'text'"
		}
	}
	const cols = `SELECT m.entity_id, m.document_id, m.ordinal, m.source, m.passage`
	const live = ` AND d.status IN ('analyzed', 'semantic')`
	var parts []string
	var args []any
	// CROSS JOIN fixes the loop order: left to itself SQLite walked every live document and
	// looked up its mentions (0.73 s for the mentions of 262 concepts at 10,000 notes; 0.05 s
	// from the mentions side).
	if f.Entities == nil && f.DocEntities == nil {
		parts = append(parts, cols+` FROM entity_mentions m CROSS JOIN documents d ON d.document_id = m.document_id WHERE 1`+live+src)
		args = append(args, sargs...)
	}
	if f.Entities != nil {
		parts = append(parts, cols+` FROM entity_mentions m CROSS JOIN documents d ON d.document_id = m.document_id
			WHERE m.entity_id IN (SELECT value FROM json_each(?))`+live+src)
		args = append(append(args, idList(f.Entities)), sargs...)
	}
	if f.DocEntities != nil {
		parts = append(parts, cols+` FROM documents d CROSS JOIN entity_mentions m ON m.document_id = d.document_id
			WHERE d.entity_id IN (SELECT value FROM json_each(?))`+live+src)
		args = append(append(args, idList(f.DocEntities)), sargs...)
	}
	return scanMentions(ctx, q, strings.Join(parts, " UNION ")+` ORDER BY 1, 2, 3`, args...)
}

// ObservedBy lists the entities that documents (by their entities) observed, in ID order.
func ObservedBy(ctx context.Context, q Q, docEntities []string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT o.entity_id FROM documents d JOIN observations o ON o.document_id = d.document_id
		WHERE d.entity_id IN (SELECT value FROM json_each(?)) ORDER BY o.entity_id`, idList(docEntities))
	return scanStrings(rows, err, "read observed entities")
}

// PhraseDocuments lists the live documents (with the first chunk) whose text holds the FTS5
// phrase (a quoted, escaped expression the caller built), by document.
func PhraseDocuments(ctx context.Context, q Q, phrase string) ([]Mention, error) {
	return scanMentions(ctx, q, `SELECT '', c.document_id, min(c.ordinal), '', '' FROM chunks_fts f
		JOIN chunks c ON c.rowid = f.rowid
		JOIN documents d ON d.document_id = c.document_id AND d.status IN ('analyzed', 'semantic')
		WHERE chunks_fts MATCH ? GROUP BY c.document_id ORDER BY c.document_id`, phrase)
}

// PhraseChunksIn lists the chunks of the given documents whose text holds the FTS5 phrase.
func PhraseChunksIn(ctx context.Context, q Q, phrase string, documents []string) ([]Mention, error) {
	return scanMentions(ctx, q, `SELECT '', c.document_id, c.ordinal, '', '' FROM chunks_fts f
		JOIN chunks c ON c.rowid = f.rowid
		WHERE chunks_fts MATCH ? AND c.document_id IN (SELECT value FROM json_each(?)) ORDER BY c.document_id, c.ordinal`, phrase, idList(documents))
}

// ChunkLines reads one chunk of a document by ordinal, with its file lines (ErrNotFound if the
// document has no such chunk).
func ChunkLines(ctx context.Context, q Q, documentID string, ordinal int) (Chunk, error) {
	list, err := scanChunks(ctx, q, `SELECT `+chunkCols+` FROM chunks WHERE document_id = ? AND ordinal = ?`, documentID, ordinal)
	if err != nil {
		return Chunk{}, fmt.Errorf("read chunk %d of %s: %w", ordinal, documentID, err)
	}
	if len(list) == 0 {
		return Chunk{}, ErrNotFound
	}
	return list[0], nil
}

// LineIndexOf is the index of the file's line in the chunk's text lines (the first text line
// that the file line maps to), or -1 when the chunk does not cover it.
func (c Chunk) LineIndexOf(line int) int {
	n := strings.Count(c.Text, "\n") + 1
	for i := range n {
		if c.FileLine(i) == line {
			return i
		}
	}
	return -1
}

// CountEntities counts every entity (documents' included).
func CountEntities(ctx context.Context, q Q) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM entities`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count entities: %w", err)
	}
	return n, nil
}

// EachChunkText calls fn with every chunk of the live documents ids (nil: of every live
// document), by document and ordinal, reading rows as it goes.
func EachChunkText(ctx context.Context, q Q, ids []string, fn func(documentID string, ordinal int, text string) error) error {
	cond, args := within("c.document_id", ids)
	rows, err := q.QueryContext(ctx, `SELECT c.document_id, c.ordinal, c.text FROM chunks c
		JOIN documents d ON d.document_id = c.document_id AND d.status IN ('analyzed', 'semantic')
		WHERE `+cond+` ORDER BY c.document_id, c.ordinal`, args...)
	if err != nil {
		return fmt.Errorf("read chunks for lint: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc, text string
		var ord int
		if err := rows.Scan(&doc, &ord, &text); err != nil {
			return fmt.Errorf("read chunks for lint: %w", err)
		}
		if err := fn(doc, ord, text); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ObservedPairs reports which (document, entity) pairs of the given documents have an
// observation: the document is a source of what Strata knows of the entity.
func ObservedPairs(ctx context.Context, q Q, documents []string) (map[[2]string]bool, error) {
	cond, args := within("document_id", documents)
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT document_id, entity_id FROM observations WHERE document_id IS NOT NULL AND `+cond, args...)
	if err != nil {
		return nil, fmt.Errorf("read observed pairs: %w", err)
	}
	defer rows.Close()
	out := map[[2]string]bool{}
	for rows.Next() {
		var d, e string
		if err := rows.Scan(&d, &e); err != nil {
			return nil, fmt.Errorf("read observed pairs: %w", err)
		}
		out[[2]string{d, e}] = true
	}
	return out, rows.Err()
}

// DeclaredConcepts lists the concepts a live document declares (a tag, hashtag or keyword),
// in ID order.
func DeclaredConcepts(ctx context.Context, q Q) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT m.entity_id FROM entity_mentions m
		CROSS JOIN documents d ON d.document_id = m.document_id AND d.status IN ('analyzed', 'semantic')
		WHERE m.source IN ('tag', 'hashtag', 'keyword') AND m.source <> 'text' ORDER BY m.entity_id`)
	return scanStrings(rows, err, "read declared concepts")
}

// PayloadEntities lists, for payloads no document holds, the entities each observed (entity
// ID, type), by payload then entity.
func PayloadEntities(ctx context.Context, q Q, payloads []string) (map[string][][2]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT source_payload_id, entity_id, entity_type FROM observations
		WHERE document_id IS NULL AND source_payload_id IN (SELECT value FROM json_each(?)) ORDER BY 1, 2`, idList(payloads))
	if err != nil {
		return nil, fmt.Errorf("read payload entities: %w", err)
	}
	defer rows.Close()
	out := map[string][][2]string{}
	for rows.Next() {
		var p, e, t string
		if err := rows.Scan(&p, &e, &t); err != nil {
			return nil, fmt.Errorf("read payload entities: %w", err)
		}
		out[p] = append(out[p], [2]string{e, t})
	}
	return out, rows.Err()
}

// LintPending counts the documents whose findings may still change by themselves: waiting to
// be read, or for their enrichments (links, concepts) to run.
func LintPending(ctx context.Context, q Q) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(DISTINCT document_id) FROM (
		SELECT document_id FROM documents WHERE status = 'registered'
		UNION ALL SELECT document_id FROM jobs WHERE phase = 'enrich' AND state IN ('queued', 'running'))`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count documents pending: %w", err)
	}
	return n, nil
}
