package enrich

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/strata-app/strata/backend/store"
)

type cooccurSettings struct {
	MinChunks    int     `json:"min_chunks"`
	MinDocuments int     `json:"min_documents"`
	MinDice      float64 `json:"min_dice"`
	MaxMentions  int     `json:"max_mentions"`
	MaxEvidence  int     `json:"max_evidence"`
}

// CoOccurrence links two entities whose names keep appearing in the same chunks, across
// documents, more than their own frequencies explain: CO_OCCURS_WITH (smaller entity ID →
// larger), score = Dice 2·c(ab) / (c(a) + c(b)) over distinct chunk texts.
//
// What counts is what the text says: mentions by text (a known concept's name, a person's
// address, a hashtag), not the heading a chunk sits under (a section's parent and child
// headings "co-occur" by construction) nor a document-wide tag. Chunks are counted by their
// text, so a byte-identical copy or a page that repeats another (the Rust book's print.html
// holds every chapter) adds no evidence; a passage is credited to the most specific document
// that holds it (the fewest chunks: the chapter, not the whole book), and a pair needs
// min_documents such documents.
//
// Incremental: a document's run recomputes exactly the pairs of the entities its mentions
// changed (before and after, from TagConceptBridger), reading counts from entity_mentions.
type CoOccurrence struct {
	settings cooccurSettings
}

// Name implements Enrichment.
func (x *CoOccurrence) Name() string { return "CoOccurrence" }

// Version implements Enrichment.
func (x *CoOccurrence) Version() string { return "1" }

// ReactsTo implements Enrichment.
func (x *CoOccurrence) ReactsTo() []Emission { return []Emission{DocumentAnalyzed, DocumentRemoved} }

// Configure implements Enrichment; the defaults are specs/enrichments.yaml's (which says
// where each comes from).
func (x *CoOccurrence) Configure(params map[string]any) error {
	x.settings = cooccurSettings{MinChunks: 3, MinDocuments: 2, MinDice: 0.2, MaxMentions: 400, MaxEvidence: 3}
	if err := DecodeParams(params, &x.settings); err != nil {
		return err
	}
	s := x.settings
	switch {
	case s.MinChunks < 1:
		return &ParamError{Param: "min_chunks", Problem: "must be at least 1"}
	case s.MinDocuments < 1:
		return &ParamError{Param: "min_documents", Problem: "must be at least 1"}
	case s.MinDice <= 0 || s.MinDice > 1:
		return &ParamError{Param: "min_dice", Problem: "must be in (0, 1]"}
	case s.MaxMentions < s.MinChunks:
		return &ParamError{Param: "max_mentions", Problem: "must be at least min_chunks"}
	case s.MaxEvidence < 1:
		return &ParamError{Param: "max_evidence", Problem: "must be at least 1"}
	}
	return nil
}

// countedSources are the mention sources that are evidence of co-occurrence: what a chunk's
// text says (a concept's name, a hashtag, an address), not the heading it sits under.
var countedSources = []string{SourceText, SourceHashtag, SourceEmail}

type chunkRef struct {
	doc string
	ord int
}

// coEv is one shared passage: the chunk credited with it.
type coEv struct {
	ref     chunkRef
	passage string
}

// coRun caches what one run reads more than once.
type coRun struct {
	x      *CoOccurrence
	run    *Run
	counts map[string][2]int // entity → (mentions, distinct passages)
	sizes  map[string]int    // document → chunks
	names  map[string]string
}

// Enrich implements Enrichment.
func (x *CoOccurrence) Enrich(ctx context.Context, run *Run) error {
	touched, ok := run.Shared[sharedTouched].([]string)
	if !ok { // run alone (strata enrich run CoOccurrence): the document's entities as they are now
		ms, err := store.MentionsIn(ctx, run.Tx, run.Doc.DocumentID)
		if err != nil {
			return err
		}
		set := map[string]bool{}
		for _, m := range ms {
			set[m.EntityID] = true
		}
		touched = sortedKeys(set)
	}
	c := &coRun{x: x, run: run, counts: map[string][2]int{}, sizes: map[string]int{}, names: map[string]string{}}
	for _, e := range touched {
		links, err := c.pairsOf(ctx, e)
		if err != nil {
			return err
		}
		if err := run.Replace(ctx, store.LinkScope{Types: []string{TypeCoOccurs}, Touching: []string{e}}, links); err != nil {
			return err
		}
	}
	return nil
}

// count reads an entity's counted mentions and distinct passages; ok is false when it has
// more than max_mentions (too common to be evidence of anything).
func (c *coRun) count(ctx context.Context, e string) (passages int, ok bool, err error) {
	n, have := c.counts[e]
	if !have {
		m, p, err := store.CountPassages(ctx, c.run.Tx, e, c.x.settings.MaxMentions, countedSources...)
		if err != nil {
			return 0, false, err
		}
		n = [2]int{m, p}
		c.counts[e] = n
	}
	return n[1], n[0] <= c.x.settings.MaxMentions, nil
}

func (c *coRun) docSize(ctx context.Context, doc string) (int, error) {
	if n, ok := c.sizes[doc]; ok {
		return n, nil
	}
	n, err := store.ChunkCount(ctx, c.run.Tx, doc)
	c.sizes[doc] = n
	return n, err
}

func (c *coRun) name(ctx context.Context, e string) (string, error) {
	if n, ok := c.names[e]; ok {
		return n, nil
	}
	ent, err := store.GetEntity(ctx, c.run.Tx, e)
	if err != nil {
		return "", err
	}
	// The identity key, not the shown name: a concept's key is fixed by its spelling rule
	// (the shown name is the smallest spelling seen so far, which may change as documents
	// arrive), and a singular key is found inside its plurals when quoting.
	n := strings.ToLower(ent.IdentityKey)
	if ent.EntityType != "person" && ent.EntityType != "concept" {
		n = strings.ToLower(ent.CanonicalName)
	}
	c.names[e] = n
	return n, nil
}

// nested reports whether one name is a run of whole words of the other ("unit test" and
// "test"): the longer name's every mention is one of the shorter's, which is no evidence.
func nested(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	wa, wb := " "+strings.Join(words(a), " ")+" ", " "+strings.Join(words(b), " ")+" "
	return strings.Contains(wa, wb) || strings.Contains(wb, wa)
}

// pairsOf computes every CO_OCCURS_WITH link of entity e. Cost: one join over e's mentioned
// chunks, then one count per partner sharing at least min_chunks passages.
func (c *coRun) pairsOf(ctx context.Context, e string) ([]store.DerivedLink, error) {
	s := c.x.settings
	mine, ok, err := c.count(ctx, e)
	if err != nil || !ok || mine < s.MinChunks {
		return nil, err
	}
	co, err := store.CoMentions(ctx, c.run.Tx, e, countedSources...)
	if err != nil {
		return nil, err
	}
	// partner → passage → the chunks holding it where both are mentioned
	shared := map[string]map[string][]chunkRef{}
	for _, m := range co {
		if shared[m.EntityID] == nil {
			shared[m.EntityID] = map[string][]chunkRef{}
		}
		shared[m.EntityID][m.Passage] = append(shared[m.EntityID][m.Passage], chunkRef{m.DocumentID, m.Ordinal})
	}
	var eName string
	var links []store.DerivedLink
	for _, p := range sortedKeys(shared) {
		count := len(shared[p])
		if count < s.MinChunks {
			continue
		}
		theirs, ok, err := c.count(ctx, p)
		if err != nil {
			return nil, err
		}
		dice := 2 * float64(count) / float64(mine+theirs)
		if !ok || dice < s.MinDice {
			continue
		}
		if eName == "" {
			if eName, err = c.name(ctx, e); err != nil {
				return nil, err
			}
		}
		pName, err := c.name(ctx, p)
		if err != nil {
			return nil, err
		}
		if nested(eName, pName) {
			continue
		}
		// Each shared passage is credited to its most specific holder (the document with the
		// fewest chunks, then the smaller ID); every holder is evidence a change retracts.
		var evs []coEv
		docs, reps := map[string]bool{}, map[string]bool{}
		for _, h := range sortedKeys(shared[p]) {
			var best chunkRef
			bestN := -1
			for _, r := range shared[p][h] {
				docs[r.doc] = true
				n, err := c.docSize(ctx, r.doc)
				if err != nil {
					return nil, err
				}
				if bestN < 0 || n < bestN || (n == bestN && (r.doc < best.doc || (r.doc == best.doc && r.ord < best.ord))) {
					best, bestN = r, n
				}
			}
			reps[best.doc] = true
			evs = append(evs, coEv{best, h})
		}
		if len(reps) < s.MinDocuments {
			continue
		}
		evidence, err := c.evidence(ctx, evs, eName, pName)
		if err != nil {
			return nil, err
		}
		a, b := e, p
		if b < a {
			a, b = b, a
		}
		chunks := map[string]int{e: mine, p: theirs}
		links = append(links, c.run.Link(TypeCoOccurs, a, b, dice, evidence, sortedKeys(docs), map[string]any{
			"count": count, "documents": len(reps), "chunks": chunks,
		}))
	}
	return links, nil
}

// evidence picks up to max_evidence passages, one per document first (each document's
// earliest), and resolves them to path, lines and a quote naming one of the pair.
func (c *coRun) evidence(ctx context.Context, evs []coEv, aName, bName string) ([]Evidence, error) {
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].ref.doc != evs[j].ref.doc {
			return evs[i].ref.doc < evs[j].ref.doc
		}
		return evs[i].ref.ord < evs[j].ref.ord
	})
	max := c.x.settings.MaxEvidence
	var picked []coEv
	used := map[string]bool{}
	taken := map[chunkRef]bool{}
	for round := 0; round < 2 && len(picked) < max; round++ {
		for _, v := range evs {
			if len(picked) >= max {
				break
			}
			if taken[v.ref] || (round == 0 && used[v.ref.doc]) {
				continue
			}
			used[v.ref.doc], taken[v.ref] = true, true
			picked = append(picked, v)
		}
	}
	out := make([]Evidence, 0, len(picked))
	for _, v := range picked {
		ch, err := store.ChunkAt(ctx, c.run.Tx, v.ref.doc, v.ref.ord)
		if errors.Is(err, store.ErrNotFound) {
			// A mention of a chunk its document lost since (it was read again, or made a copy of an
			// older file) until that document's own enrich job, queued with the change, records its
			// mentions again and recomputes every pair they touch: no evidence now, not a failure.
			continue
		}
		if err != nil {
			return nil, err
		}
		d, err := store.GetDocument(ctx, c.run.Tx, v.ref.doc)
		if err != nil {
			return nil, err
		}
		q := quoteBoth(ch.Text, aName, bName)
		out = append(out, Evidence{Kind: "chunk", ID: ch.ChunkID, DocumentID: v.ref.doc, Path: d.Path, Title: d.Title,
			LineStart: ch.LineStart, LineEnd: ch.LineEnd, Page: ch.Page, Quote: q})
	}
	return out, nil
}

// quoteBoth quotes the chunk's first line naming both, else the first naming either.
func quoteBoth(text, a, b string) string {
	var first string
	for _, l := range strings.Split(text, "\n") {
		low := strings.ToLower(l)
		ha, hb := strings.Contains(low, a), strings.Contains(low, b)
		if ha && hb {
			return cut(strings.TrimSpace(l), 240)
		}
		if first == "" && (ha || hb) {
			first = cut(strings.TrimSpace(l), 240)
		}
	}
	return first
}
