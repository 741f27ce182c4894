package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// scoped describes one kind of derived row (a derived link, an open suggestion) to
// replaceScoped: how to read the rows of a scope, what identifies one, which documents it rests
// on, when two versions are the same, and how to write and drop one.
type scoped[T any] struct {
	what  string // for errors: "derived links"
	idCol string // the column holding a row's ID (link_id, suggestion_id)
	query string // selects the scope's rows
	args  []any
	scan  func(interface{ Scan(...any) error }) (T, error)
	id    func(T) string
	docs  func(T) []string
	same  func(prev, next T) bool
	// write stores next (new, or changed from prev when had); false: it chose not to.
	write func(next, prev T, had bool) (bool, error)
	drop  func(prev T) error
	// changed hears every row written or dropped (nil: nobody listens).
	changed func(T)
}

// replaceScoped makes the rows of a scope exactly want: a row that is the same as before (and
// rests on the same documents) is not written, so running an enrichment twice writes nothing;
// a new or changed row is written with its evidence documents; a row no longer wanted is
// dropped. Rows are dropped in ID order, so the same change makes the same writes. It returns
// how many rows it wrote or dropped.
func replaceScoped[T any](ctx context.Context, q Q, s scoped[T], want []T) (int, error) {
	old, err := readScoped(ctx, q, s)
	if err != nil {
		return 0, err
	}
	if s.changed == nil {
		s.changed = func(T) {}
	}
	n := 0
	wanted := map[string]bool{}
	for _, next := range want {
		id := s.id(next)
		wanted[id] = true
		prev, had := old[id]
		if had && s.same(prev.v, next) && slices.Equal(prev.docs, dedupSorted(s.docs(next))) {
			continue
		}
		wrote, err := s.write(next, prev.v, had)
		if err != nil {
			return n, err
		}
		if !wrote {
			continue
		}
		if !had || !slices.Equal(prev.docs, dedupSorted(s.docs(next))) {
			if err := setEvidenceDocs(ctx, q, id, s.docs(next)); err != nil {
				return n, err
			}
		}
		s.changed(next)
		n++
	}
	var gone []string
	for id := range old {
		if !wanted[id] {
			gone = append(gone, id)
		}
	}
	sort.Strings(gone)
	for _, id := range gone {
		if err := s.drop(old[id].v); err != nil {
			return n, err
		}
		if _, err := q.ExecContext(ctx, `DELETE FROM derived_evidence WHERE item_id = ?`, id); err != nil {
			return n, fmt.Errorf("drop evidence of %s: %w", id, err)
		}
		s.changed(old[id].v)
		n++
	}
	return n, nil
}

// scopedRow is a row of a scope as stored, with the documents it rests on.
type scopedRow[T any] struct {
	v    T
	docs []string // sorted
}

// readScoped reads the scope's rows and, in the same query, the documents each rests on: one
// query for the scope, where a look-up per unchanged row made re-running an enrichment cost a
// read per link.
func readScoped[T any](ctx context.Context, q Q, s scoped[T]) (map[string]scopedRow[T], error) {
	rows, err := q.QueryContext(ctx, `SELECT *, (SELECT group_concat(document_id, char(31)) FROM
		(SELECT document_id FROM derived_evidence e WHERE e.item_id = x.`+s.idCol+` ORDER BY document_id)) FROM (`+s.query+`) x`, s.args...)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.what, err)
	}
	defer rows.Close()
	old := map[string]scopedRow[T]{}
	for rows.Next() {
		var docs sql.NullString
		v, err := s.scan(withExtra{rows, &docs})
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", s.what, err)
		}
		r := scopedRow[T]{v: v}
		if docs.String != "" {
			r.docs = strings.Split(docs.String, "\x1f")
		}
		old[s.id(v)] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", s.what, err)
	}
	return old, nil
}

// withExtra scans a row into a scan function's destinations plus one more column after them.
type withExtra struct {
	rows  *sql.Rows
	extra any
}

func (w withExtra) Scan(dest ...any) error { return w.rows.Scan(append(dest, w.extra)...) }
