package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// The queries below let the search package rank keyword matches itself (BM25 over a few hundred
// candidates) instead of asking FTS5 to rank every chunk that matches any query word, which
// costs ~5 µs a chunk and, at 100k chunks, hundreds of milliseconds per question.

// FTSTotals is what FTS5's bm25() knows about the whole index: the number of indexed chunks and
// their total number of tokens (all columns), from which the average chunk length follows.
type FTSTotals struct {
	Rows   int64
	Tokens int64
}

// ReadFTSTotals reads the totals FTS5 keeps for bm25(): the "averages" record of the index
// (chunks_fts_data row 1), a row count followed by one token count per column, each an SQLite
// varint. It is part of FTS5's on-disk format, which SQLite keeps compatible across versions.
func ReadFTSTotals(ctx context.Context, q Q) (FTSTotals, error) {
	var blob []byte
	err := q.QueryRowContext(ctx, `SELECT block FROM chunks_fts_data WHERE id = 1`).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		return FTSTotals{}, nil // nothing indexed yet
	}
	if err != nil {
		return FTSTotals{}, fmt.Errorf("read index totals: %w", err)
	}
	var t FTSTotals
	rows, n := sqliteVarint(blob)
	if n == 0 && len(blob) > 0 {
		return FTSTotals{}, fmt.Errorf("read index totals: malformed record")
	}
	t.Rows = int64(rows)
	for blob = blob[n:]; len(blob) > 0; blob = blob[n:] {
		var v uint64
		if v, n = sqliteVarint(blob); n == 0 {
			return FTSTotals{}, fmt.Errorf("read index totals: malformed record")
		}
		t.Tokens += int64(v)
	}
	return t, nil
}

// sqliteVarint decodes SQLite's variable-length integer (big-endian, 7 bits a byte, the ninth
// byte whole); n is 0 if b is truncated.
func sqliteVarint(b []byte) (v uint64, n int) {
	for i := 0; i < 8 && i < len(b); i++ {
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

// MatchRowIDs lists, in ascending order, the rowids above after of up to limit chunks matching
// an FTS5 expression (built by the caller, never raw user text); limit <= 0 is no limit. The
// list comes back as one string from group_concat: handing rows to Go one by one costs three
// times as much as FTS5 finding them, and the subquery that a limit needs doubles the cost of
// each row (0.3 µs against 0.16).
func MatchRowIDs(ctx context.Context, q Q, match string, after int64, limit int) ([]int64, error) {
	var list sql.NullString
	var err error
	if limit > 0 {
		err = q.QueryRowContext(ctx, `SELECT group_concat(rowid) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid > ? LIMIT ?)`,
			match, after, limit).Scan(&list)
	} else {
		err = q.QueryRowContext(ctx, `SELECT group_concat(rowid) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid > ?`, match, after).Scan(&list)
	}
	if err != nil {
		return nil, fmt.Errorf("match rowids: %w", err)
	}
	var out []int64
	s := list.String
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != ',' {
			i++
		}
		id, err := strconv.ParseInt(s[:i], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("match rowids: %w", err)
		}
		out = append(out, id)
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out, nil
}

// ChunkBody is what BM25 reads of a chunk: the indexed columns.
type ChunkBody struct {
	RowID         int64
	Text, Heading string
}

// ChunkBodies reads the text and heading of chunks by rowid, in no particular order. The
// rowids go in as one JSON array: one statement, prepared once, whatever their number.
func ChunkBodies(ctx context.Context, q Q, rowids []int64) ([]ChunkBody, error) {
	sorted := slices.Sorted(slices.Values(rowids)) // in b-tree order: neighbours share pages
	list, err := json.Marshal(sorted)
	if err != nil {
		return nil, fmt.Errorf("chunk bodies: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT rowid, text, heading FROM chunks WHERE rowid IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("chunk bodies: %w", err)
	}
	defer rows.Close()
	out := make([]ChunkBody, 0, len(rowids))
	for rows.Next() {
		var b ChunkBody
		if err := rows.Scan(&b.RowID, &b.Text, &b.Heading); err != nil {
			return nil, fmt.Errorf("chunk bodies: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("chunk bodies: %w", err)
	}
	return out, nil
}

// ChunkRowIDSpan is the lowest and highest chunk rowid (0, 0 when there are none). Two
// subqueries: SQLite answers a lone min() or max() from the b-tree, both together by a scan.
func ChunkRowIDSpan(ctx context.Context, q Q) (lo, hi int64, err error) {
	var l, h sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT (SELECT min(rowid) FROM chunks), (SELECT max(rowid) FROM chunks)`).Scan(&l, &h); err != nil {
		return 0, 0, fmt.Errorf("chunk rowid span: %w", err)
	}
	return l.Int64, h.Int64, nil
}

// MatchCount counts the chunks matching an FTS5 expression: about half the cost of listing them.
func MatchCount(ctx context.Context, q Q, match string) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`, match).Scan(&n); err != nil {
		return 0, fmt.Errorf("match count: %w", err)
	}
	return n, nil
}

// ChunkDocuments maps chunk rowids to their documents, in one statement (the rowids go in as
// one JSON array), and about how many documents there are, for document-level BM25.
func ChunkDocuments(ctx context.Context, q Q, rowids []int64) (map[int64]string, int, error) {
	sorted := slices.Sorted(slices.Values(rowids))
	list, err := json.Marshal(sorted)
	if err != nil {
		return nil, 0, fmt.Errorf("chunk documents: %w", err)
	}
	// The number of documents, for their average length: the highest rowid, read from the end of
	// the b-tree, not a count, which scanned 10k documents (a third of the ranking's time at
	// 100k chunks). It counts removed documents too: close enough for a length normalisation.
	var docs int
	if err := q.QueryRowContext(ctx, `SELECT coalesce(max(rowid), 0) FROM documents`).Scan(&docs); err != nil {
		return nil, 0, fmt.Errorf("chunk documents: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT rowid, document_id FROM chunks WHERE rowid IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, 0, fmt.Errorf("chunk documents: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]string, len(rowids))
	for rows.Next() {
		var id int64
		var doc string
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, 0, fmt.Errorf("chunk documents: %w", err)
		}
		out[id] = doc
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("chunk documents: %w", err)
	}
	return out, docs, nil
}
