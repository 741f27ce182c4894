package store

import (
	"context"
	"fmt"
	"sort"
)

// scoped describes one kind of derived row (a derived link, an open suggestion) to
// replaceScoped: how to read the rows of a scope, what identifies one, which documents it rests
// on, when two versions are the same, and how to write and drop one.
type scoped[T any] struct {
	what  string // for errors: "derived links"
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
		if had && s.same(prev, next) {
			same, err := sameEvidenceDocs(ctx, q, id, s.docs(next))
			if err != nil {
				return n, err
			}
			if same {
				continue
			}
		}
		wrote, err := s.write(next, prev, had)
		if err != nil {
			return n, err
		}
		if !wrote {
			continue
		}
		if err := setEvidenceDocs(ctx, q, id, s.docs(next)); err != nil {
			return n, err
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
		if err := s.drop(old[id]); err != nil {
			return n, err
		}
		if _, err := q.ExecContext(ctx, `DELETE FROM derived_evidence WHERE item_id = ?`, id); err != nil {
			return n, fmt.Errorf("drop evidence of %s: %w", id, err)
		}
		s.changed(old[id])
		n++
	}
	return n, nil
}

func readScoped[T any](ctx context.Context, q Q, s scoped[T]) (map[string]T, error) {
	rows, err := q.QueryContext(ctx, s.query, s.args...)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.what, err)
	}
	defer rows.Close()
	old := map[string]T{}
	for rows.Next() {
		v, err := s.scan(rows)
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", s.what, err)
		}
		old[s.id(v)] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", s.what, err)
	}
	return old, nil
}
