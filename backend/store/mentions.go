package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
)

// Mention is one row of entity_mentions (migration 0008): entity EntityID is named in chunk
// Ordinal of DocumentID (-1: by the document as a whole, as a front-matter tag), read from Source.
type Mention struct {
	EntityID   string `json:"entity_id"`
	DocumentID string `json:"document_id"`
	Ordinal    int    `json:"ordinal"`
	Source     string `json:"source"`
	// Passage identifies the chunk's text (PassageOf), "" for a document-wide mention.
	Passage string `json:"passage,omitempty"`
}

// PassageOf is the Passage of a chunk text: equal texts, equal passages.
func PassageOf(text string) string {
	h := fnv.New64a()
	h.Write([]byte(text))
	return fmt.Sprintf("%016x", h.Sum64())
}

func scanMentions(ctx context.Context, q Q, query string, args ...any) ([]Mention, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read entity mentions: %w", err)
	}
	defer rows.Close()
	var out []Mention
	for rows.Next() {
		var m Mention
		if err := rows.Scan(&m.EntityID, &m.DocumentID, &m.Ordinal, &m.Source, &m.Passage); err != nil {
			return nil, fmt.Errorf("scan entity mention: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// MentionsIn reads a document's mention rows, ordered by entity and ordinal.
func MentionsIn(ctx context.Context, q Q, documentID string) ([]Mention, error) {
	return scanMentions(ctx, q, `SELECT entity_id, document_id, ordinal, source, passage FROM entity_mentions WHERE document_id = ?
		ORDER BY entity_id, ordinal`, documentID)
}

// MentionsOf reads an entity's mention rows in documents that are live (analysed, not removed
// or waiting to be read again), ordered by document and ordinal.
func MentionsOf(ctx context.Context, q Q, entityID string) ([]Mention, error) {
	return scanMentions(ctx, q, `SELECT m.entity_id, m.document_id, m.ordinal, m.source, m.passage FROM entity_mentions m
		JOIN documents d ON d.document_id = m.document_id AND d.status IN ('analyzed', 'semantic')
		WHERE m.entity_id = ? ORDER BY m.document_id, m.ordinal`, entityID)
}

// MentionsAtChunk reads the mention rows of one chunk.
func MentionsAtChunk(ctx context.Context, q Q, documentID string, ordinal int) ([]Mention, error) {
	return scanMentions(ctx, q, `SELECT entity_id, document_id, ordinal, source, passage FROM entity_mentions
		WHERE document_id = ? AND ordinal = ? ORDER BY entity_id`, documentID, ordinal)
}

// CountMentions counts an entity's mention rows in live documents whose source is not one of
// except.
func CountMentions(ctx context.Context, q Q, entityID string, except ...string) (int, error) {
	query := `SELECT count(*) FROM entity_mentions m JOIN documents d ON d.document_id = m.document_id AND d.status IN ('analyzed', 'semantic')
		WHERE m.entity_id = ?`
	args := []any{entityID}
	if len(except) > 0 {
		query += ` AND m.source NOT IN (` + qmarks(len(except)) + `)`
		for _, s := range except {
			args = append(args, s)
		}
	}
	var n int
	if err := q.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count entity mentions: %w", err)
	}
	return n, nil
}

// DeleteMentions deletes a document's mention rows (every source); it returns how many.
func DeleteMentions(ctx context.Context, q Q, documentID string) (int, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM entity_mentions WHERE document_id = ?`, documentID)
	if err != nil {
		return 0, fmt.Errorf("delete entity mentions: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// DeleteMentionsBySource deletes an entity's mention rows of one source, in every document.
func DeleteMentionsBySource(ctx context.Context, q Q, entityID, source string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM entity_mentions WHERE entity_id = ? AND source = ?`, entityID, source); err != nil {
		return fmt.Errorf("delete entity mentions: %w", err)
	}
	return nil
}

// InsertMentions writes mention rows; a row that exists already (same entity, document and
// ordinal) is kept as it is.
func InsertMentions(ctx context.Context, q Q, list []Mention) error {
	return inBatches(list, func(part []Mention) error {
		args := make([]any, 0, len(part)*5)
		for _, m := range part {
			args = append(args, m.EntityID, m.DocumentID, m.Ordinal, m.Source, m.Passage)
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO entity_mentions(entity_id, document_id, ordinal, source, passage) VALUES `+placeholders(len(part), 5)+`
			ON CONFLICT DO NOTHING`, args...); err != nil {
			return fmt.Errorf("write entity mentions: %w", err)
		}
		return nil
	})
}

// ExistingObservations reports which of ids are stored observations.
func ExistingObservations(ctx context.Context, q Q, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	err := inBatches(ids, func(part []string) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT observation_id FROM observations WHERE observation_id IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("read observations: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("scan observation: %w", err)
			}
			out[id] = true
		}
		return rows.Err()
	})
	return out, err
}

// ChunkAt reads one chunk of a document by ordinal.
func ChunkAt(ctx context.Context, q Q, documentID string, ordinal int) (Chunk, error) {
	var c Chunk
	err := q.QueryRowContext(ctx, `SELECT chunk_id, document_id, ordinal, text, heading, line_start, line_end, coalesce(page, 0)
		FROM chunks WHERE document_id = ? AND ordinal = ?`, documentID, ordinal).
		Scan(&c.ChunkID, &c.DocumentID, &c.Ordinal, &c.Text, &c.Heading, &c.LineStart, &c.LineEnd, &c.Page)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("read chunk %d of %s: %w", ordinal, documentID, err)
	}
	return c, nil
}

// ChunkCount counts a document's chunks.
func ChunkCount(ctx context.Context, q Q, documentID string) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM chunks WHERE document_id = ?`, documentID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count chunks: %w", err)
	}
	return n, nil
}

// PhraseChunks lists (document, ordinal) of the chunks of live documents other than
// exceptDoc that the FTS5 phrase matches (a superset of the exact matches: the index stems).
func PhraseChunks(ctx context.Context, q Q, phrase, exceptDoc string) ([]Mention, error) {
	return scanMentions(ctx, q, `SELECT '', c.document_id, c.ordinal, '', '' FROM chunks_fts f
		JOIN chunks c ON c.rowid = f.rowid
		JOIN documents d ON d.document_id = c.document_id AND d.status IN ('analyzed', 'semantic')
		WHERE chunks_fts MATCH ? AND c.document_id <> ? ORDER BY c.document_id, c.ordinal`, phrase, exceptDoc)
}

// BridgedEntities reports which of ids have a mention of one of sources in a document other
// than exceptDoc (an indexed look-up per ID: the caller's candidates, never the whole table).
func BridgedEntities(ctx context.Context, q Q, ids []string, exceptDoc string, sources ...string) (map[string]bool, error) {
	out := map[string]bool{}
	err := inBatches(ids, func(part []string) error {
		args := make([]any, 0, len(part)+len(sources)+1)
		for _, id := range part {
			args = append(args, id)
		}
		args = append(args, exceptDoc)
		for _, s := range sources {
			args = append(args, s)
		}
		rows, err := q.QueryContext(ctx, `SELECT DISTINCT entity_id FROM entity_mentions WHERE entity_id IN (`+qmarks(len(part))+`)
			AND document_id <> ? AND source IN (`+qmarks(len(sources))+`)`, args...)
		if err != nil {
			return fmt.Errorf("read entity mentions: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("scan entity mention: %w", err)
			}
			out[id] = true
		}
		return rows.Err()
	})
	return out, err
}

// ReferredPersons lists the person entities a document entity REFERS_TO (asserted), by ID.
func ReferredPersons(ctx context.Context, q Q, documentEntity string) ([]Entity, error) {
	rows, err := q.QueryContext(ctx, `SELECT e.entity_id, e.identity_key FROM relationships r
		JOIN entities e ON e.entity_id = r.target_entity_id AND e.entity_type = 'person'
		WHERE r.source_entity_id = ? AND r.relationship_type = 'REFERS_TO' ORDER BY e.entity_id`, documentEntity)
	if err != nil {
		return nil, fmt.Errorf("read referred persons: %w", err)
	}
	defer rows.Close()
	var out []Entity
	for rows.Next() {
		var e Entity
		if err := rows.Scan(&e.EntityID, &e.IdentityKey); err != nil {
			return nil, fmt.Errorf("scan person: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// CoMentions reads, for every chunk where entityID is mentioned by one of sources, the other
// entities mentioned there by one of sources (one indexed join). Rows of documents that are no
// longer live are not filtered out: they last only until that document's own enrich job, which
// deletes them and recomputes every pair they touched.
func CoMentions(ctx context.Context, q Q, entityID string, sources ...string) ([]Mention, error) {
	args := []any{entityID}
	for range 2 {
		for _, s := range sources {
			args = append(args, s)
		}
	}
	return scanMentions(ctx, q, `SELECT b.entity_id, b.document_id, b.ordinal, b.source, b.passage FROM entity_mentions a
		JOIN entity_mentions b ON b.document_id = a.document_id AND b.ordinal = a.ordinal AND b.entity_id <> a.entity_id
		WHERE a.entity_id = ? AND a.ordinal >= 0 AND a.source IN (`+qmarks(len(sources))+`) AND b.source IN (`+qmarks(len(sources))+`)
		ORDER BY b.entity_id, b.document_id, b.ordinal`, args...)
}

// CountPassages counts an entity's mentions by one of sources in chunks, up to limit+1 (past
// limit the caller only needs to know it is past), and the distinct passages among those.
func CountPassages(ctx context.Context, q Q, entityID string, limit int, sources ...string) (mentions, passages int, err error) {
	args := []any{entityID}
	for _, s := range sources {
		args = append(args, s)
	}
	args = append(args, limit+1)
	err = q.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT passage) FROM (SELECT passage FROM entity_mentions
		WHERE entity_id = ? AND ordinal >= 0 AND source IN (`+qmarks(len(sources))+`) LIMIT ?)`, args...).Scan(&mentions, &passages)
	if err != nil {
		return 0, 0, fmt.Errorf("count entity mentions: %w", err)
	}
	return mentions, passages, nil
}

// MentionCount is an entity's counted mentions (migration 0018's mention_counts: chunks whose
// text names it); 0 if none.
func MentionCount(ctx context.Context, q Q, entityID string) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT chunks FROM mention_counts WHERE entity_id = ?`, entityID).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read mention count: %w", err)
	}
	return n, nil
}

// CoPair is one partner of an entity in cooccur_pairs (migration 0018): the chunks naming both,
// and the partner's own counted mentions.
type CoPair struct {
	Partner string
	Shared  int
	Chunks  int
	// Unchanged: the set of chunks naming both is the one the pair's link was last derived
	// from (SetCoPairLinked).
	Unchanged bool
}

// CoPairs reads the partners of entityID that share at least min chunks with it, by partner ID
// (two index range scans of cooccur_pairs, each partner's count by its key).
func CoPairs(ctx context.Context, q Q, entityID string, min int) ([]CoPair, error) {
	rows, err := q.QueryContext(ctx, `SELECT p.b, p.chunks, coalesce(c.chunks, 0), p.linked_sig IS p.sig FROM cooccur_pairs p
			LEFT JOIN mention_counts c ON c.entity_id = p.b WHERE p.a = ? AND p.chunks >= ?
		UNION ALL SELECT p.a, p.chunks, coalesce(c.chunks, 0), p.linked_sig IS p.sig FROM cooccur_pairs p
			LEFT JOIN mention_counts c ON c.entity_id = p.a WHERE p.b = ? AND p.chunks >= ?
		ORDER BY 1`, entityID, min, entityID, min)
	if err != nil {
		return nil, fmt.Errorf("read co-occurring pairs: %w", err)
	}
	defer rows.Close()
	var out []CoPair
	for rows.Next() {
		var p CoPair
		if err := rows.Scan(&p.Partner, &p.Shared, &p.Chunks, &p.Unchanged); err != nil {
			return nil, fmt.Errorf("scan co-occurring pair: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// SharedChunks reads up to limit chunks where both a and b are mentioned by one of sources, as
// a's mention rows (document, ordinal, passage), by document and ordinal.
func SharedChunks(ctx context.Context, q Q, a, b string, limit int, sources ...string) ([]Mention, error) {
	args := []any{b, a}
	for range 2 {
		for _, s := range sources {
			args = append(args, s)
		}
	}
	args = append(args, limit)
	return scanMentions(ctx, q, `SELECT x.entity_id, x.document_id, x.ordinal, x.source, x.passage FROM entity_mentions x
		JOIN entity_mentions y ON y.entity_id = ? AND y.document_id = x.document_id AND y.ordinal = x.ordinal
		WHERE x.entity_id = ? AND x.ordinal >= 0 AND y.source IN (`+qmarks(len(sources))+`) AND x.source IN (`+qmarks(len(sources))+`)
		ORDER BY x.document_id, x.ordinal LIMIT ?`, args...)
}

// SetCoPairLinked records that the link of the pair a, b (a < b) was derived from the chunks
// naming both now.
func SetCoPairLinked(ctx context.Context, q Q, a, b string) error {
	if _, err := q.ExecContext(ctx, `UPDATE cooccur_pairs SET linked_sig = sig WHERE a = ? AND b = ?`, a, b); err != nil {
		return fmt.Errorf("mark co-occurring pair: %w", err)
	}
	return nil
}
