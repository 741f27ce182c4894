package enrich

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/store"
)

// DiscoveryGap raises suggestions: two documents that are about the same things while nothing
// links them — "these look related; link them?". A person or an agent accepts one (it becomes
// an asserted RELATED_TO) or dismisses it; either decision is remembered and the pair is not
// raised again.
//
// The evidence is what a reader would check: the names both documents use (a project, a
// vendor, a person, a place, an invoice number) that few other documents use, each on a line
// of the document's own (a name shared only inside a passage both hold word for word — a
// licence, a template — is not evidence), and their similarity in the active vector space,
// which must not be unrelated-low. A pair is raised when it shares at least min_shared_names
// such names, is similar at least min_cosine, both documents say enough to be read (35 words
// of prose: no minified code, search index, "moved file 12") and are not generated, nothing
// asserted joins them and no derived DUPLICATE_OF or CONTAINED_IN says what they are to each
// other; and when it is among the per_document best of each of its two documents, by evidence
// (shared names, then similarity), so no document drowns in suggestions.
//
// Incremental: a document's run records its names; Finish recomputes the candidate pairs of
// the documents that changed (gap_candidates), and the suggestions around every document
// whose candidates changed. A name that more than max_name_documents documents now use (or
// that fell back under it) changes the pairs of the documents using it, which are recomputed
// too, so the result does not depend on the order documents arrived in.
type DiscoveryGap struct {
	settings gapSettings
}

type gapSettings struct {
	// MinSharedNames: names two documents must share (each used by at most max_name_documents
	// documents) before they are suggested.
	MinSharedNames int `json:"min_shared_names"`
	// MaxNameDocuments: a name more documents use is no evidence that two of them are related
	// (the company's name, the team lead's name, "Rust" in a folder of Rust notes).
	MaxNameDocuments int `json:"max_name_documents"`
	// MinCosine: the similarity a pair needs in the active space, by space family (the space
	// key's first segment) or "default". Static vectors of unrelated short notes lie around
	// 0.2–0.35, related ones from 0.3 up (docs/enrichments-research.md §5).
	MinCosine map[string]float64 `json:"min_cosine"`
	// PerDocument: a pair is raised only among the best this many candidates of both its
	// documents.
	PerDocument int `json:"per_document"`
}

// KindRelated is the kind of DiscoveryGap's suggestions: two documents about the same things.
const KindRelated = "related"

// Name implements Enrichment.
func (x *DiscoveryGap) Name() string { return "DiscoveryGap" }

// Version implements Enrichment.
func (x *DiscoveryGap) Version() string { return "2" }

// ReactsTo implements Enrichment.
func (x *DiscoveryGap) ReactsTo() []Emission {
	return []Emission{DocumentAnalyzed, ObservationsWritten, SpaceSwitched, DocumentRemoved}
}

// Configure implements Enrichment.
func (x *DiscoveryGap) Configure(params map[string]any) error {
	x.settings = gapSettings{MinSharedNames: 3, MaxNameDocuments: 5, PerDocument: 3,
		MinCosine: map[string]float64{"static": 0.25, "default": 0.5}}
	if err := DecodeParams(params, &x.settings); err != nil {
		return err
	}
	s := x.settings
	switch {
	case s.MinSharedNames < 1:
		return &ParamError{Param: "min_shared_names", Problem: "must be at least 1"}
	case s.MaxNameDocuments < 2:
		return &ParamError{Param: "max_name_documents", Problem: "must be at least 2 (a name two documents share)"}
	case s.PerDocument < 1:
		return &ParamError{Param: "per_document", Problem: "must be at least 1"}
	}
	if _, ok := s.MinCosine["default"]; !ok {
		return &ParamError{Param: "min_cosine", Problem: `needs a "default" entry`}
	}
	for k, v := range s.MinCosine {
		if v < -1 || v > 1 {
			return &ParamError{Param: "min_cosine", Problem: fmt.Sprintf("%s must be in [-1, 1], not %v", k, v)}
		}
	}
	return nil
}

func (x *DiscoveryGap) minCosine(space string) float64 {
	if v, ok := x.settings.MinCosine[space]; ok {
		return v
	}
	fam, _, _ := strings.Cut(space, "/")
	if v, ok := x.settings.MinCosine[fam]; ok {
		return v
	}
	return x.settings.MinCosine["default"]
}

// specific reports whether a name used by n documents is evidence.
func (x *DiscoveryGap) specific(n int) bool { return n >= 2 && n <= x.settings.MaxNameDocuments }

// SuggestionID is the ID of the suggestion about the pair a, b (either order): one per pair,
// so a decision about it holds whatever later raises it again.
func SuggestionID(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return "sug_" + ids.Hash("suggestion", a, b)[:24]
}

// DeferGap is the Defer key of the documents whose candidate pairs DiscoveryGap's Finish
// recomputes.
const DeferGap = "gap.documents"

// sharedChunks is the Run.Shared key under which TagConceptBridger leaves the document's chunks.
const sharedChunks = "chunks"

// gapPrep is the names a document uses (none for a document that is generated, a copy, or
// says too little).
type gapPrep struct{ names []store.DocName }

// Prepare implements Preparer: the document's names.
func (x *DiscoveryGap) Prepare(ctx context.Context, p *Prep) (any, error) {
	return x.prepare(ctx, p.Q, p.Doc, p.Shared)
}

func (x *DiscoveryGap) prepare(ctx context.Context, q store.Q, d store.Document, shared map[string]any) (gapPrep, error) {
	var p gapPrep
	if d.DocType == store.DocTypeGenerated || d.DuplicateOf != "" {
		return p, nil
	}
	chunks, ok := shared[sharedChunks].([]store.Chunk)
	if !ok {
		var err error
		if chunks, err = store.FirstChunksOf(ctx, q, d.DocumentID, MaxDocChunks); err != nil {
			return p, err
		}
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	if proseWords(texts) >= minProseWords {
		for _, n := range docNames(texts) {
			p.names = append(p.names, store.DocName{Name: n.key, DocumentID: d.DocumentID, Shown: n.shown, Lines: n.lines})
		}
	}
	return p, nil
}

// Enrich implements Enrichment: the document's names are recorded, and the document is left for
// Finish with the other documents whose pairs a change of a name's reach moved.
func (x *DiscoveryGap) Enrich(ctx context.Context, run *Run) error {
	d := run.Doc
	var names []store.DocName
	if run.Live {
		p, ok := run.Prepared.(gapPrep)
		if !ok {
			var err error
			if p, err = x.prepare(ctx, run.Tx, d, run.Shared); err != nil {
				return err
			}
		}
		names = p.names
	}
	old, err := store.NamesOf(ctx, run.Tx, d.DocumentID)
	if err != nil {
		return err
	}
	was, is := map[string]bool{}, map[string]bool{}
	for _, n := range old {
		was[n.Name] = true
	}
	for _, n := range names {
		is[n.Name] = true
	}
	var moved []string
	for _, set := range []map[string]bool{was, is} {
		for k := range set {
			if was[k] != is[k] {
				moved = append(moved, k)
			}
		}
	}
	before, err := store.NameCounts(ctx, run.Tx, moved)
	if err != nil {
		return err
	}
	// A name whose count crosses max_name_documents changes the pairs of the other documents
	// using it (those with this document are recomputed from its side).
	var flipped []string
	for _, k := range moved {
		after := before[k]
		if is[k] {
			after++
		} else {
			after--
		}
		if (before[k] <= x.settings.MaxNameDocuments) != (after <= x.settings.MaxNameDocuments) {
			flipped = append(flipped, k)
		}
	}
	if err := store.ReplaceNames(ctx, run.Tx, d.DocumentID, names); err != nil {
		return err
	}
	run.Defer(DeferGap, d.DocumentID)
	if len(flipped) > 0 {
		sort.Strings(flipped)
		users, err := store.NameUsers(ctx, run.Tx, flipped, d.DocumentID)
		if err != nil {
			return err
		}
		for _, u := range users {
			run.Defer(DeferGap, u.DocumentID)
		}
	}
	return nil
}

// pairEvidence is why two documents are candidates: the names they share, as shown, and their
// similarity.
type pairEvidence struct {
	names  []string
	cosine float64
}

// gapScore ranks candidates by evidence: shared names first, then similarity, in [0, 1).
func gapScore(names int, cosine float64) float64 {
	return round(0.7*float64(names)/float64(names+1) + 0.3*max(0, cosine))
}

// Finish implements Finisher.
func (x *DiscoveryGap) Finish(ctx context.Context, f *Finish) error {
	docs := map[string]bool{}
	for _, id := range f.Deferred(DeferGap) {
		docs[id] = true
	}
	// A DUPLICATE_OF or CONTAINED_IN that came or went changes what joins its ends.
	touchedDocs, err := store.DocumentsOfEntities(ctx, f.Tx, f.Touched(TypeDuplicateOf, TypeContainedIn))
	if err != nil {
		return err
	}
	for _, id := range touchedDocs {
		docs[id] = true
	}
	if len(docs) == 0 {
		return nil
	}
	g := &gapRun{x: x, f: f, evidence: map[[2]string]pairEvidence{}, docs: map[string]store.Document{}, top: map[string][]store.GapCandidate{}}
	affected := map[string]bool{}
	for _, id := range sortedKeys(docs) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := g.candidates(ctx, id, affected); err != nil {
			return err
		}
	}
	return g.suggest(ctx, affected)
}

// gapRun is one Finish's working state.
type gapRun struct {
	x        *DiscoveryGap
	f        *Finish
	evidence map[[2]string]pairEvidence // (a, b) document IDs, a < b
	docs     map[string]store.Document
	top      map[string][]store.GapCandidate
}

func (g *gapRun) loadDocs(ctx context.Context, ids []string) error {
	var want []string
	for _, id := range ids {
		if _, ok := g.docs[id]; !ok {
			want = append(want, id)
		}
	}
	if len(want) == 0 {
		return nil
	}
	list, err := store.DocumentsByID(ctx, g.f.Tx, want)
	if err != nil {
		return err
	}
	for _, d := range list {
		g.docs[d.DocumentID] = d
	}
	for _, id := range want {
		if _, ok := g.docs[id]; !ok {
			g.docs[id] = store.Document{DocumentID: id} // gone: no entity, not live
		}
	}
	return nil
}

// candidates recomputes the candidate pairs of one document (gap_candidates) and adds it and
// every document it was or is paired with to affected.
func (g *gapRun) candidates(ctx context.Context, doc string, affected map[string]bool) error {
	q := g.f.Tx
	old, err := store.GapCandidatesOf(ctx, q, doc, 0)
	if err != nil {
		return err
	}
	affected[doc] = true
	for _, c := range old {
		affected[c.A], affected[c.B] = true, true
	}
	if err := g.loadDocs(ctx, []string{doc}); err != nil {
		return err
	}
	var list []store.GapCandidate
	if d := g.docs[doc]; simLive(d) && d.EntityID != "" {
		if list, err = g.pairsOf(ctx, d); err != nil {
			return err
		}
	}
	for _, c := range list {
		affected[c.A], affected[c.B] = true, true
	}
	return store.ReplaceGapCandidates(ctx, q, doc, list)
}

// pairsOf finds a document's candidate pairs: the documents sharing enough specific names on
// lines of their own, similar enough, and not joined already.
func (g *gapRun) pairsOf(ctx context.Context, d store.Document) ([]store.GapCandidate, error) {
	x, q := g.x, g.f.Tx
	mine, err := store.NamesOf(ctx, q, d.DocumentID)
	if err != nil || len(mine) == 0 {
		return nil, err
	}
	keys := make([]string, len(mine))
	byKey := map[string]store.DocName{}
	for i, n := range mine {
		keys[i], byKey[n.Name] = n.Name, n
	}
	counts, err := store.NameCounts(ctx, q, keys)
	if err != nil {
		return nil, err
	}
	var specific []string
	for _, k := range keys {
		if x.specific(counts[k]) {
			specific = append(specific, k)
		}
	}
	if len(specific) == 0 {
		return nil, nil
	}
	users, err := store.NameUsers(ctx, q, specific, d.DocumentID)
	if err != nil {
		return nil, err
	}
	shared := map[string][]string{} // partner → names, as this document shows them
	for _, u := range users {
		m := byKey[u.Name]
		if ownUse(m.Lines, u.Lines) && ownUse(u.Lines, m.Lines) {
			shared[u.DocumentID] = append(shared[u.DocumentID], min(m.Shown, u.Shown)) // as either spells it: the same from both ends
		}
	}
	for _, names := range shared {
		sort.Strings(names)
	}
	var partners []string
	for _, p := range sortedKeys(shared) {
		if len(shared[p]) >= x.settings.MinSharedNames {
			partners = append(partners, p)
		}
	}
	if len(partners) == 0 {
		return nil, nil
	}
	vecs, err := store.DocVectorsOf(ctx, q, g.f.Space, append([]string{d.DocumentID}, partners...))
	if err != nil {
		return nil, err
	}
	if err := g.loadDocs(ctx, partners); err != nil {
		return nil, err
	}
	floor := x.minCosine(g.f.Space)
	var ents []string
	for _, p := range partners {
		if e := g.docs[p].EntityID; e != "" {
			ents = append(ents, e)
		}
	}
	joined, err := store.JoinedTo(ctx, q, d.EntityID, ents, []string{TypeDuplicateOf, TypeContainedIn})
	if err != nil {
		return nil, err
	}
	var out []store.GapCandidate
	for _, p := range partners {
		pd := g.docs[p]
		if !simLive(pd) || pd.EntityID == "" || pd.DocType == store.DocTypeGenerated || joined[pd.EntityID] {
			continue
		}
		mv, pv := vecs[d.DocumentID], vecs[p]
		if mv == nil || pv == nil {
			continue
		}
		cos := float64(simDot(mv, pv))
		if cos < floor {
			continue
		}
		a, b := d.DocumentID, p
		if b < a {
			a, b = b, a
		}
		names := shared[p]
		g.evidence[[2]string{a, b}] = pairEvidence{names: names, cosine: cos}
		out = append(out, store.GapCandidate{A: a, B: b, Score: gapScore(len(names), cos)})
	}
	return out, nil
}

// topOf is a document's best per_document candidates.
func (g *gapRun) topOf(ctx context.Context, doc string) ([]store.GapCandidate, error) {
	if t, ok := g.top[doc]; ok {
		return t, nil
	}
	t, err := store.GapCandidatesOf(ctx, g.f.Tx, doc, g.x.settings.PerDocument)
	g.top[doc] = t
	return t, err
}

func inTop(top []store.GapCandidate, a, b string) bool {
	for _, c := range top {
		if c.A == a && c.B == b {
			return true
		}
	}
	return false
}

// suggest raises the suggestions of every pair with an end in affected that is among the best
// of both its documents, and retracts the others around them.
func (g *gapRun) suggest(ctx context.Context, affected map[string]bool) error {
	if err := g.loadDocs(ctx, sortedKeys(affected)); err != nil {
		return err
	}
	var scope []string
	for _, doc := range sortedKeys(affected) {
		if e := g.docs[doc].EntityID; e != "" {
			scope = append(scope, e)
		}
	}
	if len(scope) == 0 {
		return nil
	}
	open, err := store.OpenSuggestionsTouching(ctx, g.f.Tx, g.f.Name(), scope)
	if err != nil {
		return err
	}
	list := map[string]store.Suggestion{}
	for _, doc := range sortedKeys(affected) {
		top, err := g.topOf(ctx, doc)
		if err != nil {
			return err
		}
		for _, c := range top {
			other := c.B
			if other == doc {
				other = c.A
			}
			theirs, err := g.topOf(ctx, other)
			if err != nil {
				return err
			}
			if !inTop(theirs, c.A, c.B) {
				continue
			}
			if err := g.loadDocs(ctx, []string{c.A, c.B}); err != nil {
				return err
			}
			s, ok, err := g.suggestion(ctx, c, open)
			if err != nil {
				return err
			}
			if ok {
				list[s.ID] = s
			}
		}
	}
	out := make([]store.Suggestion, 0, len(list))
	for _, id := range sortedKeys(list) {
		out = append(out, list[id])
	}
	n, err := store.ReplaceSuggestions(ctx, g.f.Tx, g.f.Name(), scope, out, g.f.Now)
	g.f.changed += n
	return err
}

// suggestion builds the suggestion of a candidate pair, citing where each document uses the
// first shared names.
func (g *gapRun) suggestion(ctx context.Context, c store.GapCandidate, open map[string]store.Suggestion) (store.Suggestion, bool, error) {
	if err := g.loadDocs(ctx, []string{c.A, c.B}); err != nil {
		return store.Suggestion{}, false, err
	}
	da, db := g.docs[c.A], g.docs[c.B]
	if da.EntityID == "" || db.EntityID == "" {
		return store.Suggestion{}, false, nil
	}
	ev, ok := g.evidence[[2]string{c.A, c.B}]
	if !ok {
		// Computed from the other end in an earlier group: read its names again.
		var err error
		if ev, err = g.pairNames(ctx, c.A, c.B); err != nil {
			return store.Suggestion{}, false, err
		}
		if len(ev.names) == 0 {
			return store.Suggestion{}, false, nil
		}
	}
	a, b := da.EntityID, db.EntityID
	first, second := da, db
	if b < a {
		a, b = b, a
		first, second = db, da
	}
	shown := ev.names
	more := ""
	if len(shown) > 6 {
		more = fmt.Sprintf(" and %d more", len(shown)-6)
		shown = shown[:6]
	}
	reason := fmt.Sprintf("%s and %s both name %s%s (similarity %.2f); nothing links them.", docLabel(first), docLabel(second),
		strings.Join(shown, ", "), more, ev.cosine)
	id := SuggestionID(a, b)
	// The same pair, score and reason is the suggestion raised before: its evidence is not
	// resolved again.
	if s, ok := open[id]; ok && s.Score == c.Score && s.Reason == reason && s.Version == g.f.Version() {
		s.EvidenceDocs = []string{c.A, c.B}
		return s, true, nil
	}
	var evidence []Evidence
	for i, name := range ev.names {
		if i >= 3 {
			break
		}
		for _, d := range []store.Document{first, second} {
			e, err := nameEvidence(ctx, g.f.Tx, d, name)
			if err != nil {
				return store.Suggestion{}, false, err
			}
			evidence = append(evidence, e)
		}
	}
	return store.Suggestion{ID: id, SourceEntityID: a, TargetEntityID: b, Kind: KindRelated, Score: c.Score, Reason: reason,
		Evidence: ids.MustMarshal(evidence), Enrichment: g.f.Name(), Version: g.f.Version(), EvidenceDocs: []string{c.A, c.B}}, true, nil
}

// pairNames recomputes the evidence of a pair from its documents' names.
func (g *gapRun) pairNames(ctx context.Context, a, b string) (pairEvidence, error) {
	q := g.f.Tx
	na, err := store.NamesOf(ctx, q, a)
	if err != nil {
		return pairEvidence{}, err
	}
	nb, err := store.NamesOf(ctx, q, b)
	if err != nil {
		return pairEvidence{}, err
	}
	byKey := map[string]store.DocName{}
	for _, n := range nb {
		byKey[n.Name] = n
	}
	var keys []string
	for _, n := range na {
		if _, ok := byKey[n.Name]; ok {
			keys = append(keys, n.Name)
		}
	}
	counts, err := store.NameCounts(ctx, q, keys)
	if err != nil {
		return pairEvidence{}, err
	}
	var ev pairEvidence
	for _, n := range na {
		m, ok := byKey[n.Name]
		if ok && g.x.specific(counts[n.Name]) && ownUse(n.Lines, m.Lines) && ownUse(m.Lines, n.Lines) {
			ev.names = append(ev.names, min(n.Shown, m.Shown))
		}
	}
	sort.Strings(ev.names)
	vecs, err := store.DocVectorsOf(ctx, q, g.f.Space, []string{a, b})
	if err != nil {
		return pairEvidence{}, err
	}
	if vecs[a] != nil && vecs[b] != nil {
		ev.cosine = float64(simDot(vecs[a], vecs[b]))
	}
	return ev, nil
}

// nameEvidence is where a document uses a name: the line of its first chunk naming it, quoted
// and numbered as the file has it.
func nameEvidence(ctx context.Context, q store.Q, d store.Document, name string) (Evidence, error) {
	e := Evidence{Kind: "document", ID: d.DocumentID, DocumentID: d.DocumentID, Path: d.Path, Title: d.Title, Value: name}
	c, err := store.FirstChunkWith(ctx, q, d.DocumentID, name)
	if errors.Is(err, store.ErrNotFound) {
		return e, nil
	}
	if err != nil {
		return e, err
	}
	e.Kind, e.ID, e.Page = "chunk", c.ChunkID, c.Page
	for i, l := range strings.Split(c.Text, "\n") {
		if strings.Contains(strings.ToLower(l), strings.ToLower(name)) {
			e.Quote = cut(strings.TrimSpace(l), 200)
			e.LineStart = c.FileLine(i)
			e.LineEnd = e.LineStart
			break
		}
	}
	return e, nil
}

// docLabel names a document in a sentence: by its path, quoted, else its title.
func docLabel(d store.Document) string {
	if d.Path != "" {
		return fmt.Sprintf("%q", d.Path)
	}
	return fmt.Sprintf("%q", d.Title)
}
