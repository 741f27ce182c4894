package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
)

// EncodeVector stores a vector as little-endian float32s.
func EncodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// DecodeVector reads EncodeVector's bytes.
func DecodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// Embedding is one chunk's vector in one space.
type Embedding struct {
	Seq        int64
	ChunkRowID int64
	Vector     []float32
}

// InsertEmbeddings stores vectors of one space, replacing a chunk's earlier vector there with
// a new row, so the row gets a new seq and tailing indexes see the change (an in-place UPDATE
// would keep the old seq and go unnoticed). The earlier row is deleted by its own statement
// rather than by INSERT OR REPLACE, whose implicit delete fires no trigger and would leave
// census_counts counting the chunk twice (the schema refuses such an insert). When list names
// a chunk twice, its last vector is the one kept.
func InsertEmbeddings(ctx context.Context, q Q, space string, list []Embedding) error {
	last := make(map[int64]int, len(list))
	for i, e := range list {
		last[e.ChunkRowID] = i
	}
	if len(last) < len(list) {
		uniq := make([]Embedding, 0, len(last))
		for i, e := range list {
			if last[e.ChunkRowID] == i {
				uniq = append(uniq, e)
			}
		}
		list = uniq
	}
	return inBatches(list, func(part []Embedding) error {
		ids := make([]any, 0, len(part)+1)
		ids = append(ids, space)
		args := make([]any, 0, len(part)*3)
		for _, e := range part {
			ids = append(ids, e.ChunkRowID)
			args = append(args, e.ChunkRowID, space, EncodeVector(e.Vector))
		}
		if _, err := q.ExecContext(ctx, `DELETE FROM embeddings WHERE space = ? AND chunk_rowid IN (`+qmarks(len(part))+`)`, ids...); err != nil {
			return fmt.Errorf("replace embeddings: %w", err)
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO embeddings(chunk_rowid, space, vector) VALUES `+placeholders(len(part), 3), args...); err != nil {
			return fmt.Errorf("insert embeddings: %w", err)
		}
		return nil
	})
}

// The streams of vectors since a seq read the table by rowid (seq): "+space" keeps the planner
// off the (space, …) unique index, through which every row was looked up in the table and then
// sorted by seq in a temporary B-tree (a search's first load of a 5,000-note store's vectors
// took 0.5 s, two thirds of it there; 0.33 s by rowid). A store with Ollama keeps two spaces,
// interleaved: the scan then also passes the other space's rows (measured with one space only;
// an index on (space) would read only the asked space's, in seq order, at a migration's cost).
const (
	embeddingsSinceSQL = `SELECT seq, chunk_rowid, vector FROM embeddings WHERE +space = ? AND seq > ? ORDER BY seq`
	docVectorsSinceSQL = `SELECT seq, document_id, vector, shingles FROM doc_vectors WHERE +space = ? AND seq > ? ORDER BY seq`
)

// EmbeddingsSince streams a space's vectors with seq > after, in seq order, to fn.
func EmbeddingsSince(ctx context.Context, q Q, space string, after int64, fn func(Embedding) error) error {
	rows, err := q.QueryContext(ctx, embeddingsSinceSQL, space, after)
	if err != nil {
		return fmt.Errorf("read embeddings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Embedding
		var blob []byte
		if err := rows.Scan(&e.Seq, &e.ChunkRowID, &blob); err != nil {
			return fmt.Errorf("read embeddings: %w", err)
		}
		e.Vector = DecodeVector(blob)
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// DeletesSince returns the chunks deleted after seq after, and the newest seq.
func DeletesSince(ctx context.Context, q Q, after int64) ([]int64, int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT seq, chunk_rowid FROM embedding_deletes WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return nil, after, fmt.Errorf("read deletes: %w", err)
	}
	defer rows.Close()
	var out []int64
	last := after
	for rows.Next() {
		var seq, id int64
		if err := rows.Scan(&seq, &id); err != nil {
			return nil, after, fmt.Errorf("read deletes: %w", err)
		}
		out, last = append(out, id), seq
	}
	return out, last, rows.Err()
}

// VectorWatermarks are the newest embedding and deletion sequence numbers.
func VectorWatermarks(ctx context.Context, q Q) (adds, deletes int64, err error) {
	var a, d sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT (SELECT max(seq) FROM embeddings), (SELECT max(seq) FROM embedding_deletes)`).Scan(&a, &d); err != nil {
		return 0, 0, fmt.Errorf("vector watermarks: %w", err)
	}
	return a.Int64, d.Int64, nil
}

// CountEmbeddings counts a space's vectors and the chunks of live documents (neither removed
// nor failed). It reads the counters triggers keep in census_counts (migration 0007): one
// lookup, where counting the rows read every page of two indexes (1.7 s cold at 100k chunks).
func CountEmbeddings(ctx context.Context, q Q, space string) (vectors, chunks int, err error) {
	err = q.QueryRowContext(ctx, `SELECT coalesce((SELECT n FROM census_counts WHERE key = 'vectors:' || ?), 0),
		coalesce((SELECT n FROM census_counts WHERE key = 'live_chunks'), 0)`, space).
		Scan(&vectors, &chunks)
	if err != nil {
		return 0, 0, fmt.Errorf("count embeddings: %w", err)
	}
	return vectors, chunks, nil
}

// ChunkRowIDs maps chunk IDs to their rowids.
func ChunkRowIDs(ctx context.Context, q Q, chunkIDs []string) (map[string]int64, error) {
	out := make(map[string]int64, len(chunkIDs))
	err := inBatches(chunkIDs, func(part []string) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT chunk_id, rowid FROM chunks WHERE chunk_id IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("chunk rowids: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var rid int64
			if err := rows.Scan(&id, &rid); err != nil {
				return fmt.Errorf("chunk rowids: %w", err)
			}
			out[id] = rid
		}
		return rows.Err()
	})
	return out, err
}

// ChunkText is a chunk's rowid and the text its vector is computed from.
type ChunkText struct {
	RowID   int64
	Heading string
	Text    string
}

// ChunksWithoutVector lists a document's chunks that have no vector in space, in order.
func ChunksWithoutVector(ctx context.Context, q Q, documentID, space string) ([]ChunkText, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.rowid, c.heading, c.text FROM chunks c
		WHERE c.document_id = ? AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.space = ? AND e.chunk_rowid = c.rowid)
		ORDER BY c.ordinal`, documentID, space)
	if err != nil {
		return nil, fmt.Errorf("chunks without vectors: %w", err)
	}
	defer rows.Close()
	var out []ChunkText
	for rows.Next() {
		var c ChunkText
		if err := rows.Scan(&c.RowID, &c.Heading, &c.Text); err != nil {
			return nil, fmt.Errorf("chunks without vectors: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// DocumentVersion names a document and its current payload.
type DocumentVersion struct {
	DocumentID string
	PayloadID  string
}

// DocumentsWithoutVectors lists live documents with at least one chunk lacking a vector in
// space, by document ID.
func DocumentsWithoutVectors(ctx context.Context, q Q, space string) ([]DocumentVersion, error) {
	rows, err := q.QueryContext(ctx, `SELECT d.document_id, coalesce(d.payload_id, '') FROM documents d
		WHERE d.status NOT IN ('removed', 'failed') AND EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.document_id
			AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.space = ? AND e.chunk_rowid = c.rowid))
		ORDER BY d.document_id`, space)
	if err != nil {
		return nil, fmt.Errorf("documents without vectors: %w", err)
	}
	defer rows.Close()
	var out []DocumentVersion
	for rows.Next() {
		var d DocumentVersion
		if err := rows.Scan(&d.DocumentID, &d.PayloadID); err != nil {
			return nil, fmt.Errorf("documents without vectors: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
