package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// SearchFilter narrows a search to some documents.
type SearchFilter struct {
	DocType    string
	PathPrefix string
	Tag        string
	Mime       string
	From, To   string // dates (YYYY-MM-DD) on the document's mtime, or creation for texts
	// ExcludePathPrefix leaves out the documents under a folder (a path prefix ending in the
	// separator): ask never cites what Strata wrote itself (its answers and lint reports). It
	// is a filter of the query, not of the results, so the passages left out are replaced.
	ExcludePathPrefix string
	// FoldCase: the path prefixes match whatever the letters' case (the file system ignores
	// case). It changes how the filters match, not whether there are any (Narrows).
	FoldCase bool
}

// Narrows reports whether the filter leaves any document out.
func (f SearchFilter) Narrows() bool {
	f.FoldCase = false
	return f != SearchFilter{}
}

// SearchHit is one chunk found by a search, with what a result cites.
type SearchHit struct {
	ChunkRowID int64
	ChunkID    string
	DocumentID string
	Path       string
	Title      string
	Heading    string
	LineStart  int
	LineEnd    int
	Page       int
	Snippet    string
	Score      float64 // keyword: -bm25 (higher is better)
}

func (f SearchFilter) where() (string, []any) {
	var w []string
	var args []any
	w = append(w, "d.status NOT IN ('removed', 'failed')")
	if f.DocType != "" {
		w, args = append(w, "d.doc_type = ?"), append(args, f.DocType)
	}
	if f.PathPrefix != "" {
		cond, a := pathPrefix("d.path", f.PathPrefix, f.FoldCase)
		w, args = append(w, cond), append(args, a...)
	}
	if f.Tag != "" {
		w, args = append(w, "EXISTS (SELECT 1 FROM json_each(d.tags) WHERE value = ?)"), append(args, strings.ToLower(strings.TrimPrefix(f.Tag, "#")))
	}
	if f.Mime != "" {
		w, args = append(w, "d.mime = ?"), append(args, f.Mime)
	}
	if f.ExcludePathPrefix != "" {
		cond, a := pathPrefix("d.path", f.ExcludePathPrefix, f.FoldCase)
		w, args = append(w, `(d.path IS NULL OR NOT (`+cond+`))`), append(args, a...)
	}
	if f.From != "" {
		w, args = append(w, "substr(coalesce(d.mtime, d.created_at), 1, 10) >= ?"), append(args, f.From)
	}
	if f.To != "" {
		w, args = append(w, "substr(coalesce(d.mtime, d.created_at), 1, 10) <= ?"), append(args, f.To)
	}
	return strings.Join(w, " AND "), args
}

// KeywordSearch runs an FTS5 MATCH expression (built by the caller from user text, never the
// user text itself) and returns hits best first, ties by chunk ID. The full-text index picks its
// best candidates by rank (BM25, headings weighted double) before documents are joined and
// filtered: joining every match made common terms cost a lookup per matching chunk. With
// filters, more candidates are taken so that enough survive them.
func KeywordSearch(ctx context.Context, q Q, match string, f SearchFilter, limit int) ([]SearchHit, error) {
	w, args := f.where()
	inner := limit * 2
	if len(args) > 0 {
		inner = limit * 20
	}
	rows, err := q.QueryContext(ctx, `SELECT c.rowid, c.chunk_id, c.document_id, coalesce(d.path, ''), d.title, c.heading, c.line_start, c.line_end,
		coalesce(c.page, 0), '', -m.rank AS score
		FROM (SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?) m
		JOIN chunks c ON c.rowid = m.rowid JOIN documents d ON d.document_id = c.document_id
		WHERE `+w+` ORDER BY score DESC, c.chunk_id LIMIT ?`, append(append([]any{match, inner}, args...), limit)...)
	if err != nil {
		return nil, fmt.Errorf("keyword search: %w", err)
	}
	defer rows.Close()
	var out []SearchHit
	for rows.Next() {
		var h SearchHit
		if err := rows.Scan(&h.ChunkRowID, &h.ChunkID, &h.DocumentID, &h.Path, &h.Title, &h.Heading, &h.LineStart, &h.LineEnd, &h.Page, &h.Snippet, &h.Score); err != nil {
			return nil, fmt.Errorf("keyword search: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// ChunkTexts reads the text of chunks by rowid.
func ChunkTexts(ctx context.Context, q Q, rowids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(rowids))
	err := inBatches(rowids, func(part []int64) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT rowid, text FROM chunks WHERE rowid IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("chunk texts: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var t string
			if err := rows.Scan(&id, &t); err != nil {
				return fmt.Errorf("chunk texts: %w", err)
			}
			out[id] = t
		}
		return rows.Err()
	})
	return out, err
}

// ChunkLineMaps reads, by rowid, the line maps of those chunks that have one (Chunk.Lines: a
// reader rewrote the file, so the text's lines do not simply count up from LineStart).
func ChunkLineMaps(ctx context.Context, q Q, rowids []int64) (map[int64][]int, error) {
	out := map[int64][]int{}
	err := inBatches(rowids, func(part []int64) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT rowid, lines FROM chunks WHERE lines IS NOT NULL AND rowid IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("chunk line maps: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var lines string
			if err := rows.Scan(&id, &lines); err != nil {
				return fmt.Errorf("chunk line maps: %w", err)
			}
			var l []int
			if err := json.Unmarshal([]byte(lines), &l); err != nil {
				return fmt.Errorf("decode the line map of chunk %d: %w", id, err)
			}
			out[id] = l
		}
		return rows.Err()
	})
	return out, err
}

// HitsByRowID loads chunks (with their documents) by rowid, keeping only those passing the
// filter; the snippet is the chunk's opening.
func HitsByRowID(ctx context.Context, q Q, rowids []int64, f SearchFilter) (map[int64]SearchHit, error) {
	out := make(map[int64]SearchHit, len(rowids))
	w, fargs := f.where()
	err := inBatches(rowids, func(part []int64) error {
		args := make([]any, 0, len(part)+len(fargs))
		for _, id := range part {
			args = append(args, id)
		}
		args = append(args, fargs...)
		rows, err := q.QueryContext(ctx, `SELECT c.rowid, c.chunk_id, c.document_id, coalesce(d.path, ''), d.title, c.heading, c.line_start, c.line_end,
			coalesce(c.page, 0), substr(c.text, 1, 240)
			FROM chunks c JOIN documents d ON d.document_id = c.document_id
			WHERE c.rowid IN (`+qmarks(len(part))+`) AND `+w, args...)
		if err != nil {
			return fmt.Errorf("load hits: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var h SearchHit
			if err := rows.Scan(&h.ChunkRowID, &h.ChunkID, &h.DocumentID, &h.Path, &h.Title, &h.Heading, &h.LineStart, &h.LineEnd, &h.Page, &h.Snippet); err != nil {
				return fmt.Errorf("load hits: %w", err)
			}
			out[h.ChunkRowID] = h
		}
		return rows.Err()
	})
	return out, err
}

// VectorBlobsSince streams a space's vectors with seq > after, in seq order, to fn as stored
// (little-endian float32s, see EncodeVector), valid only during the call: an index that keeps
// vectors its own way decodes them where it keeps them, without the two copies per vector of
// EmbeddingsSince (scan, decode), 200 MB of garbage in a 100k-vector rebuild.
func VectorBlobsSince(ctx context.Context, q Q, space string, after int64, fn func(seq, chunkRowID int64, vec []byte) error) error {
	rows, err := q.QueryContext(ctx, embeddingsSinceSQL, space, after)
	if err != nil {
		return fmt.Errorf("read embeddings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var seq, rowid int64
		var blob sql.RawBytes
		if err := rows.Scan(&seq, &rowid, &blob); err != nil {
			return fmt.Errorf("read embeddings: %w", err)
		}
		if err := fn(seq, rowid, blob); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read embeddings: %w", err)
	}
	return nil
}

// DocRef is a document as a search result names it: where it is and how big it is.
type DocRef struct {
	DocumentID  string
	Path        string
	Title       string
	Size        int64  // bytes of the file or text: the smaller of two documents holding one passage is the more specific
	Chunks      int    // how many chunks it has
	DuplicateOf string // the document whose content it shares (a byte-identical copy), or ""
}

// DocRefs loads the given documents, and every live document recorded as a duplicate of one of
// them (byte-identical copies hold no chunks of their own, so search never meets them), in
// one batched query per few hundred IDs.
func DocRefs(ctx context.Context, q Q, ids []string) (map[string]DocRef, error) {
	out := make(map[string]DocRef, len(ids))
	err := inBatches(ids, func(part []string) error {
		args := make([]any, 0, 2*len(part))
		for _, id := range part {
			args = append(args, id)
		}
		args = append(args, args...)
		rows, err := q.QueryContext(ctx, `SELECT document_id, coalesce(path, ''), title, size, coalesce(duplicate_of, ''),
			(SELECT coalesce(max(c.ordinal), -1) + 1 FROM chunks c WHERE c.document_id = d.document_id) FROM documents d
			WHERE (document_id IN (`+qmarks(len(part))+`) OR duplicate_of IN (`+qmarks(len(part))+`)) AND status NOT IN ('removed', 'failed')`, args...)
		if err != nil {
			return fmt.Errorf("load documents: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var d DocRef
			if err := rows.Scan(&d.DocumentID, &d.Path, &d.Title, &d.Size, &d.DuplicateOf, &d.Chunks); err != nil {
				return fmt.Errorf("load documents: %w", err)
			}
			out[d.DocumentID] = d
		}
		return rows.Err()
	})
	return out, err
}
