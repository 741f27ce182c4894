package lint

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-app/strata/backend/store"
)

// notObserved are the entity types whose fields lint does not compare: a document's fields are
// about itself (one source: the document), and a concept's only field is its name.
var notObserved = []string{"document", "concept"}

// correcting are the asserted link types that say one source replaces another's word.
var correcting = []string{"CORRECTS", "SUPERSEDES"}

// contradictions finds one entity field given different values by sources whose word still
// stands: two documents (or agents) that disagree today. The merge policy picks the value the
// snapshot shows, but that does not make the disagreement go away; only a CORRECTS or
// SUPERSEDES link between the two documents, or a newer version of the same source, explains
// it. Lists (union fields) gather values instead of choosing one and cannot contradict.
type contradictions struct{}

func (contradictions) Name() string    { return "contradiction" }
func (contradictions) Kind() string    { return Contradiction }
func (contradictions) Version() string { return "4" }

// Affected: an entity whose observations changed, and the entities observed by a document that
// changed (a new version, removed, linked as correcting another).
func (contradictions) Affected(ctx context.Context, env Env, dirty []string) ([]string, error) {
	return observedOrDirty(ctx, env, dirty)
}

// observedOrDirty is the dirty entities and every entity a dirty document observed.
func observedOrDirty(ctx context.Context, env Env, dirty []string) ([]string, error) {
	observed, err := store.ObservedBy(ctx, env.Q, dirty)
	if err != nil {
		return nil, err
	}
	return union(dirty, observed), nil
}

// observedData is what the entity-field checks read: the subjects' observations by entity,
// their documents, their entities with snapshot provenance, and the correcting links between
// documents.
type observedData struct {
	obs      map[string][]store.LintObservation
	srcs     *sources
	entities []store.LintEntity
	corrects map[[2]string]bool // {source document entity, target document entity}
}

func loadObserved(ctx context.Context, env Env, subjects []string) (*observedData, error) {
	if subjects == nil && env.memo != nil && env.memo.observed != nil {
		return env.memo.observed, nil
	}
	d, err := readObserved(ctx, env, subjects)
	if err == nil && subjects == nil && env.memo != nil {
		env.memo.observed = d
	}
	return d, err
}

func readObserved(ctx context.Context, env Env, subjects []string) (*observedData, error) {
	list, err := store.LintObservations(ctx, env.Q, subjects, notObserved)
	if err != nil {
		return nil, err
	}
	d := &observedData{obs: byEntity(list), corrects: map[[2]string]bool{}}
	if d.srcs, err = loadSources(ctx, env, list); err != nil {
		return nil, err
	}
	ents := make([]string, 0, len(d.obs))
	for id := range d.obs {
		ents = append(ents, id)
	}
	slices.Sort(ents)
	if d.entities, err = entitiesOf(ctx, env, ents, nil); err != nil {
		return nil, err
	}
	links, err := store.AssertedLinksOfType(ctx, env.Q, correcting)
	if err != nil {
		return nil, err
	}
	for _, l := range links {
		d.corrects[[2]string{l.Source, l.Target}] = true
	}
	return d, nil
}

// fieldsOf lists the fields the standing words give, sorted.
func fieldsOf(words []standing) []string {
	var out []string
	for _, w := range words {
		for f := range w.fields {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return out
}

func (c contradictions) Check(ctx context.Context, env Env, subjects []string) ([]Finding, error) {
	d, err := loadObserved(ctx, env, subjects)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, e := range d.entities {
		words, err := currentWords(env, d.obs[e.EntityID], d.srcs)
		if err != nil {
			return nil, err
		}
		if len(words) < 2 {
			continue
		}
		for _, field := range fieldsOf(words) {
			if env.Policy != nil && env.Policy(e.EntityType, field) == "union" {
				continue
			}
			f, ok, err := c.field(ctx, env, d, e, words, field)
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

// field checks one field of one entity across the standing words.
func (contradictions) field(ctx context.Context, env Env, d *observedData, e store.LintEntity, words []standing, field string) (Finding, bool, error) {
	var giving []standing
	for _, w := range words {
		if v, ok := w.fields[field]; ok && string(v) != "null" {
			giving = append(giving, w)
		}
	}
	// A source another giving source corrects or supersedes has been answered.
	var kept []standing
	for _, w := range giving {
		answered := false
		for _, o := range giving {
			if w.src.doc != nil && o.src.doc != nil && o.src.key != w.src.key &&
				(d.corrects[[2]string{o.src.doc.EntityID, w.src.doc.EntityID}]) {
				answered = true
			}
		}
		if !answered {
			kept = append(kept, w)
		}
	}
	distinct := map[string]bool{}
	for _, w := range kept {
		distinct[valueKey(w.fields[field])] = true
	}
	if len(distinct) < 2 {
		return Finding{}, false, nil
	}
	f := newFinding(Contradiction, High, ScopeEntities, e.EntityID, e.EntityID, field)
	f.EntityID, f.EntityName, f.Field = e.EntityID, e.Name, field
	shown := e.Provenance[field]
	var shownValue json.RawMessage
	for _, w := range kept {
		if w.obs.ObservationID == shown {
			shownValue = w.fields[field]
		}
	}
	var docSources []standing
	for _, w := range kept {
		v := w.fields[field]
		ev, err := evidenceOf(ctx, env, w, renderings(v))
		if err != nil {
			return Finding{}, false, err
		}
		isShown := w.obs.ObservationID == shown || (shownValue != nil && sameValue(v, shownValue))
		f.Values = append(f.Values, Value{Value: v, Shown: isShown, ObservationID: w.obs.ObservationID, ObservedAt: w.obs.ObservedAt, Source: ev})
		f.Evidence = append(f.Evidence, ev)
		if w.src.doc != nil {
			f.refs = append(f.refs, w.src.doc.EntityID)
			docSources = append(docSources, w)
		}
	}
	// By source: day, then place, then value. Not the shown one first: which value the merge
	// policy shows can depend on the order documents were read in (a tie broken by the time
	// of reading), and the finding about a disagreement must not.
	slices.SortStableFunc(f.Values, func(a, b Value) int {
		if c := strings.Compare(a.Source.Date, b.Source.Date); c != 0 {
			return c
		}
		if c := strings.Compare(a.Source.Path+"\x00"+where(a.Source), b.Source.Path+"\x00"+where(b.Source)); c != 0 {
			return c
		}
		return strings.Compare(valueKey(a.Value), valueKey(b.Value))
	})
	f.Evidence = f.Evidence[:0]
	for _, v := range f.Values {
		f.Evidence = append(f.Evidence, v.Source)
	}
	f.DocumentIDs = docsOf(f.Evidence...)
	a, b := f.Values[0], f.Values[1]
	if len(f.Values) == 2 {
		f.Title = fmt.Sprintf("%s's %s is %s (%s) but %s (%s)", e.Name, field, display(a.Value), where(a.Source), display(b.Value), where(b.Source))
	} else {
		f.Title = fmt.Sprintf("%s's %s has %d different values in %d sources: %s (%s), %s (%s), …", e.Name, field, len(distinct), len(f.Values),
			display(a.Value), where(a.Source), display(b.Value), where(b.Source))
	}
	today := "no value"
	for _, v := range f.Values {
		if v.Shown {
			today = display(v.Value) + " (from " + where(v.Source) + ")"
			break
		}
	}
	f.Hint = fmt.Sprintf("The snapshot shows %s by its merge policy, but the sources still disagree. Decide which is right: fix the wrong source, or mark the right document as correcting the other (a CORRECTS link).", today)
	if len(docSources) < 2 {
		f.Hint = fmt.Sprintf("The snapshot shows %s by its merge policy, but the sources still disagree. Fix the wrong source; an agent's newer submission replaces its own earlier one.", today)
	}
	for _, ev := range f.Evidence {
		if ev.DocumentID != "" {
			f.Fixes = append(f.Fixes, openFix(ev))
		}
	}
	// In the values' order, so two stores of the same files offer the same buttons in the same
	// order (the words' order follows document IDs, which follow the files' paths).
	for _, a := range f.Values {
		for _, b := range f.Values {
			if a.Source.EntityID == "" || b.Source.EntityID == "" || a.Source.EntityID == b.Source.EntityID || len(f.Fixes) >= 8 {
				continue
			}
			f.Fixes = append(f.Fixes, Fix{Action: "create_relationship", RelationshipType: "CORRECTS",
				Label:          fmt.Sprintf("Keep %s: mark %s as correcting %s", display(a.Value), shortPath(a.Source.Path), shortPath(b.Source.Path)),
				SourceEntityID: a.Source.EntityID, TargetEntityID: b.Source.EntityID})
		}
	}
	slices.Sort(f.refs)
	f.refs = slices.Compact(f.refs)
	return f, true, nil
}
