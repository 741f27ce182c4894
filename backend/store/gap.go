package store

import (
	"context"
	"fmt"
)

// DerivedTouching lists the derived links of one of types with entity at either end, by link
// ID (two index range scans: derived_links_source and derived_links_target).
func DerivedTouching(ctx context.Context, q Q, entity string, types []string) ([]DerivedLink, error) {
	if len(types) == 0 {
		return nil, nil
	}
	ph := qmarks(len(types))
	args := []any{entity}
	for _, t := range types {
		args = append(args, t)
	}
	args = append(args, entity)
	for _, t := range types {
		args = append(args, t)
	}
	rows, err := q.QueryContext(ctx, `SELECT `+derivedCols+` FROM derived_links WHERE source_entity_id = ? AND relationship_type IN (`+ph+`)
		UNION SELECT `+derivedCols+` FROM derived_links WHERE target_entity_id = ? AND relationship_type IN (`+ph+`)
		ORDER BY 1`, args...)
	if err != nil {
		return nil, fmt.Errorf("read derived links of %s: %w", entity, err)
	}
	defer rows.Close()
	var out []DerivedLink
	for rows.Next() {
		l, err := scanDerived(rows)
		if err != nil {
			return nil, fmt.Errorf("scan derived link: %w", err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// EvidenceDocsOf lists, sorted, the documents a derived link or suggestion rests on.
func EvidenceDocsOf(ctx context.Context, q Q, item string) ([]string, error) {
	return evidenceDocs(ctx, q, item)
}

// AssertedBetween reports whether any asserted relationship joins a and b, in either
// direction (primary-key range scans on the source).
func AssertedBetween(ctx context.Context, q Q, a, b string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM relationships WHERE source_entity_id = ? AND target_entity_id = ?)
		OR EXISTS (SELECT 1 FROM relationships WHERE source_entity_id = ? AND target_entity_id = ?)`, a, b, b, a).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read relationships between %s and %s: %w", a, b, err)
	}
	return n == 1, nil
}

// SharedReferents lists, sorted, the entities both a and b refer to (REFERS_TO, asserted or
// derived): a concept, a person, a meeting they have in common.
func SharedReferents(ctx context.Context, q Q, a, b string) ([]string, error) {
	const refs = `SELECT target_entity_id FROM relationships WHERE source_entity_id = ? AND relationship_type = 'REFERS_TO'
		UNION SELECT target_entity_id FROM derived_links WHERE source_entity_id = ? AND relationship_type = 'REFERS_TO'`
	rows, err := q.QueryContext(ctx, `SELECT * FROM (`+refs+`) INTERSECT SELECT * FROM (`+refs+`) ORDER BY 1`, a, a, b, b)
	if err != nil {
		return nil, fmt.Errorf("read shared referents of %s and %s: %w", a, b, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("scan referent: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// MentionedIn lists, sorted, the entities entity_mentions places in document.
func MentionedIn(ctx context.Context, q Q, documentID string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT entity_id FROM entity_mentions WHERE document_id = ? ORDER BY 1`, documentID)
	if err != nil {
		return nil, fmt.Errorf("read mentions in %s: %w", documentID, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("scan mention: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// DerivedBetween reports whether a derived link of one of types joins a and b, in either
// direction (index range scans on the source).
func DerivedBetween(ctx context.Context, q Q, a, b string, types []string) (bool, error) {
	if len(types) == 0 {
		return false, nil
	}
	ph := qmarks(len(types))
	args := []any{a, b}
	for _, t := range types {
		args = append(args, t)
	}
	args = append(args, b, a)
	for _, t := range types {
		args = append(args, t)
	}
	var n int
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM derived_links WHERE source_entity_id = ? AND target_entity_id = ? AND relationship_type IN (`+ph+`))
		OR EXISTS (SELECT 1 FROM derived_links WHERE source_entity_id = ? AND target_entity_id = ? AND relationship_type IN (`+ph+`))`, args...).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read derived links between %s and %s: %w", a, b, err)
	}
	return n == 1, nil
}
