package lint

import (
	"context"
	"fmt"

	"github.com/strata-app/strata/backend/store"
)

// orphans finds what nothing connects: an entity that one source mentions (or none any more)
// and no link reaches, and a document that names no entity and that no link, asserted or
// derived, reaches. Such things are easy to lose: a typo of a known name, a note filed nowhere.
type orphans struct{}

func (orphans) Name() string    { return "orphan" }
func (orphans) Kind() string    { return Orphan }
func (orphans) Version() string { return "4" }

// Affected: the dirty entities (their links, mentions and observations are what the check
// reads, and each of those marks the entity when it changes), and the documents that name a
// dirty entity (a document that names a new person is no longer connected to nothing).
func (orphans) Affected(ctx context.Context, env Env, dirty []string) ([]string, error) {
	return namingAffected(ctx, env, dirty)
}

func (orphans) Check(ctx context.Context, env Env, subjects []string) ([]Finding, error) {
	ents, err := entitiesOf(ctx, env, subjects, nil)
	if err != nil {
		return nil, err
	}
	if len(ents) == 0 {
		return nil, nil
	}
	ids := make([]string, len(ents))
	for i, e := range ents {
		ids[i] = e.EntityID
	}
	if subjects == nil {
		ids = nil
	}
	links, err := linksOf(ctx, env, ids, nil)
	if err != nil {
		return nil, err
	}
	linked := map[string]bool{}
	for _, l := range links {
		linked[l.Source], linked[l.Target] = true, true
	}
	docList, err := docsByEntity(ctx, env, ids)
	if err != nil {
		return nil, err
	}
	docs := map[string]*store.LintDoc{}
	for i := range docList {
		docs[docList[i].EntityID] = &docList[i]
	}
	// Only what no link reaches can be an orphan: read the mentions and observations of those.
	var loose, looseDocs []string
	for _, e := range ents {
		if linked[e.EntityID] {
			continue
		}
		if e.EntityType == "document" {
			looseDocs = append(looseDocs, e.EntityID)
		} else {
			loose = append(loose, e.EntityID)
		}
	}
	if loose == nil {
		loose = []string{}
	}
	if looseDocs == nil {
		looseDocs = []string{}
	}
	ment, err := store.LintMentions(ctx, env.Q, store.MentionFilter{Entities: loose, DocEntities: looseDocs})
	if err != nil {
		return nil, err
	}
	mentionedIn := map[string]map[string]bool{} // entity → documents naming it
	names := map[string]bool{}                  // document entities whose text names an entity
	docOf := map[string]string{}                // document ID → its entity
	for _, d := range docList {
		docOf[d.DocumentID] = d.EntityID
	}
	for _, m := range ment {
		if mentionedIn[m.EntityID] == nil {
			mentionedIn[m.EntityID] = map[string]bool{}
		}
		mentionedIn[m.EntityID][m.DocumentID] = true
		if de, ok := docOf[m.DocumentID]; ok {
			names[de] = true
		}
	}
	obs, err := store.LintObservations(ctx, env.Q, loose, notObserved)
	if err != nil {
		return nil, err
	}
	osrcs, err := loadSources(ctx, env, obs)
	if err != nil {
		return nil, err
	}
	grouped := byEntity(obs)
	// A document that names an entity in its text is not connected to nothing (the missing
	// link is the finding then): the text of the few documents left is read for names.
	var lonely []string
	for _, e := range ents {
		if d := docs[e.EntityID]; e.EntityType == "document" && !linked[e.EntityID] && settled(env, d) && d.Chunks > 0 && !d.Tagged && !names[e.EntityID] {
			lonely = append(lonely, d.DocumentID)
		}
	}
	if _, err := namedIn(ctx, env, lonely, func(doc string, _ int, _ nameForm) { names[docOf[doc]] = true }); err != nil {
		return nil, err
	}
	var out []Finding
	for _, e := range ents {
		if linked[e.EntityID] {
			continue
		}
		if e.EntityType == "document" {
			d := docs[e.EntityID]
			if !settled(env, d) || d.Chunks == 0 || d.Tagged || names[e.EntityID] {
				continue
			}
			f := newFinding(Orphan, Low, ScopeDocuments, e.EntityID, e.EntityID)
			f.EntityID, f.EntityName = e.EntityID, docName(d)
			ev := Evidence{DocumentID: d.DocumentID, EntityID: d.EntityID, Path: d.Path, Title: d.Title}
			f.Evidence, f.DocumentIDs = []Evidence{ev}, []string{d.DocumentID}
			f.Title = fmt.Sprintf("%s is connected to nothing: it has no tag, names no entity Strata knows, and no link or similar document reaches it", docName(d))
			f.Hint = "Tag it, link it to what it belongs to, or remove it if it is not needed."
			f.Fixes = []Fix{{Action: "open", Label: "Open " + docName(d), DocumentID: d.DocumentID}}
			out = append(out, f)
			continue
		}
		words, err := currentWords(env, grouped[e.EntityID], osrcs)
		if err != nil {
			return nil, err
		}
		sources := map[string]bool{}
		for _, w := range words {
			sources[w.src.key] = true
		}
		for d := range mentionedIn[e.EntityID] {
			sources["doc:"+d] = true
		}
		if len(sources) > 1 {
			continue
		}
		scope := ScopeEntities
		if e.EntityType == "concept" {
			scope = ScopeConcepts
		}
		f := newFinding(Orphan, Low, scope, e.EntityID, e.EntityID)
		f.EntityID, f.EntityName = e.EntityID, e.Name
		switch {
		case len(words) == 1:
			ev, err := evidenceOf(ctx, env, words[0], append([]string{e.Name}, e.Aliases...))
			if err != nil {
				return nil, err
			}
			f.Evidence, f.DocumentIDs = []Evidence{ev}, docsOf(ev)
			f.Title = fmt.Sprintf("%s (%s) is mentioned once, by %s, and linked to nothing", e.Name, e.EntityType, sourceName(words[0].src.source))
			if ev.DocumentID != "" {
				f.Fixes = []Fix{openFix(ev)}
				f.refs = []string{ev.EntityID}
			}
		case len(sources) == 1:
			f.Title = fmt.Sprintf("%s (%s) is mentioned by one document and linked to nothing", e.Name, e.EntityType)
		default:
			f.Title = fmt.Sprintf("%s (%s) is no longer mentioned by any current source and is linked to nothing", e.Name, e.EntityType)
		}
		f.Hint = fmt.Sprintf("Link %s to what it belongs to, or check whether it is a misspelling of an entity Strata knows by another name.", e.Name)
		f.Fixes = append(f.Fixes, Fix{Action: "open", Label: "Open " + e.Name, EntityID: e.EntityID})
		out = append(out, f)
	}
	return out, nil
}
