package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// EntitiesNaming returns the entities not of type except whose canonical name, in lower case,
// begins with one of words (lower case): the candidates a question may name, which the caller
// then matches by whole words. One range of the name index (migration 0013) per word, at most
// limit entities each; in ID order, each once.
func EntitiesNaming(ctx context.Context, q Q, words []string, except string, limit int) ([]Entity, error) {
	seen := map[string]bool{}
	var out []Entity
	for _, w := range words {
		if w == "" {
			continue
		}
		rows, err := q.QueryContext(ctx, `SELECT `+entityCols+` FROM entities
			WHERE lower(canonical_name) >= ? AND lower(canonical_name) < ? AND entity_type <> ? LIMIT ?`, w, w+"\U0010FFFF", except, limit)
		if err != nil {
			return nil, fmt.Errorf("entities named %q: %w", w, err)
		}
		for rows.Next() {
			e, err := scanEntity(rows)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("entities named %q: %w", w, err)
			}
			if !seen[e.EntityID] {
				seen[e.EntityID] = true
				out = append(out, e)
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("entities named %q: %w", w, err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].EntityID < out[j].EntityID })
	return out, nil
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

// FirstChunkHeaded is a document's first chunk whose heading holds the phrase (case aside), or
// ErrNotFound: a changelog writes a release's number and date in the heading of its section.
func FirstChunkHeaded(ctx context.Context, q Q, documentID, phrase string) (Chunk, error) {
	list, err := scanChunks(ctx, q, `SELECT `+chunkCols+` FROM chunks WHERE document_id = ? AND instr(lower(heading), lower(?)) > 0 ORDER BY ordinal LIMIT 1`, documentID, phrase)
	if err != nil {
		return Chunk{}, fmt.Errorf("read chunk headed %q: %w", phrase, err)
	}
	if len(list) == 0 {
		return Chunk{}, ErrNotFound
	}
	return list[0], nil
}

// DocumentsTitled counts the documents (not removed) whose title or file name holds a word,
// case aside, up to limit: a word in one or two documents' titles names their subject, one in
// many names a kind of document.
func DocumentsTitled(ctx context.Context, q Q, word string, limit int) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM documents WHERE status <> 'removed'
		AND (instr(lower(title), ?1) > 0 OR instr(lower(coalesce(path, '')), ?1) > 0) LIMIT ?2)`, strings.ToLower(word), limit).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count documents titled %q: %w", word, err)
	}
	return n, nil
}
