package store

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// BridgeCounts reads, for each of ids, how many mention rows make it a known concept (a tag,
// hashtag, keyword or heading: concept_bridges, migration 0018); an ID with none is absent.
func BridgeCounts(ctx context.Context, q Q, ids []string) (map[string]int, error) {
	out := map[string]int{}
	err := inBatches(ids, func(part []string) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT entity_id, rows FROM concept_bridges WHERE entity_id IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("read concept bridges: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				return fmt.Errorf("scan concept bridge: %w", err)
			}
			out[id] = n
		}
		return rows.Err()
	})
	return out, err
}

// KnownConcepts maps the identity key of every concept the store knows (concept_bridges) to
// its entity ID.
func KnownConcepts(ctx context.Context, q Q) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT e.identity_key, e.entity_id FROM concept_bridges b
		JOIN entities e ON e.entity_id = b.entity_id AND e.entity_type = 'concept' WHERE b.rows > 0`)
	if err != nil {
		return nil, fmt.Errorf("read known concepts: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, id string
		if err := rows.Scan(&k, &id); err != nil {
			return nil, fmt.Errorf("scan known concept: %w", err)
		}
		out[k] = id
	}
	return out, rows.Err()
}

// UpgradeToText writes text mention rows; where the same entity, document and chunk has a row
// of source from (a heading naming it there), that row gives way to the text's.
func UpgradeToText(ctx context.Context, q Q, rows []Mention, from string) error {
	err := inBatches(rows, func(part []Mention) error {
		var w []string
		args := []any{from}
		for _, m := range part {
			w = append(w, "(entity_id = ? AND document_id = ? AND ordinal = ?)")
			args = append(args, m.EntityID, m.DocumentID, m.Ordinal)
		}
		if _, err := q.ExecContext(ctx, `DELETE FROM entity_mentions WHERE source = ? AND (`+strings.Join(w, " OR ")+`)`, args...); err != nil {
			return fmt.Errorf("replace heading mentions: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return InsertMentions(ctx, q, rows)
}

// LowerNames sets each entity's canonical name (pairs of entity ID and name) where the name
// given is smaller than the stored one: the name shown is the smallest spelling any source
// used, the same whatever order they arrived in.
func LowerNames(ctx context.Context, q Q, names [][2]string) error {
	return inBatches(names, func(part [][2]string) error {
		args := make([]any, 0, 2*len(part))
		for _, n := range part {
			args = append(args, n[0], n[1])
		}
		_, err := q.ExecContext(ctx, `UPDATE entities SET canonical_name = v.column2 FROM (VALUES `+placeholders(len(part), 2)+`) v
			WHERE entities.entity_id = v.column1 AND entities.canonical_name > v.column2`, args...)
		if err != nil {
			return fmt.Errorf("name entities: %w", err)
		}
		return nil
	})
}

// HeadingTerms are a document's heading terms in its folder (heading_terms, migration 0018).
type HeadingTerms struct {
	Folder string
	Terms  []string // sorted
}

// HeadingTermsOf reads a document's heading terms ("" folder: none).
func HeadingTermsOf(ctx context.Context, q Q, documentID string) (HeadingTerms, error) {
	rows, err := q.QueryContext(ctx, `SELECT folder, term FROM heading_terms WHERE document_id = ? ORDER BY folder, term`, documentID)
	if err != nil {
		return HeadingTerms{}, fmt.Errorf("read heading terms: %w", err)
	}
	defer rows.Close()
	var out HeadingTerms
	for rows.Next() {
		var f, t string
		if err := rows.Scan(&f, &t); err != nil {
			return HeadingTerms{}, fmt.Errorf("scan heading term: %w", err)
		}
		out.Folder = f
		if t != "" {
			out.Terms = append(out.Terms, t)
		}
	}
	return out, rows.Err()
}

// ReplaceHeadingTerms makes a document's heading terms terms, in folder (with the row ” that
// counts the document in its folder's documents with headings); none, or folder "", removes
// them.
func ReplaceHeadingTerms(ctx context.Context, q Q, documentID, folder string, terms []string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM heading_terms WHERE document_id = ?`, documentID); err != nil {
		return fmt.Errorf("replace heading terms: %w", err)
	}
	if folder == "" || len(terms) == 0 {
		return nil
	}
	all := append([]string{""}, terms...)
	return inBatches(all, func(part []string) error {
		args := make([]any, 0, 3*len(part))
		for _, t := range part {
			args = append(args, folder, t, documentID)
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO heading_terms(folder, term, document_id) VALUES `+placeholders(len(part), 3)+`
			ON CONFLICT DO NOTHING`, args...); err != nil {
			return fmt.Errorf("write heading terms: %w", err)
		}
		return nil
	})
}

// HeadingTermCounts reads how many documents of folder carry each of terms as a heading ("":
// the folder's documents with any heading); a term none carries is absent.
func HeadingTermCounts(ctx context.Context, q Q, folder string, terms []string) (map[string]int, error) {
	out := map[string]int{}
	err := inBatches(terms, func(part []string) error {
		args := []any{folder}
		for _, t := range part {
			args = append(args, t)
		}
		rows, err := q.QueryContext(ctx, `SELECT term, documents FROM heading_term_counts WHERE folder = ? AND term IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("read heading term counts: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var t string
			var n int
			if err := rows.Scan(&t, &n); err != nil {
				return fmt.Errorf("scan heading term count: %w", err)
			}
			out[t] = n
		}
		return rows.Err()
	})
	return out, err
}

// HeadingTermsInBand lists the terms of folder carried by lo..hi documents.
func HeadingTermsInBand(ctx context.Context, q Q, folder string, lo, hi int) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT term FROM heading_term_counts WHERE folder = ? AND documents BETWEEN ? AND ? ORDER BY term`, folder, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("read heading terms: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("scan heading term: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// EnqueueEnrichHeading queues again the enrich job of every live document of folder that carries
// one of terms as a heading, but exceptDoc (whose job is running); it returns how many.
func EnqueueEnrichHeading(ctx context.Context, q Q, folder string, terms []string, exceptDoc, now string) (int, error) {
	sort.Strings(terms)
	n := 0
	err := inBatches(terms, func(part []string) error {
		args := []any{now, now, now, folder}
		for _, t := range part {
			args = append(args, t)
		}
		args = append(args, exceptDoc)
		res, err := q.ExecContext(ctx, `INSERT INTO jobs(document_id, payload_id, phase, state, not_before, created_at, updated_at)
			SELECT DISTINCT h.document_id, coalesce(d.payload_id, ''), 'enrich', 'queued', ?, ?, ? FROM heading_terms h
			JOIN documents d ON d.document_id = h.document_id AND d.status IN ('analyzed', 'semantic')
			WHERE h.folder = ? AND h.term IN (`+qmarks(len(part))+`) AND h.document_id <> ?
			ON CONFLICT(document_id, phase, payload_id) DO UPDATE SET
				state = 'queued', attempts = 0, not_before = excluded.not_before, error = NULL,
				lease_owner = NULL, lease_until = NULL, updated_at = excluded.updated_at
			WHERE jobs.state NOT IN ('queued', 'running')`, args...)
		if err != nil {
			return fmt.Errorf("queue enrich jobs of a series: %w", err)
		}
		k, _ := res.RowsAffected()
		n += int(k)
		return nil
	})
	return n, err
}

// DerivedTargets lists the targets of source's derived links of one enrichment and type.
func DerivedTargets(ctx context.Context, q Q, source, enrichment, typ string) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT target_entity_id FROM derived_links WHERE source_entity_id = ? AND relationship_type = ? AND +enrichment = ?`,
		source, typ, enrichment)
	if err != nil {
		return nil, fmt.Errorf("read derived links of %s: %w", source, err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("scan derived link: %w", err)
		}
		out[t] = true
	}
	return out, rows.Err()
}
