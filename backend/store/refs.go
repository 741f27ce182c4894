package store

import (
	"context"
	"fmt"
)

// EntityRef names an entity for a reader: its type and name and, for a document's own entity,
// the document and its path. Listings of links and suggestions carry one for each end, so a
// client shows "a.md → b.md" without looking every ID up.
type EntityRef struct {
	EntityID   string `json:"entity_id"`
	EntityType string `json:"entity_type"`
	Name       string `json:"name"`
	DocumentID string `json:"document_id,omitempty"`
	Path       string `json:"path,omitempty"`
}

// EntityRefs names the entities ids in one query (a page's ends, not one query per item). An ID
// without an entity row (a link whose end was never stored) comes back with its ID alone.
func EntityRefs(ctx context.Context, q Q, ids []string) (map[string]EntityRef, error) {
	ids = dedupSorted(ids)
	out := make(map[string]EntityRef, len(ids))
	for _, id := range ids {
		out[id] = EntityRef{EntityID: id}
	}
	for len(ids) > 0 {
		part := ids[:min(len(ids), 400)] // far below SQLite's bound on parameters
		ids = ids[len(part):]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		// documents_entity (0008) makes the join a lookup; a document entity has one document
		// (ORDER BY keeps the first if a store ever held two).
		rows, err := q.QueryContext(ctx, `SELECT e.entity_id, e.entity_type, e.canonical_name, coalesce(d.document_id, ''), coalesce(d.path, '')
			FROM entities e LEFT JOIN documents d ON d.entity_id = e.entity_id
			WHERE e.entity_id IN (`+qmarks(len(part))+`) ORDER BY e.entity_id, d.document_id DESC`, args...)
		if err != nil {
			return nil, fmt.Errorf("name entities: %w", err)
		}
		for rows.Next() {
			var r EntityRef
			if err := rows.Scan(&r.EntityID, &r.EntityType, &r.Name, &r.DocumentID, &r.Path); err != nil {
				rows.Close()
				return nil, fmt.Errorf("scan entity name: %w", err)
			}
			out[r.EntityID] = r // ordered by document_id descending: the smallest ID is written last
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("name entities: %w", err)
		}
	}
	return out, nil
}
