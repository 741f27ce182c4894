package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// InsertDocument stores a new document row; an existing row with the same ID is left alone
// and reported as not created.
func InsertDocument(ctx context.Context, q Q, d Document) (bool, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO documents(document_id, payload_id, entity_id, kind, path, title, mime, size, mtime, pages,
		content_hash, duplicate_of, status, phase_register, phase_analyze, phase_semantic, last_error, created_at, updated_at, doc_type, tags)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(document_id) DO NOTHING`,
		d.DocumentID, nullStr(d.PayloadID), nullStr(d.EntityID), d.Kind, nullStr(d.Path), d.Title, d.Mime, d.Size, nullStr(d.Mtime), d.Pages,
		d.ContentHash, nullStr(d.DuplicateOf), d.Status, d.PhaseRegister, d.PhaseAnalyze, d.PhaseSemantic, nullRaw(d.LastError), d.CreatedAt, d.UpdatedAt,
		d.DocType, tagsJSON(d.Tags))
	if err != nil {
		return false, fmt.Errorf("insert document: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

const docCols = `document_id, payload_id, entity_id, kind, path, title, mime, size, mtime, pages, content_hash, duplicate_of, status,
	phase_register, phase_analyze, phase_semantic, last_error, created_at, updated_at, doc_type, tags, coalesce(changed_at, created_at)`

func tagsJSON(tags []string) string {
	if len(tags) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(tags) // strings only
	return string(b)
}

func scanDocument(sc interface{ Scan(...any) error }) (Document, error) {
	var d Document
	var payload, entity, path, mtime, dup, lastErr sql.NullString
	var tags string
	err := sc.Scan(&d.DocumentID, &payload, &entity, &d.Kind, &path, &d.Title, &d.Mime, &d.Size, &mtime, &d.Pages, &d.ContentHash, &dup, &d.Status,
		&d.PhaseRegister, &d.PhaseAnalyze, &d.PhaseSemantic, &lastErr, &d.CreatedAt, &d.UpdatedAt, &d.DocType, &tags, &d.ChangedAt)
	if tags != "" && tags != "[]" {
		_ = json.Unmarshal([]byte(tags), &d.Tags) // written by tagsJSON
	}
	d.PayloadID, d.EntityID, d.Path, d.Mtime, d.DuplicateOf = payload.String, entity.String, path.String, mtime.String, dup.String
	if lastErr.Valid {
		d.LastError = json.RawMessage(lastErr.String)
	}
	return d, err
}

// GetDocument reads one document.
func GetDocument(ctx context.Context, q Q, id string) (Document, error) {
	d, err := scanDocument(q.QueryRowContext(ctx, `SELECT `+docCols+` FROM documents WHERE document_id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	if err != nil {
		return d, fmt.Errorf("get document: %w", err)
	}
	return d, nil
}

// DocumentByPayload finds the document a payload produced, if any.
func DocumentByPayload(ctx context.Context, q Q, payloadID string) (Document, error) {
	d, err := scanDocument(q.QueryRowContext(ctx, `SELECT `+docCols+` FROM documents WHERE payload_id = ? ORDER BY document_id LIMIT 1`, payloadID))
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	if err != nil {
		return d, fmt.Errorf("document by payload: %w", err)
	}
	return d, nil
}

// InsertChunks stores a document's chunks (and, through triggers, their FTS rows) with one
// statement per batch: FTS5 flushes its pending terms to a new segment at every statement
// boundary, so row-by-row inserts made one segment per chunk and constant merging.
func InsertChunks(ctx context.Context, q Q, chunks []Chunk) error {
	return inBigBatches(chunks, func(part []Chunk) error {
		args := make([]any, 0, len(part)*13)
		for _, c := range part {
			var page, textStart, textEnd, lines any
			if c.Page > 0 {
				page = c.Page
			}
			if c.TextStart != c.ByteStart || c.TextEnd != c.ByteEnd {
				textStart, textEnd = c.TextStart, c.TextEnd
			}
			if len(c.Lines) > 0 {
				b, err := json.Marshal(c.Lines)
				if err != nil {
					return fmt.Errorf("encode the lines of chunk %s: %w", c.ChunkID, err)
				}
				lines = string(b)
			}
			args = append(args, c.ChunkID, c.DocumentID, c.Ordinal, c.Text, c.Heading, c.ByteStart, c.ByteEnd, c.LineStart, c.LineEnd, page, textStart, textEnd, lines)
		}
		_, err := q.ExecContext(ctx, `INSERT INTO chunks(chunk_id, document_id, ordinal, text, heading, byte_start, byte_end, line_start, line_end, page, text_start, text_end, lines)
			VALUES `+placeholders(len(part), 13), args...)
		if err != nil {
			return fmt.Errorf("insert chunks of %s: %w", part[0].DocumentID, err)
		}
		return nil
	})
}

// ChunksOf returns a document's chunks in order.
func ChunksOf(ctx context.Context, q Q, documentID string) ([]Chunk, error) {
	return FirstChunksOf(ctx, q, documentID, 0)
}

// FirstChunksOf reads a document's first limit chunks by ordinal (0: all).
func FirstChunksOf(ctx context.Context, q Q, documentID string, limit int) ([]Chunk, error) {
	out, err := scanChunks(ctx, q, `SELECT `+chunkCols+` FROM chunks WHERE document_id = ? ORDER BY ordinal LIMIT ?`, documentID, noLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("read chunks: %w", err)
	}
	return out, nil
}

// ChunksByID returns the chunks with the given IDs (those that exist), in the order asked.
func ChunksByID(ctx context.Context, q Q, ids []string) ([]Chunk, error) {
	byID := make(map[string]Chunk, len(ids))
	err := inBatches(ids, func(part []string) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		list, err := scanChunks(ctx, q, `SELECT `+chunkCols+` FROM chunks WHERE chunk_id IN (`+qmarks(len(part))+`)`, args...)
		for _, c := range list {
			byID[c.ChunkID] = c
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read chunks: %w", err)
	}
	out := make([]Chunk, 0, len(byID))
	for _, id := range ids {
		if c, ok := byID[id]; ok {
			out = append(out, c)
		}
	}
	return out, nil
}

const chunkCols = `chunk_id, document_id, ordinal, text, heading, byte_start, byte_end, line_start, line_end, coalesce(page, 0),
	coalesce(text_start, byte_start), coalesce(text_end, byte_end), coalesce(lines, '')`

func scanChunks(ctx context.Context, q Q, query string, args ...any) ([]Chunk, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Chunk{}
	for rows.Next() {
		var c Chunk
		var lines string
		if err := rows.Scan(&c.ChunkID, &c.DocumentID, &c.Ordinal, &c.Text, &c.Heading, &c.ByteStart, &c.ByteEnd, &c.LineStart, &c.LineEnd, &c.Page,
			&c.TextStart, &c.TextEnd, &lines); err != nil {
			return nil, fmt.Errorf("scan chunk: %w", err)
		}
		if lines != "" {
			if err := json.Unmarshal([]byte(lines), &c.Lines); err != nil {
				return nil, fmt.Errorf("decode the lines of chunk %s: %w", c.ChunkID, err)
			}
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// KeywordHit is one FTS5 match.
type KeywordHit struct {
	Chunk
	Score float64 // bm25, lower is better (SQLite's convention)
}

// MatchChunks runs an FTS5 MATCH expression; the caller builds a safe expression.
func MatchChunks(ctx context.Context, q Q, match string, limit int) ([]KeywordHit, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.chunk_id, c.document_id, c.ordinal, c.text, c.heading, c.byte_start, c.byte_end, c.line_start, c.line_end,
		coalesce(c.page, 0), bm25(chunks_fts) FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
		WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts), c.chunk_id LIMIT ?`, match, limit)
	if err != nil {
		return nil, fmt.Errorf("match chunks: %w", err)
	}
	defer rows.Close()
	out := []KeywordHit{}
	for rows.Next() {
		var h KeywordHit
		if err := rows.Scan(&h.ChunkID, &h.DocumentID, &h.Ordinal, &h.Text, &h.Heading, &h.ByteStart, &h.ByteEnd, &h.LineStart, &h.LineEnd, &h.Page, &h.Score); err != nil {
			return nil, fmt.Errorf("scan hit: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// DocumentByPath finds the document registered at a file path.
func DocumentByPath(ctx context.Context, q Q, path string) (Document, error) {
	d, err := scanDocument(q.QueryRowContext(ctx, `SELECT `+docCols+` FROM documents WHERE path = ?`, path))
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	if err != nil {
		return d, fmt.Errorf("document by path: %w", err)
	}
	return d, nil
}

// DocumentsByHash lists file documents (not removed) holding the given content, oldest first.
func DocumentsByHash(ctx context.Context, q Q, hash string) ([]Document, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+docCols+` FROM documents WHERE kind = 'file' AND content_hash = ? AND status != 'removed'
		ORDER BY created_at, document_id`, hash)
	if err != nil {
		return nil, fmt.Errorf("documents by hash: %w", err)
	}
	return collectDocuments(rows)
}

// DocumentsDuplicating lists the documents (not removed) marked as duplicates of id, so that
// they can be read themselves when id stops holding that content.
func DocumentsDuplicating(ctx context.Context, q Q, id string) ([]Document, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+docCols+` FROM documents WHERE duplicate_of = ? AND status != 'removed'
		ORDER BY created_at, document_id`, id)
	if err != nil {
		return nil, fmt.Errorf("documents duplicating %s: %w", id, err)
	}
	return collectDocuments(rows)
}

func collectDocuments(rows *sql.Rows) ([]Document, error) {
	defer rows.Close()
	out := []Document{}
	for rows.Next() {
		d, err := scanDocument(rows)
		if err != nil {
			return nil, fmt.Errorf("scan document: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// UpdateDocument rewrites a document's mutable columns.
func UpdateDocument(ctx context.Context, q Q, d Document) error {
	_, err := q.ExecContext(ctx, `UPDATE documents SET payload_id = ?, entity_id = ?, path = ?, title = ?, mime = ?, size = ?, mtime = ?, pages = ?,
		content_hash = ?, duplicate_of = ?, status = ?, phase_register = ?, phase_analyze = ?, phase_semantic = ?, last_error = ?, updated_at = ?,
		doc_type = ?, tags = ? WHERE document_id = ?`,
		nullStr(d.PayloadID), nullStr(d.EntityID), nullStr(d.Path), d.Title, d.Mime, d.Size, nullStr(d.Mtime), d.Pages, d.ContentHash,
		nullStr(d.DuplicateOf), d.Status, d.PhaseRegister, d.PhaseAnalyze, d.PhaseSemantic, nullRaw(d.LastError), d.UpdatedAt, d.DocType, tagsJSON(d.Tags), d.DocumentID)
	if err != nil {
		return fmt.Errorf("update document %s: %w", d.DocumentID, err)
	}
	return nil
}

// DeleteChunks removes a document's chunks (and their FTS rows).
func DeleteChunks(ctx context.Context, q Q, documentID string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM chunks WHERE document_id = ?`, documentID); err != nil {
		return fmt.Errorf("delete chunks of %s: %w", documentID, err)
	}
	return nil
}

// DocumentFilter selects documents for ListDocuments.
type DocumentFilter struct {
	Status     string
	PathPrefix string
	// FoldCase: PathPrefix matches whatever the letters' case (the file system ignores case).
	FoldCase bool
	DocType  string // TypePending: not analysed yet; TypeOther: analysed (or failed) without a type
	// Recent orders by updated_at, newest first (ties by ID) instead of by path: what changed
	// last, e.g. the newest failures a notice names. It overrides Sort.
	Recent bool
	// Sort is one of DocumentSorts ("" is SortPath); Desc reverses it, ties included, so
	// that the descending list is exactly the ascending one read backwards.
	Sort   string
	Desc   bool
	Limit  int
	Offset int
}

// Document listing orders (DocumentFilter.Sort). Each but SortPath walks an index of
// migration 0017 in its order; TestDocumentSortsUseIndexes checks the plans.
const (
	SortPath   = "path"   // by path (a note by its title): what a folder listing shows; the default
	SortAdded  = "added"  // when Strata got the current content: added, or the file's content changed (ChangedAt)
	SortName   = "name"   // by title, case-insensitive
	SortSize   = "size"   // by size in bytes
	SortStatus = "status" // failed, registered, analyzed, semantic, removed
)

// documentSort is an order's ORDER BY expression, written exactly as its index in migration
// 0017 is (SQLite uses an expression index only for the same expression), and that index.
type documentSort struct{ key, index string }

var documentSorts = map[string]documentSort{
	"":         {"coalesce(path, title)", ""},
	SortPath:   {"coalesce(path, title)", ""},
	SortAdded:  {"coalesce(changed_at, created_at)", "documents_by_added"},
	SortName:   {"title COLLATE NOCASE", "documents_by_name"},
	SortSize:   {"size", "documents_by_size"},
	SortStatus: {"CASE status WHEN 'failed' THEN 0 WHEN 'registered' THEN 1 WHEN 'analyzed' THEN 2 WHEN 'semantic' THEN 3 ELSE 4 END", "documents_by_status"},
}

// ValidDocumentSort reports whether s names a listing order ("" is the default).
func ValidDocumentSort(s string) bool {
	_, ok := documentSorts[s]
	return ok
}

// documentWhere is the WHERE clause of a listing and its arguments.
func documentWhere(f DocumentFilter) (string, []any) {
	where, args := "1=1", []any{}
	if f.Status != "" {
		where += " AND status = ?"
		args = append(args, f.Status)
	}
	if f.PathPrefix != "" {
		cond, a := pathPrefix("path", f.PathPrefix, f.FoldCase)
		where += " AND " + cond
		args = append(args, a...)
	}
	switch f.DocType {
	case "":
	case TypePending:
		where += " AND doc_type = '' AND status = 'registered'"
	case TypeOther:
		where += " AND doc_type = '' AND status != 'registered'"
	default:
		where += " AND doc_type = ?"
		args = append(args, f.DocType)
	}
	return where, args
}

// prefixEnd is the least string above every string that starts with p, byte-wise (SQLite's
// BINARY order; a path may hold bytes that are not UTF-8): p with its last byte below 0xff
// incremented. ok is false when there is none (p is all 0xff bytes).
func prefixEnd(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

// documentFrom is the FROM clause of a listing's page: an order with an index reads it from
// that index, which holds the filtered columns too, so a page walks one index at most (see
// migration 0017 for what the planner chose on its own).
func documentFrom(f DocumentFilter) string {
	if s := documentSorts[f.Sort]; s.index != "" && !f.Recent {
		return "documents INDEXED BY " + s.index
	}
	return "documents"
}

// documentOrder is the ORDER BY clause of a listing: its sort key, then the ID, both in the
// listing's direction.
func documentOrder(f DocumentFilter) string {
	if f.Recent {
		return "updated_at DESC, document_id"
	}
	dir := ""
	if f.Desc {
		dir = " DESC"
	}
	return documentSorts[f.Sort].key + dir + ", document_id" + dir
}

// ListDocuments pages through documents in f's order (by path then ID by default), with the
// number of documents f selects.
func ListDocuments(ctx context.Context, q Q, f DocumentFilter) ([]Document, int, error) {
	if !ValidDocumentSort(f.Sort) {
		return nil, 0, fmt.Errorf("list documents: unknown order %q", f.Sort)
	}
	where, args := documentWhere(f)
	var total int
	// The count is left to the planner: documents_status and documents_path answer it from
	// the index alone, faster than walking a sort's index.
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM documents WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count documents: %w", err)
	}
	page, args := documentPage(f)
	rows, err := q.QueryContext(ctx, page, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list documents: %w", err)
	}
	list, err := collectDocuments(rows)
	return list, total, err
}

// documentPage is the statement reading a page of f, and its arguments.
func documentPage(f DocumentFilter) (string, []any) {
	where, args := documentWhere(f)
	return `SELECT ` + docCols + ` FROM ` + documentFrom(f) + ` WHERE ` + where + ` ORDER BY ` + documentOrder(f) + ` LIMIT ? OFFSET ?`,
		append(args, f.Limit, f.Offset)
}

// FileDocumentsUnder lists file documents (not removed) whose path starts with prefix (a
// folder and its separator); foldCase as DocumentFilter's.
func FileDocumentsUnder(ctx context.Context, q Q, prefix string, foldCase bool) ([]Document, error) {
	cond, args := pathPrefix("path", prefix, foldCase)
	rows, err := q.QueryContext(ctx, `SELECT `+docCols+` FROM documents WHERE kind = 'file' AND status != 'removed' AND `+cond+`
		ORDER BY path`, args...)
	if err != nil {
		return nil, fmt.Errorf("documents under %s: %w", prefix, err)
	}
	return collectDocuments(rows)
}

// DocumentsByID reads several documents (missing ones are absent from the result).
func DocumentsByID(ctx context.Context, q Q, ids []string) ([]Document, error) {
	var out []Document
	err := inBatches(ids, func(part []string) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT `+docCols+` FROM documents WHERE document_id IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("documents by id: %w", err)
		}
		list, err := collectDocuments(rows)
		out = append(out, list...)
		return err
	})
	return out, err
}
