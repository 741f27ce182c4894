package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// EntitiesNaming returns the entities not of type except whose canonical name or an alias
// holds one of words (lower case) as a substring, in ID order, at most limit: the candidates
// a question may name, which the caller then matches by whole words. A question has a few
// words, so one pass over the entities with instr() is cheaper than an index of every name
// (and needs none kept in step with aliases).
func EntitiesNaming(ctx context.Context, q Q, words []string, except string, limit int) ([]Entity, error) {
	if len(words) == 0 {
		return nil, nil
	}
	var conds []string
	args := []any{except}
	for _, w := range words {
		conds = append(conds, "instr(lower(canonical_name), ?) > 0 OR instr(lower(aliases), ?) > 0")
		args = append(args, w, w)
	}
	args = append(args, limit)
	rows, err := q.QueryContext(ctx, `SELECT `+entityCols+` FROM entities WHERE entity_type <> ? AND (`+strings.Join(conds, " OR ")+`)
		ORDER BY entity_id LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("entities naming %v: %w", words, err)
	}
	defer rows.Close()
	var out []Entity
	for rows.Next() {
		e, err := scanEntity(rows)
		if err != nil {
			return nil, fmt.Errorf("entities naming %v: %w", words, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// ChunkCovering returns the first chunk of a document (by ordinal) whose lines cover line, and on
// page when page > 0; ErrNotFound when none does.
func ChunkCovering(ctx context.Context, q Q, documentID string, line, page int) (Chunk, error) {
	query := `SELECT ` + chunkCols + ` FROM chunks WHERE document_id = ? AND line_start <= ? AND line_end >= ?`
	args := []any{documentID, line, line}
	if page > 0 {
		query += ` AND page = ?`
		args = append(args, page)
	}
	list, err := scanChunks(ctx, q, query+` ORDER BY ordinal LIMIT 1`, args...)
	if errors.Is(err, sql.ErrNoRows) || err == nil && len(list) == 0 {
		return Chunk{}, ErrNotFound
	}
	if err != nil {
		return Chunk{}, fmt.Errorf("read chunk at line %d of %s: %w", line, documentID, err)
	}
	return list[0], nil
}
