package lint

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/strata-app/strata/backend/store"
)

// missingLinks finds a document that names an entity Strata knows — by its name or an alias —
// while nothing links the two: no asserted link, no derived one, either way, and the document
// is not a source of what Strata knows of the entity.
//
// Which names count: a person, a company, an invoice, a contract … (every type but documents,
// concepts and line items, whose names are descriptions) by a name specific enough to mean it
// — two words or more, or one word of four characters or more written with a capital or a
// digit (a proper noun, a code like INV-001), matched as whole words, and a one-word name only
// where the text writes it with its capital; a person by an e-mail address the text holds; and
// a concept some document declares (a tag, a hashtag, a keyword) whose name has two words or
// more ("design review", "vendor contracts"). A one-word concept is an ordinary word in most
// texts that hold it: on 1,000 notes tagged from a vocabulary, "documentation", "legal" and
// "performance" were named in passing ("individual or legal entity") far more often than
// meant, and heading terms are not declared at all.
type missingLinks struct{}

func (missingLinks) Name() string    { return "missing-link" }
func (missingLinks) Kind() string    { return MissingLink }
func (missingLinks) Version() string { return "4" }

// nameless are the types whose names are not names.
var nameless = []string{"document", "concept", "line_item"}

// Affected: dirty documents (a new or removed mention, link or observation marks its
// document), documents whose text holds the name of a dirty named entity (a new person or
// company: which documents name it?), and the documents naming a concept that became declared
// or stopped being declared (what makes a concept's name count).
//
// A concept marked dirty does not make every document naming it dirty: a new mention marks its
// own document, and the rest of those documents read the concept as before. Rechecking them
// all made a run after one new note recheck 9,850 of 10,613 subjects (6.3 s, twice a full run).
func (missingLinks) Affected(ctx context.Context, env Env, dirty []string) ([]string, error) {
	out, err := namingAffected(ctx, env, dirty)
	if err != nil {
		return nil, err
	}
	changed, err := declaredChanged(ctx, env)
	if err != nil || len(changed) == 0 {
		return out, err
	}
	ment, err := store.LintMentions(ctx, env.Q, store.MentionFilter{Entities: changed, Sources: []string{"text"}})
	if err != nil {
		return nil, err
	}
	var docIDs []string
	for _, m := range ment {
		docIDs = append(docIDs, m.DocumentID)
	}
	more, err := docEntitiesOf(ctx, env, docIDs)
	if err != nil {
		return nil, err
	}
	return union(out, more), nil
}

// declaredKey is the setting holding the declared concepts of two words or more that the
// stored missing links were found with.
const declaredKey = "lint.declared_concepts"

// declaredConcepts lists the concepts some live document declares (tag, hashtag, keyword)
// whose name has two words or more: those whose names in a text count (see missingLinks).
func declaredConcepts(ctx context.Context, env Env) ([]string, error) {
	declared, err := store.DeclaredConcepts(ctx, env.Q)
	if err != nil || len(declared) == 0 {
		return []string{}, err // (a nil list would read every entity)
	}
	ents, err := entitiesOf(ctx, env, declared, nil)
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, e := range ents {
		if len(tokens(e.Name)) >= 2 {
			out = append(out, e.EntityID)
		}
	}
	return out, nil
}

// declaredChanged compares the declared concepts with those of the last run, records them, and
// returns the concepts that joined or left.
func declaredChanged(ctx context.Context, env Env) ([]string, error) {
	now, err := declaredConcepts(ctx, env)
	if err != nil {
		return nil, err
	}
	stored, err := store.Setting(ctx, env.Q, declaredKey)
	if err != nil {
		return nil, err
	}
	var before []string
	_ = json.Unmarshal([]byte(stored), &before) // unset or old: everything changed
	if err := saveDeclared(ctx, env, now); err != nil {
		return nil, err
	}
	in := setOf(now)
	was := setOf(before)
	if was == nil {
		was = subjectSet{}
	}
	var out []string
	for _, id := range now {
		if !was[id] {
			out = append(out, id)
		}
	}
	for _, id := range before {
		if !in[id] {
			out = append(out, id)
		}
	}
	return union(out), nil
}

func saveDeclared(ctx context.Context, env Env, ids []string) error {
	b, _ := json.Marshal(ids) // strings
	return store.SetSetting(ctx, env.Q, declaredKey, string(b))
}

// docEntitiesOf maps document IDs to their entities.
func docEntitiesOf(ctx context.Context, env Env, docIDs []string) ([]string, error) {
	if len(docIDs) == 0 {
		return nil, nil
	}
	docs, err := docsByID(ctx, env, union(docIDs))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(docs))
	for _, d := range docs {
		out = append(out, d.EntityID)
	}
	return out, nil
}

// namingAffected is the dirty entities, plus the documents (by entity) whose text holds the name
// of a dirty named entity.
func namingAffected(ctx context.Context, env Env, dirty []string) ([]string, error) {
	var docIDs []string
	ents, err := entitiesOf(ctx, env, dirty, nil)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if slices.Contains(nameless, e.EntityType) {
			continue
		}
		for _, n := range nameForms(e) {
			found, err := store.PhraseDocuments(ctx, env.Q, ftsPhrase(n.tokens))
			if err != nil {
				return nil, err
			}
			for _, m := range found {
				docIDs = append(docIDs, m.DocumentID)
			}
		}
	}
	more, err := docEntitiesOf(ctx, env, docIDs)
	if err != nil {
		return nil, err
	}
	return union(dirty, more), nil
}

// namedEntities reads the entities of the types whose names are names (not documents, concepts
// or line items), from the memo in a full run.
func namedEntities(ctx context.Context, env Env) ([]store.LintEntity, error) {
	if env.memo == nil {
		return store.LintEntitiesNotOf(ctx, env.Q, nameless)
	}
	all, err := entitiesOf(ctx, env, nil, nil)
	if err != nil {
		return nil, err
	}
	var out []store.LintEntity
	for _, e := range all {
		if !slices.Contains(nameless, e.EntityType) {
			out = append(out, e)
		}
	}
	return out, nil
}

// namedIn finds the named entities the text of documents (nil: every live document) holds by
// name (nameForms), calling fn for each place; it returns the entities it read, by ID.
func namedIn(ctx context.Context, env Env, docIDs []string, fn func(docID string, ordinal int, f nameForm)) (map[string]store.LintEntity, error) {
	all, err := namedEntities(ctx, env)
	if err != nil {
		return nil, err
	}
	ents := map[string]store.LintEntity{}
	var forms []nameForm
	for _, e := range all {
		ents[e.EntityID] = e
		forms = append(forms, nameForms(e)...)
	}
	if len(forms) == 0 || (docIDs != nil && len(docIDs) == 0) {
		return ents, nil
	}
	m := newMatcher(forms)
	err = store.EachChunkText(ctx, env.Q, docIDs, func(doc string, ord int, text string) error {
		m.find(text, func(f nameForm) { fn(doc, ord, f) })
		return nil
	})
	return ents, err
}

// ftsPhrase is an FTS5 phrase of the tokens: quoted, so nothing in a name is query syntax.
func ftsPhrase(tokens []string) string {
	return `"` + strings.ReplaceAll(strings.Join(tokens, " "), `"`, `""`) + `"`
}

// nameForm is one way an entity is named: its words, and whether a one-word name must be
// written with its capital to count.
type nameForm struct {
	entity  string
	tokens  []string
	proper  bool // one word: the text must write it with a capital (or it holds a digit)
	display string
}

// nameForms lists an entity's names that are specific enough to mean it (see missingLinks).
func nameForms(e store.LintEntity) []nameForm {
	var out []nameForm
	seen := map[string]bool{}
	for _, n := range append([]string{e.Name}, e.Aliases...) {
		if strings.Contains(n, "@") {
			continue // an address: entity_mentions has where texts hold it
		}
		toks := tokens(n)
		k := strings.Join(toks, " ")
		if len(toks) == 0 || seen[k] {
			continue
		}
		letters := 0
		for _, t := range toks {
			letters += len([]rune(t))
		}
		one := len(toks) == 1
		if letters < 4 {
			continue
		}
		if one && !hasDigit(n) && !hasUpper(n) {
			continue
		}
		seen[k] = true
		out = append(out, nameForm{entity: e.EntityID, tokens: toks, proper: one && !hasDigit(n), display: n})
	}
	return out
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }
func hasUpper(s string) bool { return strings.IndexFunc(s, unicode.IsUpper) >= 0 }

// tokens splits text into lower-case words of letters and digits.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// token is a word of a text with where it starts and whether it is written with a capital.
type token struct {
	word    string
	capital bool
}

func textTokens(s string) []token {
	var out []token
	start := -1
	for i, r := range s + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := s[start:i]
			first := []rune(w)[0]
			out = append(out, token{word: strings.ToLower(w), capital: unicode.IsUpper(first)})
			start = -1
		}
	}
	return out
}

// matcher finds name forms in texts by their first word.
type matcher map[string][]nameForm

func newMatcher(forms []nameForm) matcher {
	m := matcher{}
	for _, f := range forms {
		m[f.tokens[0]] = append(m[f.tokens[0]], f)
	}
	return m
}

// find calls fn with every name form the text holds.
func (m matcher) find(text string, fn func(nameForm)) {
	toks := textTokens(text)
	for i, t := range toks {
		for _, f := range m[t.word] {
			if i+len(f.tokens) > len(toks) || (f.proper && !t.capital) {
				continue
			}
			ok := true
			for j := 1; j < len(f.tokens); j++ {
				if toks[i+j].word != f.tokens[j] {
					ok = false
					break
				}
			}
			if ok {
				fn(f)
			}
		}
	}
}

// candidate is a document naming an entity, at a passage.
type candidate struct {
	docID, entity string
	ordinal       int
	passages      map[int]bool
	want          []string // what to quote
}

func (c missingLinks) Check(ctx context.Context, env Env, subjects []string) ([]Finding, error) {
	docList, err := docsByEntity(ctx, env, subjects)
	if err != nil {
		return nil, err
	}
	docs := map[string]*store.LintDoc{} // by document ID
	var docIDs, docEnts []string
	for i := range docList {
		d := &docList[i]
		if settled(env, d) {
			docs[d.DocumentID] = d
			docIDs, docEnts = append(docIDs, d.DocumentID), append(docEnts, d.EntityID)
		}
	}
	if len(docIDs) == 0 {
		return nil, nil
	}
	if subjects == nil {
		docIDs, docEnts = nil, nil // read everything in bulk
	}
	cands := map[[2]string]*candidate{}
	add := func(docID, entity string, ordinal int, want []string) {
		if docs[docID] == nil {
			return
		}
		k := [2]string{docID, entity}
		cd := cands[k]
		if cd == nil {
			cd = &candidate{docID: docID, entity: entity, ordinal: ordinal, passages: map[int]bool{}, want: want}
			cands[k] = cd
		}
		cd.passages[ordinal] = true
		if ordinal < cd.ordinal {
			cd.ordinal = ordinal
		}
	}
	// Named entities, found by their names in the documents' text.
	ents, err := namedIn(ctx, env, docIDs, func(doc string, ord int, f nameForm) { add(doc, f.entity, ord, []string{f.display}) })
	if err != nil {
		return nil, err
	}
	// Persons by the addresses texts hold, and declared concepts of two words or more by
	// their names: the enrichment recorded both as mentions.
	multi, err := declaredConcepts(ctx, env)
	if err != nil {
		return nil, err
	}
	if subjects == nil {
		if err := saveDeclared(ctx, env, multi); err != nil {
			return nil, err
		}
	}
	concepts, err := entitiesOf(ctx, env, multi, nil)
	if err != nil {
		return nil, err
	}
	for _, c := range concepts {
		ents[c.EntityID] = c
	}
	emails, err := store.LintMentions(ctx, env.Q, store.MentionFilter{DocEntities: docEnts, Sources: []string{"email"}})
	if err != nil {
		return nil, err
	}
	texts, err := store.LintMentions(ctx, env.Q, store.MentionFilter{Entities: multi, Sources: []string{"text"}})
	if err != nil {
		return nil, err
	}
	for _, mn := range append(emails, texts...) {
		e, ok := ents[mn.EntityID]
		switch {
		case !ok:
		case mn.Source == "email" && e.EntityType == "person":
			add(mn.DocumentID, e.EntityID, mn.Ordinal, []string{e.Name})
		case mn.Source == "text" && e.EntityType == "concept":
			add(mn.DocumentID, e.EntityID, mn.Ordinal, append([]string{e.Name}, e.Aliases...))
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	// What already connects the documents to the entities.
	var candDocEnts []string
	for _, cd := range cands {
		candDocEnts = append(candDocEnts, docs[cd.docID].EntityID)
	}
	links, err := linksOf(ctx, env, union(candDocEnts), nil)
	if err != nil {
		return nil, err
	}
	linked := map[[2]string]bool{}
	for _, l := range links {
		linked[[2]string{l.Source, l.Target}], linked[[2]string{l.Target, l.Source}] = true, true
	}
	observed, err := store.ObservedPairs(ctx, env.Q, docIDs)
	if err != nil {
		return nil, err
	}
	keys := make([][2]string, 0, len(cands))
	for k := range cands {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	var out []Finding
	for _, k := range keys {
		cd := cands[k]
		d, e := docs[cd.docID], ents[cd.entity]
		if linked[[2]string{d.EntityID, e.EntityID}] || observed[k] || d.EntityID == e.EntityID {
			continue
		}
		scope := ScopeDocuments
		if e.EntityType == "concept" {
			scope = ScopeConcepts
		}
		f := newFinding(MissingLink, Medium, scope, d.EntityID, d.EntityID, e.EntityID)
		f.EntityID, f.EntityName = e.EntityID, e.Name
		ev, err := mentionEvidence(ctx, env, d, cd.ordinal, cd.want)
		if err != nil {
			return nil, err
		}
		f.Evidence, f.DocumentIDs = []Evidence{ev}, []string{d.DocumentID}
		times := ""
		if n := len(cd.passages); n > 1 {
			times = fmt.Sprintf(" (in %d passages)", n)
		}
		f.Title = fmt.Sprintf("%s names %s (%s)%s, but nothing links them", docName(d), e.Name, e.EntityType, times)
		f.Hint = fmt.Sprintf("If %s is about %s, link them (REFERS_TO) so each is found from the other.", docName(d), e.Name)
		f.Fixes = []Fix{openFix(ev), {Action: "create_relationship", RelationshipType: "REFERS_TO",
			Label:          fmt.Sprintf("Link %s to %s", docName(d), e.Name),
			SourceEntityID: d.EntityID, TargetEntityID: e.EntityID}}
		// No refs: what the finding rests on besides its document (the entity's names, the
		// concept being declared) is rechecked through Affected; a ref to a concept named by
		// thousands of documents rechecked them all whenever one note used it.
		out = append(out, f)
	}
	return out, nil
}
