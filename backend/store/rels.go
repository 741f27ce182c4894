package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// InsertRelationship stores r unless the same edge exists; it reports whether it was new.
func InsertRelationship(ctx context.Context, q Q, r Relationship) (bool, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO relationships(relationship_id, relationship_type, source_entity_id, target_entity_id, metadata, source_payload_id, created_at)
		VALUES (?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		r.ID, r.RelationshipType, r.SourceEntityID, r.TargetEntityID, nullRaw(r.Metadata), nullStr(r.SourcePayloadID), r.CreatedAt)
	if err != nil {
		return false, fmt.Errorf("insert relationship: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

const relCols = `relationship_id, relationship_type, source_entity_id, target_entity_id, metadata, source_payload_id, created_at`

func scanRelationship(sc interface{ Scan(...any) error }) (Relationship, error) {
	var r Relationship
	var meta, payload sql.NullString
	err := sc.Scan(&r.ID, &r.RelationshipType, &r.SourceEntityID, &r.TargetEntityID, &meta, &payload, &r.CreatedAt)
	if meta.Valid {
		r.Metadata = json.RawMessage(meta.String)
	}
	r.SourcePayloadID = payload.String
	return r, err
}

// GetRelationship reads the edge typ from source to target.
func GetRelationship(ctx context.Context, q Q, typ, source, target string) (Relationship, error) {
	r, err := scanRelationship(q.QueryRowContext(ctx, `SELECT `+relCols+` FROM relationships
		WHERE source_entity_id = ? AND relationship_type = ? AND target_entity_id = ?`, source, typ, target))
	if errors.Is(err, sql.ErrNoRows) {
		return r, ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("get relationship: %w", err)
	}
	return r, nil
}

// Reaches reports whether target can be reached from source by following edges of typ
// (outbound), which is what adding target→source would turn into a cycle.
func Reaches(ctx context.Context, q Q, typ, source, target string) (bool, error) {
	var found int
	err := q.QueryRowContext(ctx, `WITH RECURSIVE reach(id) AS (
			SELECT ? UNION
			SELECT r.target_entity_id FROM relationships r JOIN reach ON r.source_entity_id = reach.id
			WHERE r.relationship_type = ?)
		SELECT count(*) FROM reach WHERE id = ?`, source, typ, target).Scan(&found)
	if err != nil {
		return false, fmt.Errorf("cycle check: %w", err)
	}
	return found > 0, nil
}

// RelationshipFilter selects relationships of one entity.
type RelationshipFilter struct {
	EntityID  string
	Direction string // inbound | outbound | both
	Type      string
	Limit     int
	Offset    int
}

// ListRelationships pages through an entity's relationships, newest first, ties by ID.
func ListRelationships(ctx context.Context, q Q, f RelationshipFilter) ([]Relationship, int, error) {
	var where []string
	var args []any
	switch f.Direction {
	case "outbound":
		where, args = append(where, "source_entity_id = ?"), append(args, f.EntityID)
	case "inbound":
		where, args = append(where, "target_entity_id = ?"), append(args, f.EntityID)
	default:
		where, args = append(where, "(source_entity_id = ? OR target_entity_id = ?)"), append(args, f.EntityID, f.EntityID)
	}
	if f.Type != "" {
		where, args = append(where, "relationship_type = ?"), append(args, f.Type)
	}
	w := strings.Join(where, " AND ")
	var total int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM relationships WHERE `+w, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count relationships: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT `+relCols+` FROM relationships WHERE `+w+` ORDER BY created_at DESC, relationship_id LIMIT ? OFFSET ?`,
		append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list relationships: %w", err)
	}
	defer rows.Close()
	out := []Relationship{}
	for rows.Next() {
		r, err := scanRelationship(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("scan relationship: %w", err)
		}
		out = append(out, r)
	}
	return out, total, rows.Err()
}

// Counts summarises the store for status reports.
type Counts struct {
	Payloads      int            `json:"payloads"`
	Submissions   int            `json:"submissions"`
	Documents     map[string]int `json:"documents"` // by status
	Chunks        int            `json:"chunks"`
	Entities      map[string]int `json:"entities"` // by type
	Observations  int            `json:"observations"`
	Relationships int            `json:"relationships"`
}

// CountAll gathers Counts in one read transaction so the numbers agree with each other.
func CountAll(ctx context.Context, db *sql.DB) (Counts, error) {
	c := Counts{Documents: map[string]int{}, Entities: map[string]int{}}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return c, fmt.Errorf("begin count: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	for _, s := range []struct {
		q   string
		dst *int
	}{
		{`SELECT count(*) FROM payloads`, &c.Payloads},
		{`SELECT count(*) FROM submissions`, &c.Submissions},
		{`SELECT count(*) FROM chunks`, &c.Chunks},
		{`SELECT count(*) FROM observations`, &c.Observations},
		{`SELECT count(*) FROM relationships`, &c.Relationships},
	} {
		if err := tx.QueryRowContext(ctx, s.q).Scan(s.dst); err != nil {
			return c, fmt.Errorf("count: %w", err)
		}
	}
	for _, g := range []struct {
		q   string
		dst map[string]int
	}{
		{`SELECT status, count(*) FROM documents GROUP BY status`, c.Documents},
		{`SELECT entity_type, count(*) FROM entities GROUP BY entity_type`, c.Entities},
	} {
		rows, err := tx.QueryContext(ctx, g.q)
		if err != nil {
			return c, fmt.Errorf("count groups: %w", err)
		}
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				rows.Close()
				return c, fmt.Errorf("scan count: %w", err)
			}
			g.dst[k] = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return c, fmt.Errorf("count groups: %w", err)
		}
	}
	return c, nil
}
