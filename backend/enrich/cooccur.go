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
// larger), score = Dice 2·c(ab) / (c(a) + c(b)) over the chunks naming them.
//
// What counts is what the text says: mentions by text (a known concept's name, a person's
// address, a hashtag), not the heading a chunk sits under (a section's parent and child
// headings "co-occur" by construction) nor a document-wide tag. A byte-identical copy has no
// chunks of its own and adds nothing; a passage several documents hold (the Rust book's
// print.html holds every chapter) is credited to the most specific document that holds it
// (the fewest chunks: the chapter, not the whole book), and a pair needs min_documents such
// documents.
//
// The counts c(a) and c(ab) are kept by triggers as mentions are written (migration 0018), so
// the cost of a document does not grow with the store: its runs defer the entities whose
// mentions changed, and the group's Finish recomputes the pairs of each of them once, reading
// their counters; the passages a link cites are read only for a pair whose count changed.
type CoOccurrence struct {
	settings cooccurSettings
}

// Name implements Enrichment.
func (x *CoOccurrence) Name() string { return "CoOccurrence" }

// Version implements Enrichment.
func (x *CoOccurrence) Version() string { return "2" }

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
// text says (a concept's name, a hashtag, an address), not the heading it sits under. Migration
// 0018's triggers count the same sources.
var countedSources = []string{SourceText, SourceHashtag, SourceEmail}

// DeferMentions is the Defer key of the entities whose mention rows a run or a finish changed:
// their co-occurrences are recomputed by CoOccurrence's Finish.
const DeferMentions = "mentions.changed"

type chunkRef struct {
	doc string
	ord int
}

// coEv is one shared passage: the chunk credited with it.
type coEv struct {
	ref     chunkRef
	passage string
}

// Enrich implements Enrichment: the entities whose mentions the document's runs changed
// (TagConceptBridger leaves them in Shared; run alone, the document's entities as they are
// now) are left for Finish.
func (x *CoOccurrence) Enrich(ctx context.Context, run *Run) error {
	touched, ok := run.Shared[sharedTouched].([]string)
	if !ok {
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
	run.Defer(DeferMentions, touched...)
	return nil
}

// Finish implements Finisher: every pair of every entity whose mentions changed in the group,
// once.
func (x *CoOccurrence) Finish(ctx context.Context, f *Finish) error {
	c := &coRun{x: x, f: f, sizes: f.Cache("sizes"), names: f.Cache("names")}
	for _, e := range f.Deferred(DeferMentions) {
		if err := ctx.Err(); err != nil {
			return err
		}
		links, err := c.pairsOf(ctx, e)
		if err != nil {
			return err
		}
		if err := f.Replace(ctx, store.LinkScope{Types: []string{TypeCoOccurs}, Touching: []string{e}}, links); err != nil {
			return err
		}
	}
	return nil
}

// coRun caches what one finish reads more than once.
type coRun struct {
	x     *CoOccurrence
	f     *Finish
	sizes map[string]any // document → chunks
	names map[string]any // entity → name
}

func (c *coRun) docSize(ctx context.Context, doc string) (int, error) {
	if n, ok := c.sizes[doc]; ok {
		return n.(int), nil
	}
	n, err := store.ChunkCount(ctx, c.f.Tx, doc)
	c.sizes[doc] = n
	return n, err
}

func (c *coRun) name(ctx context.Context, e string) (string, error) {
	if n, ok := c.names[e]; ok {
		return n.(string), nil
	}
	ent, err := store.GetEntity(ctx, c.f.Tx, e)
	if errors.Is(err, store.ErrNotFound) {
		c.names[e] = ""
		return "", nil
	}
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

// coScore is Dice to two decimals: a pair's score moves with every mention of either end, and
// a link is rewritten only when what a person reads of it changes.
func coScore(shared, a, b int) float64 {
	return float64(int(200*float64(shared)/float64(a+b)+0.5)) / 100
}

// pairsOf computes every CO_OCCURS_WITH link of entity e from the counters: one read of its
// pairs with their partners' counts, then, for a pair whose count changed since its link was
// written, the passages it cites.
func (c *coRun) pairsOf(ctx context.Context, e string) ([]store.DerivedLink, error) {
	s := c.x.settings
	mine, err := store.MentionCount(ctx, c.f.Tx, e)
	if err != nil || mine < s.MinChunks || mine > s.MaxMentions {
		return nil, err // too rare to pair, or too common to be evidence of anything
	}
	pairs, err := store.CoPairs(ctx, c.f.Tx, e, s.MinChunks)
	if err != nil || len(pairs) == 0 {
		return nil, err
	}
	existing, err := store.DerivedTouching(ctx, c.f.Tx, e, []string{TypeCoOccurs})
	if err != nil {
		return nil, err
	}
	have := map[string]store.DerivedLink{}
	for _, l := range existing {
		if l.Enrichment == c.x.Name() {
			have[l.ID] = l
		}
	}
	eName, err := c.name(ctx, e)
	if err != nil {
		return nil, err
	}
	var links []store.DerivedLink
	for _, p := range pairs {
		if p.Chunks > s.MaxMentions || p.Shared < s.MinChunks {
			continue
		}
		score := coScore(p.Shared, mine, p.Chunks)
		if score < s.MinDice {
			continue
		}
		pName, err := c.name(ctx, p.Partner)
		if err != nil {
			return nil, err
		}
		if pName == "" || nested(eName, pName) {
			continue
		}
		a, b := e, p.Partner
		if b < a {
			a, b = b, a
		}
		id := LinkID(c.x.Name(), TypeCoOccurs, a, b)
		if old, ok := have[id]; ok && p.Unchanged && old.Version == c.f.Version() {
			// The chunks naming both are those it was derived from: only the score (the ends'
			// counts) may have moved.
			old.Score, old.UpdatedAt = score, ""
			old.EvidenceDocs, err = store.EvidenceDocsOf(ctx, c.f.Tx, id)
			if err != nil {
				return nil, err
			}
			links = append(links, old)
			continue
		}
		link, ok, err := c.link(ctx, a, b, eName, pName, p.Shared, score)
		if err != nil {
			return nil, err
		}
		if err := store.SetCoPairLinked(ctx, c.f.Tx, a, b); err != nil {
			return nil, err
		}
		if ok {
			links = append(links, link)
		}
	}
	return links, nil
}

// maxCoPassages bounds the shared chunks a pair's link reads to credit its passages and pick
// its evidence (a pair past it has min_documents many times over).
const maxCoPassages = 200

// link builds the pair's link from the chunks naming both: each passage is credited to its
// most specific holder (the document with the fewest chunks, then the smaller ID); a pair held
// by fewer than min_documents documents is no link.
func (c *coRun) link(ctx context.Context, a, b, aName, bName string, shared int, score float64) (store.DerivedLink, bool, error) {
	co, err := store.SharedChunks(ctx, c.f.Tx, a, b, maxCoPassages, countedSources...)
	if err != nil {
		return store.DerivedLink{}, false, err
	}
	byPassage := map[string][]chunkRef{}
	for _, m := range co {
		byPassage[m.Passage] = append(byPassage[m.Passage], chunkRef{m.DocumentID, m.Ordinal})
	}
	var evs []coEv
	reps := map[string]bool{}
	for _, h := range sortedKeys(byPassage) {
		var best chunkRef
		bestN := -1
		for _, r := range byPassage[h] {
			n, err := c.docSize(ctx, r.doc)
			if err != nil {
				return store.DerivedLink{}, false, err
			}
			if bestN < 0 || n < bestN || (n == bestN && (r.doc < best.doc || (r.doc == best.doc && r.ord < best.ord))) {
				best, bestN = r, n
			}
		}
		reps[best.doc] = true
		evs = append(evs, coEv{best, h})
	}
	if len(reps) < c.x.settings.MinDocuments {
		return store.DerivedLink{}, false, nil
	}
	evidence, cited, err := c.evidence(ctx, evs, aName, bName)
	if err != nil {
		return store.DerivedLink{}, false, err
	}
	return c.f.Link(TypeCoOccurs, a, b, score, evidence, cited, map[string]any{
		"count": shared, "documents": len(reps),
	}), true, nil
}

// evidence picks up to max_evidence passages, one per document first (each document's
// earliest), and resolves them to path, lines and a quote naming one of the pair; it returns
// them with the documents they cite (what retracts the link when it changes).
func (c *coRun) evidence(ctx context.Context, evs []coEv, aName, bName string) ([]Evidence, []string, error) {
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
	var cited []string
	for _, v := range picked {
		ch, err := store.ChunkAt(ctx, c.f.Tx, v.ref.doc, v.ref.ord)
		if errors.Is(err, store.ErrNotFound) {
			// A mention of a chunk its document lost since (it was read again, or made a copy of an
			// older file) until that document's own enrich job, queued with the change, records its
			// mentions again and recomputes every pair they touch: no evidence now, not a failure.
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		d, err := store.GetDocument(ctx, c.f.Tx, v.ref.doc)
		if err != nil {
			return nil, nil, err
		}
		q := quoteBoth(ch.Text, aName, bName)
		out = append(out, Evidence{Kind: "chunk", ID: ch.ChunkID, DocumentID: v.ref.doc, Path: d.Path, Title: d.Title,
			LineStart: ch.LineStart, LineEnd: ch.LineEnd, Page: ch.Page, Quote: q})
		cited = append(cited, v.ref.doc)
	}
	return out, cited, nil
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
