package lint

import (
	"context"
	"slices"

	"github.com/strata-app/strata/backend/store"
)

// memo keeps what a full run reads of the whole store, read once for all checks: every check
// of a full run looks at every link, entity and document, and reading them six times was most
// of a run's time. Mentions are not kept: most are a known concept's name in passing (187,000
// of 199,000 rows at 10,000 notes), which only missing_link reads, and only for a few concepts;
// each check asks for the few it needs. A run after the first reads only what its subjects need and uses
// no memo.
type memo struct {
	links    []store.LintLink
	entities []store.LintEntity
	docs     []store.LintDoc
	byID     map[string]*store.LintDoc
	byEntity map[string]*store.LintDoc
	observed *observedData
	loaded   map[string]bool
}

func newMemo() *memo { return &memo{loaded: map[string]bool{}} }

// linksOf is store.LintLinksOf, from the memo when ids is nil.
func linksOf(ctx context.Context, env Env, ids, types []string) ([]store.LintLink, error) {
	m := env.memo
	if ids != nil || m == nil {
		return store.LintLinksOf(ctx, env.Q, ids, types)
	}
	if !m.loaded["links"] {
		all, err := store.LintLinksOf(ctx, env.Q, nil, nil)
		if err != nil {
			return nil, err
		}
		m.links, m.loaded["links"] = all, true
	}
	if types == nil {
		return m.links, nil
	}
	var out []store.LintLink
	for _, l := range m.links {
		if slices.Contains(types, l.Type) {
			out = append(out, l)
		}
	}
	return out, nil
}

// entitiesOf is store.LintEntities, from the memo when ids is nil.
func entitiesOf(ctx context.Context, env Env, ids, types []string) ([]store.LintEntity, error) {
	m := env.memo
	if ids != nil || m == nil {
		return store.LintEntities(ctx, env.Q, ids, types)
	}
	if !m.loaded["entities"] {
		all, err := store.LintEntities(ctx, env.Q, nil, nil)
		if err != nil {
			return nil, err
		}
		m.entities, m.loaded["entities"] = all, true
	}
	if types == nil {
		return m.entities, nil
	}
	var out []store.LintEntity
	for _, e := range m.entities {
		if slices.Contains(types, e.EntityType) {
			out = append(out, e)
		}
	}
	return out, nil
}

func (m *memo) loadDocs(ctx context.Context, env Env) error {
	if m.loaded["docs"] {
		return nil
	}
	all, err := store.LintDocsByID(ctx, env.Q, nil)
	if err != nil {
		return err
	}
	m.docs, m.byID, m.byEntity = all, map[string]*store.LintDoc{}, map[string]*store.LintDoc{}
	for i := range m.docs {
		d := &m.docs[i]
		m.byID[d.DocumentID] = d
		if d.EntityID != "" {
			m.byEntity[d.EntityID] = d
		}
	}
	m.loaded["docs"] = true
	return nil
}

// docsByEntity is store.LintDocsByEntity (nil: every document with an entity), from the memo
// in a full run.
func docsByEntity(ctx context.Context, env Env, ids []string) ([]store.LintDoc, error) {
	m := env.memo
	if m == nil {
		return store.LintDocsByEntity(ctx, env.Q, ids)
	}
	if err := m.loadDocs(ctx, env); err != nil {
		return nil, err
	}
	var out []store.LintDoc
	if ids == nil {
		for _, d := range m.docs {
			if d.EntityID != "" {
				out = append(out, d)
			}
		}
		return out, nil
	}
	for _, id := range ids {
		if d := m.byEntity[id]; d != nil {
			out = append(out, *d)
		}
	}
	slices.SortFunc(out, func(a, b store.LintDoc) int { return compareStrings(a.DocumentID, b.DocumentID) })
	return out, nil
}

// docsByID is store.LintDocsByID, from the memo in a full run.
func docsByID(ctx context.Context, env Env, ids []string) ([]store.LintDoc, error) {
	m := env.memo
	if m == nil {
		return store.LintDocsByID(ctx, env.Q, ids)
	}
	if err := m.loadDocs(ctx, env); err != nil {
		return nil, err
	}
	if ids == nil {
		return m.docs, nil
	}
	var out []store.LintDoc
	for _, id := range ids {
		if d := m.byID[id]; d != nil {
			out = append(out, *d)
		}
	}
	slices.SortFunc(out, func(a, b store.LintDoc) int { return compareStrings(a.DocumentID, b.DocumentID) })
	return out, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
