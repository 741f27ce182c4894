package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// DatedItem is the day a document or an entity read from it is about (migration 0008's
// dated_items), with where that day was read: TemporalProximity's input.
type DatedItem struct {
	EntityID   string          `json:"entity_id"`
	DocumentID string          `json:"document_id"`
	Day        string          `json:"day"`      // YYYY-MM-DD
	Evidence   json.RawMessage `json:"evidence"` // JSON object: where the day was read
}

func collectDated(ctx context.Context, q Q, query string, args ...any) ([]DatedItem, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read dated items: %w", err)
	}
	defer rows.Close()
	var out []DatedItem
	for rows.Next() {
		var d DatedItem
		var ev string
		if err := rows.Scan(&d.EntityID, &d.DocumentID, &d.Day, &ev); err != nil {
			return nil, fmt.Errorf("scan dated item: %w", err)
		}
		d.Evidence = json.RawMessage(ev)
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read dated items: %w", err)
	}
	return out, nil
}

// DatedItemsOf lists the dated items read from one document, by entity ID.
func DatedItemsOf(ctx context.Context, q Q, documentID string) ([]DatedItem, error) {
	return collectDated(ctx, q, `SELECT entity_id, document_id, day, evidence FROM dated_items WHERE document_id = ? ORDER BY entity_id`, documentID)
}

// ReplaceDatedItems makes the dated items of documentID exactly items, writing nothing when
// they are already so (a second enrichment run leaves the table untouched). It returns the
// rows changed.
func ReplaceDatedItems(ctx context.Context, q Q, documentID string, items []DatedItem) (int, error) {
	old, err := DatedItemsOf(ctx, q, documentID)
	if err != nil {
		return 0, err
	}
	have := map[string]DatedItem{}
	for _, d := range old {
		have[d.EntityID] = d
	}
	changed := 0
	want := map[string]bool{}
	for _, d := range items {
		if d.DocumentID != documentID {
			return changed, fmt.Errorf("dated item %s is read from %s, not %s", d.EntityID, d.DocumentID, documentID)
		}
		want[d.EntityID] = true
		if p, ok := have[d.EntityID]; ok && p.Day == d.Day && string(p.Evidence) == string(d.Evidence) {
			continue
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO dated_items(entity_id, document_id, day, evidence) VALUES (?,?,?,?)
			ON CONFLICT(entity_id) DO UPDATE SET document_id = excluded.document_id, day = excluded.day, evidence = excluded.evidence`,
			d.EntityID, d.DocumentID, d.Day, string(d.Evidence)); err != nil {
			return changed, fmt.Errorf("write dated item: %w", err)
		}
		changed++
	}
	for _, d := range old {
		if want[d.EntityID] {
			continue
		}
		if _, err := q.ExecContext(ctx, `DELETE FROM dated_items WHERE entity_id = ? AND document_id = ?`, d.EntityID, documentID); err != nil {
			return changed, fmt.Errorf("delete dated item: %w", err)
		}
		changed++
	}
	return changed, nil
}

// DatedLinkedTo lists the dated items that refer to entity — an asserted relationship of any
// type from the item to it, or a derived REFERS_TO — by entity ID, at most limit (callers
// ask for one more than they accept, to know an entity is too common). Both lookups are
// index range scans on the target (relationships_target, derived_links_target).
func DatedLinkedTo(ctx context.Context, q Q, entity string, limit int) ([]DatedItem, error) {
	return collectDated(ctx, q, `SELECT entity_id, document_id, day, evidence FROM dated_items WHERE entity_id IN (
			SELECT source_entity_id FROM relationships WHERE target_entity_id = ?
			UNION SELECT source_entity_id FROM derived_links WHERE target_entity_id = ? AND relationship_type = 'REFERS_TO')
		ORDER BY entity_id LIMIT ?`, entity, entity, limit)
}

// LinkedFrom lists the entities an entity refers to — asserted relationships of any type from
// it, and derived REFERS_TO links — sorted, without repeats.
func LinkedFrom(ctx context.Context, q Q, entity string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT target_entity_id FROM relationships WHERE source_entity_id = ?
		UNION SELECT target_entity_id FROM derived_links WHERE source_entity_id = ? AND relationship_type = 'REFERS_TO'
		ORDER BY 1`, entity, entity)
	if err != nil {
		return nil, fmt.Errorf("read links of %s: %w", entity, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("scan link: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// LatestObservationFrom is the observation of entity made from document's current version —
// else the newest made from an earlier one — (ErrNotFound if none): a range scan of the
// entity's observations, which are keyed by entity. The version comes first: a file changed
// and changed back keeps its first observation of the restored bytes, and the newest by time
// was then the one of the version in between.
func LatestObservationFrom(ctx context.Context, q Q, entityID, documentID string) (Observation, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+obsCols+` FROM observations WHERE entity_id = ? AND document_id = ?
		ORDER BY source_payload_id IS (SELECT payload_id FROM documents WHERE document_id = ?) DESC, observed_at DESC, observation_id DESC
		LIMIT 1`, entityID, documentID, documentID)
	if err != nil {
		return Observation{}, fmt.Errorf("read observations of %s: %w", entityID, err)
	}
	list, err := collectObservations(rows)
	if err != nil {
		return Observation{}, err
	}
	if len(list) == 0 {
		return Observation{}, ErrNotFound
	}
	return list[0], nil
}

// ChunkAtLine is the text of the first chunk of document covering line, with the chunk's
// ID and line range (ErrNotFound if none does), for quoting the passage a fact was read from.
func ChunkAtLine(ctx context.Context, q Q, documentID string, line int) (id, text string, lineStart, lineEnd int, err error) {
	err = q.QueryRowContext(ctx, `SELECT chunk_id, text, line_start, line_end FROM chunks WHERE document_id = ? AND line_start <= ? AND line_end >= ?
		ORDER BY ordinal LIMIT 1`, documentID, line, line).Scan(&id, &text, &lineStart, &lineEnd)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", 0, 0, ErrNotFound
	}
	if err != nil {
		return "", "", 0, 0, fmt.Errorf("read chunk at line %d of %s: %w", line, documentID, err)
	}
	return id, text, lineStart, lineEnd, nil
}

// LastLine is the last line any chunk of document covers (0 for a document without chunks).
func LastLine(ctx context.Context, q Q, documentID string) (int, error) {
	var n sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT max(line_end) FROM chunks WHERE document_id = ?`, documentID).Scan(&n); err != nil {
		return 0, fmt.Errorf("read lines of %s: %w", documentID, err)
	}
	return int(n.Int64), nil
}

// GetDatedItem reads the dated item of entity (ErrNotFound if it has none).
func GetDatedItem(ctx context.Context, q Q, entity string) (DatedItem, error) {
	list, err := collectDated(ctx, q, `SELECT entity_id, document_id, day, evidence FROM dated_items WHERE entity_id = ?`, entity)
	if err != nil {
		return DatedItem{}, err
	}
	if len(list) == 0 {
		return DatedItem{}, ErrNotFound
	}
	return list[0], nil
}

// ChunkMentioning is ChunkAtLine for the chunk of document whose text holds want (any case)
// nearest to line: where a fact's recorded line is off, the passage that holds it.
func ChunkMentioning(ctx context.Context, q Q, documentID, want string, line int) (id, text string, lineStart, lineEnd int, err error) {
	err = q.QueryRowContext(ctx, `SELECT chunk_id, text, line_start, line_end FROM chunks WHERE document_id = ? AND instr(lower(text), lower(?)) > 0
		ORDER BY abs(line_start - ?), ordinal LIMIT 1`, documentID, want, line).Scan(&id, &text, &lineStart, &lineEnd)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", 0, 0, ErrNotFound
	}
	if err != nil {
		return "", "", 0, 0, fmt.Errorf("read chunk mentioning %q in %s: %w", want, documentID, err)
	}
	return id, text, lineStart, lineEnd, nil
}

// DatedFanout counts, for each of entities, the dated items that refer to it by an asserted
// relationship and by a derived REFERS_TO (an item referring both ways counts twice), up to
// limit each way: one statement for the lot.
func DatedFanout(ctx context.Context, q Q, entities []string, limit int) (map[string]int, error) {
	out := map[string]int{}
	err := inBatches(entities, func(part []string) error {
		var sb strings.Builder
		args := []any{}
		for i, e := range part {
			if i > 0 {
				sb.WriteString(" UNION ALL ")
			}
			// Each side is a join the LIMIT stops early: an IN over a UNION would gather every
			// item referring to a tag on every note before counting.
			sb.WriteString(`SELECT ?, (SELECT count(*) FROM (SELECT 1 FROM relationships r JOIN dated_items d ON d.entity_id = r.source_entity_id
					WHERE r.target_entity_id = ? LIMIT ?))
				+ (SELECT count(*) FROM (SELECT 1 FROM derived_links l JOIN dated_items d ON d.entity_id = l.source_entity_id
					WHERE l.target_entity_id = ? AND l.relationship_type = 'REFERS_TO' LIMIT ?))`)
			args = append(args, e, e, limit, e, limit)
		}
		rows, err := q.QueryContext(ctx, sb.String(), args...)
		if err != nil {
			return fmt.Errorf("count dated items: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var e string
			var n int
			if err := rows.Scan(&e, &n); err != nil {
				return fmt.Errorf("count dated items: %w", err)
			}
			out[e] = n
		}
		return rows.Err()
	})
	return out, err
}

// LinkedFromOfTypes is LinkedFrom restricted to targets of the given entity types.
func LinkedFromOfTypes(ctx context.Context, q Q, entity string, types []string) ([]string, error) {
	args := []any{entity, entity}
	for _, t := range types {
		args = append(args, t)
	}
	rows, err := q.QueryContext(ctx, `SELECT l.t FROM (SELECT target_entity_id AS t FROM relationships WHERE source_entity_id = ?
		UNION SELECT target_entity_id FROM derived_links WHERE source_entity_id = ? AND relationship_type = 'REFERS_TO') l
		JOIN entities e ON e.entity_id = l.t WHERE e.entity_type IN (`+qmarks(len(types))+`) ORDER BY 1`, args...)
	if err != nil {
		return nil, fmt.Errorf("read links of %s: %w", entity, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("scan link: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
