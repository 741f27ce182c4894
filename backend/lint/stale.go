package lint

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/store"
)

// staleValues finds a field whose value was last stated long before a newer source mentions
// the same entity without restating it: the newer source may know better (the company moved,
// the person changed address) and says nothing of it. Only fields whose type declares the
// `latest` merge policy for them are looked at: that declaration is the spec saying the value
// changes over time (an address, a status), where an invoice's amount (highest_priority) is
// fixed when the invoice is issued, and a field that only falls back to the type's default
// (an invoice's customer_name) was never said to change. A value that names the entity (its name, an
// address it is known by) is restated by every mention and is skipped.
//
// The age difference is stored with the finding, so staleness_days filters when the report
// is read and changing it needs no new run.
type staleValues struct{}

func (staleValues) Name() string    { return "stale-value" }
func (staleValues) Kind() string    { return Stale }
func (staleValues) Version() string { return "4" }

// Affected: dirty entities, and the entities a dirty document observed, refers to or mentions
// (its day may have changed, and with it every age it takes part in).
func (staleValues) Affected(ctx context.Context, env Env, dirty []string) ([]string, error) {
	out, err := observedOrDirty(ctx, env, dirty)
	if err != nil {
		return nil, err
	}
	links, err := store.LintLinksFrom(ctx, env.Q, dirty)
	if err != nil {
		return nil, err
	}
	ment, err := store.LintMentionsOf(ctx, env.Q, nil, dirty)
	if err != nil {
		return nil, err
	}
	in := setOf(dirty)
	var more []string
	for _, l := range links {
		if in[l.Source] {
			more = append(more, l.Target) // what a dirty document refers to
		}
	}
	for _, m := range ment {
		more = append(more, m.EntityID)
	}
	return union(out, more), nil
}

// mention is a source that speaks of an entity, with the day it speaks for and where.
type mention struct {
	src     source
	ordinal int    // the chunk naming the entity (-1: none known)
	obs     string // the observation, when the mention is one
	w       *standing
}

func (c staleValues) Check(ctx context.Context, env Env, subjects []string) ([]Finding, error) {
	d, err := loadObserved(ctx, env, subjects)
	if err != nil {
		return nil, err
	}
	ents := make([]string, 0, len(d.entities))
	for _, e := range d.entities {
		ents = append(ents, e.EntityID)
	}
	refs, err := referringDocs(ctx, env, ents)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, e := range d.entities {
		words, err := currentWords(env, d.obs[e.EntityID], d.srcs)
		if err != nil {
			return nil, err
		}
		for _, field := range fieldsOf(words) {
			if env.Changes == nil || !env.Changes(e.EntityType, field) {
				continue
			}
			f, ok, err := c.field(ctx, env, e, words, refs[e.EntityID], field)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// names reports whether a value is one of the names the entity is known by.
func names(e store.LintEntity, v json.RawMessage) bool {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return false
	}
	k := ids.NormalizeKey(s)
	if k == ids.NormalizeKey(e.Name) {
		return true
	}
	for _, a := range e.Aliases {
		if k == ids.NormalizeKey(a) {
			return true
		}
	}
	return false
}

func (staleValues) field(ctx context.Context, env Env, e store.LintEntity, words []standing, docRefs []mention, field string) (Finding, bool, error) {
	shownID := e.Provenance[field]
	var shown *standing
	restated := ""
	var mentions []mention
	seen := map[string]bool{}
	for i := range words {
		w := &words[i]
		seen[w.src.key] = true
		v, ok := w.fields[field]
		if ok && string(v) != "null" {
			if w.src.day > restated {
				restated = w.src.day
			}
			if w.obs.ObservationID == shownID {
				shown = w
			}
			continue
		}
		mentions = append(mentions, mention{src: w.src.source, ordinal: -1, obs: w.obs.ObservationID, w: w})
	}
	if shown == nil || restated == "" || names(e, shown.fields[field]) {
		return Finding{}, false, nil
	}
	for _, m := range docRefs {
		if !seen[m.src.key] {
			mentions = append(mentions, m)
		}
	}
	// The newest mention that does not restate the field; ties by source key.
	var newest *mention
	for i := range mentions {
		m := &mentions[i]
		if m.src.day == "" {
			continue
		}
		if newest == nil || m.src.day > newest.src.day || (m.src.day == newest.src.day && m.src.key < newest.src.key) {
			newest = m
		}
	}
	if newest == nil {
		return Finding{}, false, nil
	}
	gap, ok := daysBetween(restated, newest.src.day)
	if !ok || gap < 1 {
		return Finding{}, false, nil
	}
	v := shown.fields[field]
	f := newFinding(Stale, Medium, ScopeEntities, e.EntityID, e.EntityID, field)
	f.EntityID, f.EntityName, f.Field, f.gapDays = e.EntityID, e.Name, field, gap
	old, err := evidenceOf(ctx, env, *shown, renderings(v))
	if err != nil {
		return Finding{}, false, err
	}
	old.Date = shown.src.day
	var later Evidence
	switch {
	case newest.w != nil:
		later, err = evidenceOf(ctx, env, *newest.w, append([]string{e.Name}, e.Aliases...))
	case newest.src.doc != nil:
		later, err = mentionEvidence(ctx, env, newest.src.doc, newest.ordinal, append([]string{e.Name}, e.Aliases...))
	}
	if err != nil {
		return Finding{}, false, err
	}
	later.Date = newest.src.day
	f.Values = []Value{{Value: v, Shown: true, ObservationID: shown.obs.ObservationID, ObservedAt: shown.obs.ObservedAt, Source: old}}
	f.Evidence = []Evidence{old, later}
	f.DocumentIDs = docsOf(old, later)
	f.Title = fmt.Sprintf("%s's %s %s was last stated on %s (%s); %s, %d days newer, mentions %s without it",
		e.Name, field, display(v), restated, where(old), sourceName(newest.src), gap, e.Name)
	f.Hint = fmt.Sprintf("Check whether %s is still right: restate it in a newer source, or correct it there; the newer source may say more.", field)
	for _, ev := range f.Evidence {
		if ev.DocumentID != "" {
			f.Fixes = append(f.Fixes, openFix(ev))
		}
	}
	if shown.src.doc != nil {
		f.refs = append(f.refs, shown.src.doc.EntityID)
	}
	if newest.src.doc != nil {
		f.refs = append(f.refs, newest.src.doc.EntityID)
	}
	slices.Sort(f.refs)
	f.refs = slices.Compact(f.refs)
	return f, true, nil
}

// referringDocs lists, per entity, the live documents that link to it (asserted or derived) or
// name it in their text, each once, with the first chunk naming it.
func referringDocs(ctx context.Context, env Env, ents []string) (map[string][]mention, error) {
	out := map[string][]mention{}
	if len(ents) == 0 {
		return out, nil
	}
	links, err := linksOf(ctx, env, ents, nil)
	if err != nil {
		return nil, err
	}
	ment, err := store.LintMentionsOf(ctx, env.Q, ents, nil)
	if err != nil {
		return nil, err
	}
	want := setOf(ents)
	type ref struct {
		entity, docEntity, docID string
		ordinal                  int
	}
	var refs []ref
	var docEnts, docIDs []string
	for _, l := range links {
		if want[l.Target] {
			refs = append(refs, ref{entity: l.Target, docEntity: l.Source, ordinal: -1})
			docEnts = append(docEnts, l.Source)
		}
	}
	for _, m := range ment {
		refs = append(refs, ref{entity: m.EntityID, docID: m.DocumentID, ordinal: m.Ordinal})
		docIDs = append(docIDs, m.DocumentID)
	}
	byEnt := map[string]*store.LintDoc{}
	byID := map[string]*store.LintDoc{}
	if len(docEnts) > 0 {
		list, err := docsByEntity(ctx, env, union(docEnts))
		if err != nil {
			return nil, err
		}
		for i := range list {
			byEnt[list[i].EntityID], byID[list[i].DocumentID] = &list[i], &list[i]
		}
	}
	if len(docIDs) > 0 {
		list, err := docsByID(ctx, env, union(docIDs))
		if err != nil {
			return nil, err
		}
		for i := range list {
			byID[list[i].DocumentID] = &list[i]
		}
	}
	seen := map[[2]string]int{}
	for _, r := range refs {
		d := byEnt[r.docEntity]
		if r.docID != "" {
			d = byID[r.docID]
		}
		if !live(env, d) {
			continue
		}
		k := [2]string{r.entity, d.DocumentID}
		if i, ok := seen[k]; ok {
			if out[r.entity][i].ordinal < 0 && r.ordinal >= 0 {
				out[r.entity][i].ordinal = r.ordinal
			}
			continue
		}
		seen[k] = len(out[r.entity])
		out[r.entity] = append(out[r.entity], mention{src: source{key: "doc:" + d.DocumentID, doc: d, day: docDay(d)}, ordinal: r.ordinal})
	}
	return out, nil
}

// mentionEvidence is where a document names an entity: the line of the chunk (or, with no
// chunk known, of the document) holding one of its names.
func mentionEvidence(ctx context.Context, env Env, d *store.LintDoc, ordinal int, want []string) (Evidence, error) {
	if ordinal < 0 {
		return docEvidence(ctx, env, d, span{}, want)
	}
	c, err := store.ChunkLines(ctx, env.Q, d.DocumentID, ordinal)
	if err != nil {
		if err == store.ErrNotFound {
			return docEvidence(ctx, env, d, span{}, want)
		}
		return Evidence{}, err
	}
	return docEvidence(ctx, env, d, span{Line: c.LineStart}, want)
}

// staleVersions finds a document that has a newer version of itself in the store: a near-
// duplicate (EmbeddingSimilarity's DUPLICATE_OF: most 3-word shingles shared both ways) of the
// same format with other bytes, whose day is later. A copy with the same bytes is a copy, not a
// version; an export to another format is the same text, not a newer one. A SUPERSEDES or
// CORRECTS link between the two (either way) says a person has seen it.
//
// Which one is newer must be something the documents say: the day each is about (its front
// matter's date, a date at its top) when both have one and they differ, else a modification
// time at least a day later. Two files written a moment apart (a checkout, a copy of a folder)
// are not a version and its update: without a day between them nothing tells which is which.
type staleVersions struct{}

func (staleVersions) Name() string    { return "stale-version" }
func (staleVersions) Kind() string    { return Stale }
func (staleVersions) Version() string { return "4" }

// Affected: dirty documents and the documents a dirty one is a near-duplicate of (or of which).
func (staleVersions) Affected(ctx context.Context, env Env, dirty []string) ([]string, error) {
	links, err := linksOf(ctx, env, dirty, []string{"DUPLICATE_OF"})
	if err != nil {
		return nil, err
	}
	more := []string{}
	for _, l := range links {
		more = append(more, l.Source, l.Target)
	}
	return union(dirty, more), nil
}

func (staleVersions) Check(ctx context.Context, env Env, subjects []string) ([]Finding, error) {
	links, err := linksOf(ctx, env, subjects, []string{"DUPLICATE_OF", "SUPERSEDES", "CORRECTS"})
	if err != nil {
		return nil, err
	}
	seenBy := map[[2]string]bool{}
	var pairs [][2]string
	var ends []string
	for _, l := range links {
		if l.Derived && l.Type == "DUPLICATE_OF" {
			pairs = append(pairs, [2]string{l.Source, l.Target})
			ends = append(ends, l.Source, l.Target)
		} else if !l.Derived {
			seenBy[[2]string{l.Source, l.Target}], seenBy[[2]string{l.Target, l.Source}] = true, true
		}
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	list, err := docsByEntity(ctx, env, union(ends))
	if err != nil {
		return nil, err
	}
	docs := map[string]*store.LintDoc{}
	for i := range list {
		docs[list[i].EntityID] = &list[i]
	}
	want := setOf(subjects)
	var out []Finding
	done := map[[2]string]bool{}
	for _, p := range pairs {
		a, b := docs[p[0]], docs[p[1]]
		if !settled(env, a) || !settled(env, b) || a.ContentHash == b.ContentHash || a.Mime != b.Mime || seenBy[p] || !sameDocument(a, b) {
			continue
		}
		older, newer, ok := newerOf(a, b)
		if !ok {
			continue // nothing says which is newer
		}
		k := [2]string{older.EntityID, newer.EntityID}
		if done[k] || !want.has(older.EntityID) {
			continue
		}
		done[k] = true
		f := newFinding(Stale, Medium, ScopeDocuments, older.EntityID, "version", older.EntityID, newer.EntityID)
		f.EntityID, f.EntityName = older.EntityID, docName(older)
		oe := Evidence{DocumentID: older.DocumentID, EntityID: older.EntityID, Path: older.Path, Title: older.Title, Date: docDay(older)}
		ne := Evidence{DocumentID: newer.DocumentID, EntityID: newer.EntityID, Path: newer.Path, Title: newer.Title, Date: docDay(newer)}
		f.Evidence = []Evidence{oe, ne}
		f.DocumentIDs = docsOf(oe, ne)
		when := "dated " + ne.Date
		if gap, ok := daysBetween(oe.Date, ne.Date); ok && gap > 0 {
			when = fmt.Sprintf("dated %s, %d days newer", ne.Date, gap)
		}
		f.Title = fmt.Sprintf("%s has a newer version: %s (%s)", docName(older), docName(newer), when)
		f.Hint = fmt.Sprintf("Both are searchable and both count as sources. If %s replaces %s, mark it as superseding (a SUPERSEDES link); or remove the old version.",
			docName(newer), docName(older))
		f.Fixes = []Fix{openFix(oe), openFix(ne), {Action: "create_relationship", RelationshipType: "SUPERSEDES",
			Label:          fmt.Sprintf("Mark %s as superseding %s", docName(newer), docName(older)),
			SourceEntityID: newer.EntityID, TargetEntityID: older.EntityID}}
		f.refs = []string{newer.EntityID}
		out = append(out, f)
	}
	return out, nil
}

// sameDocument reports whether two near-duplicates are one document: they sit in one folder
// (report.md and report-v2.md), or carry one title of their own (not their file name). Two
// packages' copyright files hold the same licence word for word, in folders of their own, with
// no title or another: they are two documents that quote one text, not a version and its update
// (39 such pairs among 600 files of /usr/share/doc before this rule).
func sameDocument(a, b *store.LintDoc) bool {
	if a.Path != "" && b.Path != "" && filepath.Dir(a.Path) == filepath.Dir(b.Path) {
		return true
	}
	ta, tb := ids.NormalizeKey(a.Title), ids.NormalizeKey(b.Title)
	return ta != "" && ta == tb && ta != ids.NormalizeKey(filepath.Base(a.Path)) && ta != ids.NormalizeKey(filepath.Base(b.Path))
}

// newerOf orders two versions of a document: older first; ok is false when nothing says which
// is newer.
func newerOf(a, b *store.LintDoc) (older, newer *store.LintDoc, ok bool) {
	if a.Day != "" && b.Day != "" && a.Day != b.Day {
		if a.Day < b.Day {
			return a, b, true
		}
		return b, a, true
	}
	ta, err1 := time.Parse(time.RFC3339Nano, a.Mtime)
	tb, err2 := time.Parse(time.RFC3339Nano, b.Mtime)
	switch {
	case err1 != nil || err2 != nil:
		return nil, nil, false
	case tb.Sub(ta) >= 24*time.Hour:
		return a, b, true
	case ta.Sub(tb) >= 24*time.Hour:
		return b, a, true
	}
	return nil, nil, false
}
