package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// DocName is one name a document uses (doc_names, migration 0018).
type DocName struct {
	Name       string
	DocumentID string
	Shown      string
	Lines      []uint64
}

func encodeLines(ls []uint64) string {
	s := make([]string, len(ls))
	for i, h := range ls {
		s[i] = strconv.FormatUint(h, 10)
	}
	b, _ := json.Marshal(s) // strings only
	return string(b)
}

func decodeLines(raw string) []uint64 {
	var s []string
	_ = json.Unmarshal([]byte(raw), &s) // written by encodeLines
	out := make([]uint64, 0, len(s))
	for _, v := range s {
		if h, err := strconv.ParseUint(v, 10, 64); err == nil {
			out = append(out, h)
		}
	}
	return out
}

func scanNames(ctx context.Context, q Q, query string, args ...any) ([]DocName, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read document names: %w", err)
	}
	defer rows.Close()
	var out []DocName
	for rows.Next() {
		var n DocName
		var lines string
		if err := rows.Scan(&n.Name, &n.DocumentID, &n.Shown, &lines); err != nil {
			return nil, fmt.Errorf("scan document name: %w", err)
		}
		n.Lines = decodeLines(lines)
		out = append(out, n)
	}
	return out, rows.Err()
}

// NamesOf reads a document's names, by name.
func NamesOf(ctx context.Context, q Q, documentID string) ([]DocName, error) {
	return scanNames(ctx, q, `SELECT name, document_id, shown, lines FROM doc_names WHERE document_id = ? ORDER BY name`, documentID)
}

// ReplaceNames makes a document's names names.
func ReplaceNames(ctx context.Context, q Q, documentID string, names []DocName) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM doc_names WHERE document_id = ?`, documentID); err != nil {
		return fmt.Errorf("replace document names: %w", err)
	}
	return inBatches(names, func(part []DocName) error {
		args := make([]any, 0, 4*len(part))
		for _, n := range part {
			args = append(args, n.Name, documentID, n.Shown, encodeLines(n.Lines))
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO doc_names(name, document_id, shown, lines) VALUES `+placeholders(len(part), 4), args...); err != nil {
			return fmt.Errorf("write document names: %w", err)
		}
		return nil
	})
}

// NameCounts reads how many documents use each of names; a name none uses is absent.
func NameCounts(ctx context.Context, q Q, names []string) (map[string]int, error) {
	out := map[string]int{}
	err := inBatches(names, func(part []string) error {
		args := make([]any, len(part))
		for i, n := range part {
			args[i] = n
		}
		rows, err := q.QueryContext(ctx, `SELECT name, documents FROM name_counts WHERE name IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("read name counts: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var n string
			var c int
			if err := rows.Scan(&n, &c); err != nil {
				return fmt.Errorf("scan name count: %w", err)
			}
			out[n] = c
		}
		return rows.Err()
	})
	return out, err
}

// NameUsers reads the rows of every document but exceptDoc that uses one of names, by name
// and document.
func NameUsers(ctx context.Context, q Q, names []string, exceptDoc string) ([]DocName, error) {
	var out []DocName
	err := inBatches(names, func(part []string) error {
		args := make([]any, 0, len(part)+1)
		for _, n := range part {
			args = append(args, n)
		}
		args = append(args, exceptDoc)
		list, err := scanNames(ctx, q, `SELECT name, document_id, shown, lines FROM doc_names WHERE name IN (`+qmarks(len(part))+`)
			AND document_id <> ? ORDER BY name, document_id`, args...)
		out = append(out, list...)
		return err
	})
	return out, err
}

// GapCandidate is a pair of documents DiscoveryGap found related (A < B), with its score.
type GapCandidate struct {
	A, B  string
	Score float64
}

// GapCandidatesOf reads the candidate pairs with an end at document, best first (ties by the
// other end's ID), at most limit (0: all).
func GapCandidatesOf(ctx context.Context, q Q, document string, limit int) ([]GapCandidate, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := q.QueryContext(ctx, `SELECT a, b, score FROM (SELECT a, b, score, b AS other FROM gap_candidates WHERE a = ?
		UNION ALL SELECT a, b, score, a AS other FROM gap_candidates WHERE b = ?) ORDER BY score DESC, other LIMIT ?`, document, document, limit)
	if err != nil {
		return nil, fmt.Errorf("read gap candidates: %w", err)
	}
	defer rows.Close()
	var out []GapCandidate
	for rows.Next() {
		var c GapCandidate
		if err := rows.Scan(&c.A, &c.B, &c.Score); err != nil {
			return nil, fmt.Errorf("scan gap candidate: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ReplaceGapCandidates makes the candidate pairs with an end at document exactly list.
func ReplaceGapCandidates(ctx context.Context, q Q, document string, list []GapCandidate) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM gap_candidates WHERE a = ?`, document); err != nil {
		return fmt.Errorf("replace gap candidates: %w", err)
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM gap_candidates WHERE b = ?`, document); err != nil {
		return fmt.Errorf("replace gap candidates: %w", err)
	}
	return inBatches(list, func(part []GapCandidate) error {
		args := make([]any, 0, 3*len(part))
		for _, c := range part {
			args = append(args, c.A, c.B, c.Score)
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO gap_candidates(a, b, score) VALUES `+placeholders(len(part), 3)+`
			ON CONFLICT(a, b) DO UPDATE SET score = excluded.score`, args...); err != nil {
			return fmt.Errorf("write gap candidates: %w", err)
		}
		return nil
	})
}

// DocVectorsOf reads the live vectors of documents in space, by document ID.
func DocVectorsOf(ctx context.Context, q Q, space string, docs []string) (map[string][]float32, error) {
	out := map[string][]float32{}
	err := inBatches(docs, func(part []string) error {
		args := []any{space}
		for _, d := range part {
			args = append(args, d)
		}
		rows, err := q.QueryContext(ctx, `SELECT document_id, vector FROM doc_vectors WHERE space = ? AND document_id IN (`+qmarks(len(part))+`)
			AND vector IS NOT NULL`, args...)
		if err != nil {
			return fmt.Errorf("read document vectors: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var d string
			var b []byte
			if err := rows.Scan(&d, &b); err != nil {
				return fmt.Errorf("scan document vector: %w", err)
			}
			out[d] = DecodeVector(b)
		}
		return rows.Err()
	})
	return out, err
}

// DocumentsOfEntities lists, sorted, the documents whose entities are among ids.
func DocumentsOfEntities(ctx context.Context, q Q, ids []string) ([]string, error) {
	var out []string
	err := inBatches(ids, func(part []string) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT document_id FROM documents WHERE entity_id IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("read documents of entities: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var d string
			if err := rows.Scan(&d); err != nil {
				return fmt.Errorf("scan document: %w", err)
			}
			out = append(out, d)
		}
		return rows.Err()
	})
	sort.Strings(out)
	return out, err
}

// JoinedTo reports which of others an asserted relationship (any type, either direction) or a
// derived link of one of types joins to entity.
func JoinedTo(ctx context.Context, q Q, entity string, others []string, types []string) (map[string]bool, error) {
	out := map[string]bool{}
	err := inBatches(others, func(part []string) error {
		ph := qmarks(len(part))
		args := []any{entity}
		for _, o := range part {
			args = append(args, o)
		}
		args = append(args, entity)
		for _, o := range part {
			args = append(args, o)
		}
		query := `SELECT target_entity_id FROM relationships WHERE source_entity_id = ? AND target_entity_id IN (` + ph + `)
			UNION SELECT source_entity_id FROM relationships WHERE target_entity_id = ? AND source_entity_id IN (` + ph + `)`
		all := append([]any{}, args...)
		if len(types) > 0 {
			tp := qmarks(len(types))
			query += ` UNION SELECT target_entity_id FROM derived_links WHERE source_entity_id = ? AND target_entity_id IN (` + ph + `) AND relationship_type IN (` + tp + `)
				UNION SELECT source_entity_id FROM derived_links WHERE target_entity_id = ? AND source_entity_id IN (` + ph + `) AND relationship_type IN (` + tp + `)`
			one := []any{entity}
			for _, o := range part {
				one = append(one, o)
			}
			for _, t := range types {
				one = append(one, t)
			}
			all = append(all, one...)
			all = append(all, one...)
		}
		rows, err := q.QueryContext(ctx, query, all...)
		if err != nil {
			return fmt.Errorf("read links between entities: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("scan linked entity: %w", err)
			}
			out[id] = true
		}
		return rows.Err()
	})
	return out, err
}

// FirstChunkWith reads the first chunk of a document (by ordinal) whose text holds needle, in
// any case; ErrNotFound if none does.
func FirstChunkWith(ctx context.Context, q Q, documentID, needle string) (Chunk, error) {
	list, err := scanChunks(ctx, q, `SELECT `+chunkCols+` FROM chunks WHERE document_id = ? AND instr(lower(text), lower(?)) > 0 ORDER BY ordinal LIMIT 1`, documentID, needle)
	if err != nil {
		return Chunk{}, fmt.Errorf("read chunk with %q: %w", needle, err)
	}
	if len(list) == 0 {
		return Chunk{}, ErrNotFound
	}
	return list[0], nil
}
