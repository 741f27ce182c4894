package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// DocVector is one row of doc_vectors (migrations 0008, 0009): a document's vector in one
// space, or a tombstone (Vector nil) for a document that left. Seq only grows, so a reader's
// in-memory copy tails new rows by a watermark.
type DocVector struct {
	Seq        int64
	Space      string
	DocumentID string
	Vector     []float32 // nil: tombstone
	Shingles   int       // distinct 3-word shingles of the document's text
}

// DocVectorsSince calls fn for every row of space with seq > after, in seq order.
func DocVectorsSince(ctx context.Context, q Q, space string, after int64, fn func(DocVector) error) error {
	rows, err := q.QueryContext(ctx, docVectorsSinceSQL, space, after)
	if err != nil {
		return fmt.Errorf("read document vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		v := DocVector{Space: space}
		var blob []byte
		if err := rows.Scan(&v.Seq, &v.DocumentID, &blob, &v.Shingles); err != nil {
			return fmt.Errorf("scan document vector: %w", err)
		}
		if blob != nil {
			v.Vector = DecodeVector(blob)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return rows.Err()
}

// DocVectorOf is a document's current row in a space (ok false: it has none).
func DocVectorOf(ctx context.Context, q Q, space, documentID string) (v DocVector, ok bool, err error) {
	v = DocVector{Space: space, DocumentID: documentID}
	var blob []byte
	err = q.QueryRowContext(ctx, `SELECT seq, vector, shingles FROM doc_vectors WHERE space = ? AND document_id = ?`, space, documentID).
		Scan(&v.Seq, &blob, &v.Shingles)
	if errors.Is(err, sql.ErrNoRows) {
		return v, false, nil
	}
	if err != nil {
		return v, false, fmt.Errorf("read the document vector of %s: %w", documentID, err)
	}
	if blob != nil {
		v.Vector = DecodeVector(blob)
	}
	return v, true, nil
}

// DocVectorSeq is the document and space at seq (ok false: no row has it) and the largest seq
// of the table: what an in-memory copy checks its watermark against, to notice a transaction it
// had tailed being rolled back (the seqs it saw are then gone or reused).
func DocVectorSeq(ctx context.Context, q Q, seq int64) (documentID, space string, ok bool, maxSeq int64, err error) {
	if err := q.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM doc_vectors`).Scan(&maxSeq); err != nil {
		return "", "", false, 0, fmt.Errorf("read document vector watermark: %w", err)
	}
	err = q.QueryRowContext(ctx, `SELECT document_id, space FROM doc_vectors WHERE seq = ?`, seq).Scan(&documentID, &space)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", false, maxSeq, nil
	}
	if err != nil {
		return "", "", false, 0, fmt.Errorf("read document vector watermark: %w", err)
	}
	return documentID, space, true, maxSeq, nil
}

// PutDocVector records a document's vector in a space (nil: a tombstone) as a new row, so
// that its seq is new and every tailing copy sees the change; an identical current row is
// left alone (nothing to tail). It reports whether it wrote.
func PutDocVector(ctx context.Context, q Q, space, documentID string, vec []float32, shingles int) (bool, error) {
	var blob []byte
	if vec != nil {
		blob = EncodeVector(vec)
	}
	var old []byte
	var oldSh int
	err := q.QueryRowContext(ctx, `SELECT vector, shingles FROM doc_vectors WHERE space = ? AND document_id = ?`, space, documentID).Scan(&old, &oldSh)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if vec == nil {
			return false, nil // never had a vector here: nothing to retract
		}
	case err != nil:
		return false, fmt.Errorf("read document vector: %w", err)
	case (old == nil) == (blob == nil) && string(old) == string(blob) && oldSh == shingles:
		return false, nil
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM doc_vectors WHERE space = ? AND document_id = ?`, space, documentID); err != nil {
		return false, fmt.Errorf("replace document vector: %w", err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO doc_vectors(space, document_id, vector, shingles) VALUES (?,?,?,?)`,
		space, documentID, blob, shingles); err != nil {
		return false, fmt.Errorf("write document vector: %w", err)
	}
	return true, nil
}

// DocVectorSpaces lists the spaces in which a document has a vector (not a tombstone).
func DocVectorSpaces(ctx context.Context, q Q, documentID string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT space FROM doc_vectors WHERE document_id = ? AND vector IS NOT NULL ORDER BY space`, documentID)
	if err != nil {
		return nil, fmt.Errorf("read document vector spaces: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("scan document vector space: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// ChunkVector is one chunk of a document with its vector in a space: what a similarity's
// evidence cites.
type ChunkVector struct {
	ChunkID   string
	Ordinal   int
	LineStart int
	LineEnd   int
	Page      int
	Text      string
	Vector    []float32
}

// noLimit is SQLite's LIMIT for limit: -1 (none) when limit is 0 or less.
func noLimit(limit int) int {
	if limit <= 0 {
		return -1
	}
	return limit
}

// ChunkVectorsOf reads a document's chunks that have a vector in space, in order, at most limit
// (0: all); withText
// false leaves Text empty (the mean vector needs no text).
func ChunkVectorsOf(ctx context.Context, q Q, documentID, space string, withText bool, limit int) ([]ChunkVector, error) {
	text := `''`
	if withText {
		text = `c.text`
	}
	rows, err := q.QueryContext(ctx, `SELECT c.chunk_id, c.ordinal, c.line_start, c.line_end, coalesce(c.page, 0), `+text+`, e.vector
		FROM chunks c JOIN embeddings e ON e.chunk_rowid = c.rowid AND e.space = ?
		WHERE c.document_id = ? ORDER BY c.ordinal LIMIT ?`, space, documentID, noLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("read chunk vectors: %w", err)
	}
	defer rows.Close()
	var out []ChunkVector
	for rows.Next() {
		var c ChunkVector
		var blob []byte
		if err := rows.Scan(&c.ChunkID, &c.Ordinal, &c.LineStart, &c.LineEnd, &c.Page, &c.Text, &blob); err != nil {
			return nil, fmt.Errorf("scan chunk vector: %w", err)
		}
		c.Vector = DecodeVector(blob)
		out = append(out, c)
	}
	return out, rows.Err()
}

// ChunkTextsOf reads the texts of a document's chunks, in order, at most limit (0: all).
func ChunkTextsOf(ctx context.Context, q Q, documentID string, limit int) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT text FROM chunks WHERE document_id = ? ORDER BY ordinal LIMIT ?`, documentID, noLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("read chunk texts: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("scan chunk text: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// MinDerivedScores is, for each entity of ids with a derived link of enrichment and type, the
// lowest score among those links. The unary + keeps SQLite on the source and target indexes
// (the ids' few links), off the enrichment index, which holds every link of the enrichment.
func MinDerivedScores(ctx context.Context, q Q, enrichment, typ string, ids []string) (map[string]float64, error) {
	out := map[string]float64{}
	err := inBatches(ids, func(part []string) error {
		args := []any{enrichment, typ}
		for _, id := range part {
			args = append(args, id)
		}
		args = append(args, enrichment, typ)
		for _, id := range part {
			args = append(args, id)
		}
		rows, err := q.QueryContext(ctx, `SELECT e, min(score) FROM (
				SELECT source_entity_id AS e, score FROM derived_links WHERE +enrichment = ? AND relationship_type = ? AND source_entity_id IN (`+qmarks(len(part))+`)
				UNION ALL
				SELECT target_entity_id, score FROM derived_links WHERE +enrichment = ? AND relationship_type = ? AND target_entity_id IN (`+qmarks(len(part))+`))
			GROUP BY e`, args...)
		if err != nil {
			return fmt.Errorf("read derived link scores: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var s float64
			if err := rows.Scan(&id, &s); err != nil {
				return fmt.Errorf("scan derived link score: %w", err)
			}
			out[id] = s
		}
		return rows.Err()
	})
	return out, err
}
