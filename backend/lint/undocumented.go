package lint

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/strata-app/strata/backend/store"
)

// undocumented finds a concept several documents use that no document explains. A document
// explains a concept when it is titled by it, has a heading naming it, or defines it in a
// sentence of its own ("Release planning is …", "A runbook means …"). Concepts that come from
// headings are explained by the section they head; those that come only from tags, hashtags,
// keywords and passing mentions are the ones a reader of the store has nowhere to look up.
type undocumented struct{}

// minUses is how many documents must use a concept before its missing explanation matters.
const minUses = 3

func (undocumented) Name() string    { return "undocumented-concept" }
func (undocumented) Kind() string    { return UndocumentedConcept }
func (undocumented) Version() string { return "4" }

// Affected: dirty concepts, and the concepts a dirty document mentions or links to (it may
// have gained a heading, a title or a definition).
func (undocumented) Affected(ctx context.Context, env Env, dirty []string) ([]string, error) {
	ment, err := store.LintMentionsOf(ctx, env.Q, nil, dirty)
	if err != nil {
		return nil, err
	}
	links, err := store.LintLinksFrom(ctx, env.Q, dirty)
	if err != nil {
		return nil, err
	}
	in := setOf(dirty)
	more := []string{}
	for _, m := range ment {
		more = append(more, m.EntityID)
	}
	for _, l := range links {
		if in[l.Source] {
			more = append(more, l.Target) // what a dirty document links to
		}
	}
	return union(dirty, more), nil
}

// use is a document using a concept, with the first passage naming it.
type use struct {
	doc     *store.LintDoc
	ordinal int
	heading bool
}

func (c undocumented) Check(ctx context.Context, env Env, subjects []string) ([]Finding, error) {
	concepts, err := entitiesOf(ctx, env, subjects, []string{"concept"})
	if err != nil {
		return nil, err
	}
	if len(concepts) == 0 {
		return nil, nil
	}
	ids := make([]string, len(concepts))
	for i, e := range concepts {
		ids[i] = e.EntityID
	}
	if subjects == nil {
		ids = nil
	}
	// A passing mention of the name in a text is not a use of the concept ("a legal entity"
	// does not use the tag legal): tags, hashtags, keywords and headings are.
	ment, err := store.LintMentions(ctx, env.Q, store.MentionFilter{Entities: ids, Sources: []string{"tag", "hashtag", "keyword", "heading"}})
	if err != nil {
		return nil, err
	}
	links, err := linksOf(ctx, env, ids, nil)
	if err != nil {
		return nil, err
	}
	var docIDs, docEnts []string
	for _, m := range ment {
		docIDs = append(docIDs, m.DocumentID)
	}
	for _, l := range links {
		docEnts = append(docEnts, l.Source)
	}
	byID := map[string]*store.LintDoc{}
	byEnt := map[string]*store.LintDoc{}
	if len(docIDs) > 0 {
		list, err := docsByID(ctx, env, union(docIDs))
		if err != nil {
			return nil, err
		}
		for i := range list {
			byID[list[i].DocumentID], byEnt[list[i].EntityID] = &list[i], &list[i]
		}
	}
	if len(docEnts) > 0 {
		list, err := docsByEntity(ctx, env, union(docEnts))
		if err != nil {
			return nil, err
		}
		for i := range list {
			byID[list[i].DocumentID], byEnt[list[i].EntityID] = &list[i], &list[i]
		}
	}
	uses := map[string]map[string]*use{} // concept → document → use
	note := func(concept string, d *store.LintDoc, ordinal int, heading bool) {
		if !settled(env, d) {
			return
		}
		if uses[concept] == nil {
			uses[concept] = map[string]*use{}
		}
		u := uses[concept][d.DocumentID]
		if u == nil {
			u = &use{doc: d, ordinal: -1}
			uses[concept][d.DocumentID] = u
		}
		if ordinal >= 0 && (u.ordinal < 0 || ordinal < u.ordinal) {
			u.ordinal = ordinal
		}
		u.heading = u.heading || heading
	}
	for _, m := range ment {
		note(m.EntityID, byID[m.DocumentID], m.Ordinal, m.Source == "heading")
	}
	for _, l := range links {
		if d := byEnt[l.Source]; d != nil {
			note(l.Target, d, -1, false)
		}
	}
	var out []Finding
	for _, e := range concepts {
		us := uses[e.EntityID]
		if len(us) < minUses {
			continue
		}
		explained, err := c.explained(ctx, env, e, us)
		if err != nil {
			return nil, err
		}
		if explained {
			continue
		}
		list := make([]*use, 0, len(us))
		for _, u := range us {
			list = append(list, u)
		}
		// Evidence from passages that name it first (a front-matter tag has no line), then by ID.
		slices.SortFunc(list, func(a, b *use) int {
			if (a.ordinal < 0) != (b.ordinal < 0) {
				if a.ordinal >= 0 {
					return -1
				}
				return 1
			}
			return strings.Compare(a.doc.DocumentID, b.doc.DocumentID)
		})
		f := newFinding(UndocumentedConcept, Low, ScopeConcepts, e.EntityID, e.EntityID)
		f.EntityID, f.EntityName = e.EntityID, e.Name
		for _, u := range list {
			f.DocumentIDs = append(f.DocumentIDs, u.doc.DocumentID)
			if len(f.Evidence) < 3 {
				ev, err := mentionEvidence(ctx, env, u.doc, u.ordinal, append([]string{e.Name}, e.Aliases...))
				if err != nil {
					return nil, err
				}
				f.Evidence = append(f.Evidence, ev)
				f.Fixes = append(f.Fixes, openFix(ev))
			}
		}
		f.Title = fmt.Sprintf("%q is used by %d documents, but none explains it", e.Name, len(list))
		f.Hint = fmt.Sprintf("Write a note that explains %s: title it or give it a heading with that name, or define it in a sentence (\"%s is …\").",
			e.Name, e.Name)
		f.Fixes = append(f.Fixes, Fix{Action: "open", Label: "Open the concept " + e.Name, EntityID: e.EntityID})
		out = append(out, f)
	}
	return out, nil
}

// explained reports whether some live document explains the concept: a heading naming it, a
// title that is its name, or a sentence defining it.
func (undocumented) explained(ctx context.Context, env Env, e store.LintEntity, us map[string]*use) (bool, error) {
	names := append([]string{e.Name}, e.Aliases...)
	keys := map[string]bool{}
	for _, n := range names {
		keys[strings.Join(tokens(n), " ")] = true
	}
	for _, u := range us {
		if u.heading {
			return true, nil
		}
	}
	for _, u := range us {
		t := strings.Join(tokens(u.doc.Title), " ")
		if keys[t] || keys[strings.TrimSuffix(t, "s")] {
			return true, nil
		}
	}
	for k := range keys {
		if k == "" {
			continue
		}
		var ors []string
		for _, verb := range definingVerbs {
			ors = append(ors, ftsPhrase(append(strings.Fields(k), strings.Fields(verb)...)))
		}
		hits, err := store.MatchChunks(ctx, env.Q, strings.Join(ors, " OR "), 50)
		if err != nil {
			return false, err
		}
		re := definition(k)
		for _, h := range hits {
			d, err := docsByID(ctx, env, []string{h.DocumentID})
			if err != nil {
				return false, err
			}
			if len(d) == 1 && live(env, &d[0]) && re.MatchString(h.Text) {
				return true, nil
			}
		}
	}
	return false, nil
}

var definingVerbs = []string{"is", "are", "means", "refers to", "stands for"}

// definition matches a sentence that starts with the concept's name (perhaps after an article)
// followed by a defining verb.
func definition(key string) *regexp.Regexp {
	words := strings.Fields(key)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(`(?i)(?:^|[.!?:]\s+|\n\s*)(?:(?:a|an|the)\s+)?` + strings.Join(words, `[\s_-]+`) + `s?\s+(?:is|are|means|refers\s+to|stands\s+for)\b`)
}
