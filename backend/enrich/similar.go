package enrich

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// EmbeddingSimilarity links documents close in the active vector space (SIMILAR_TO), and
// near-identical ones (DUPLICATE_OF) and ones another holds almost whole (CONTAINED_IN).
//
// A document's vector is the L2-normalised mean of its chunks' vectors in the space (research
// i14 §1: length weighting did slightly worse; centering on a corpus mean helped but makes every
// vector depend on the whole store, which would break "work proportional to the neighbours").
//
// The links are a function of the set of document vectors and texts alone, so any build order
// gives the same links:
//   - DUPLICATE_OF A→B: cosine ≥ duplicate_min_cosine and shingle containment ≥
//     duplicate_min_containment both ways; B is the older version (older file mtime, then the
//     smaller document ID). A byte-identical copy (documents.duplicate_of) is DUPLICATE_OF its
//     original with evidence "same bytes"; it has no chunks of its own.
//   - CONTAINED_IN A→B: cosine ≥ similar_min, A's shingles in B ≥ contained_min, B's in A <
//     contained_max_reverse (a chapter in the one-page book).
//   - SIMILAR_TO (smaller entity ID → larger): cosine ≥ similar_min and each is among the
//     other's top_k neighbours (ties by document ID), pairs that are DUPLICATE_OF or CONTAINED_IN
//     left out of the ranking: without the cap long documents become hubs (print.html 72 links,
//     man-find 39 at 0.65), and without the exclusion print.html would fill every chapter's top 5.
//
// Mutual top-k depends on other documents: when D arrives, each neighbour whose top k D enters
// loses its k-th, and a link to it; when D leaves, each neighbour that had D in its top k gains a
// place. A run recomputes the links of D and of exactly those neighbours (work ∝ neighbours).
type EmbeddingSimilarity struct {
	settings simSettings

	mu       sync.Mutex // one run at a time: the indexes and caches are shared by the runner's workers
	indexes  map[string]*simIndex
	shingles *simShingleCache
	rels     map[simPairKey]simRel
	// chunkCache holds the chunks of the last few documents cited as evidence.
	chunkCache []simChunks
}

// simThresholds are the rules of one family of spaces. The static defaults are research i14 §1's
// measurements on the quality corpus (static/strata-hash-v1/256); the ones for other spaces
// (Ollama) could not be measured here and are chosen conservatively (specs/enrichments.yaml).
type simThresholds struct {
	SimilarMin          float64 `json:"similar_min"`
	DuplicateMinCosine  float64 `json:"duplicate_min_cosine"`
	DuplicateMinContain float64 `json:"duplicate_min_containment"`
	ContainedMin        float64 `json:"contained_min"`
	ContainedMaxReverse float64 `json:"contained_max_reverse"`
	SimilarMaxSizeRatio float64 `json:"similar_max_size_ratio"`
}

type simSettings struct {
	TopK          int       `json:"top_k"`
	ShingleBudget int       `json:"shingle_cache"`
	Spaces        simSpaces `json:"spaces"`
}

// simSpaces are thresholds by space family (the space key's first segment: "static",
// "ollama"), or "default". A family named in the YAML starts from the defaults it overrides,
// so an override names only the thresholds it changes.
type simSpaces map[string]simThresholds

func (s *simSpaces) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	for _, k := range sortedKeys(raw) {
		t, ok := (*s)[k]
		if !ok {
			t = (*s)["default"]
		}
		dec := json.NewDecoder(bytes.NewReader(raw[k]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			return fmt.Errorf("spaces.%s: %w", k, err)
		}
		(*s)[k] = t
	}
	return nil
}

func simDefaults() simSettings {
	return simSettings{
		TopK:          5,         // research i14 §1: mutual top-5 keeps 74 % of Rust–Rust links on linked or same-chapter pairs, 0 across sub-corpora
		ShingleBudget: 4_000_000, // shingles kept in memory (8 bytes each: 32 MB)
		Spaces: simSpaces{
			"static": {
				SimilarMin:          0.60, // research: ≥0.60 & mutual top-5 → 136 links, 0 cross-subcorpus; unrelated p99 0.585
				DuplicateMinCosine:  0.80, // weakest true near-duplicate 0.845 (edited os.md); 38 pairs of 16k pass
				DuplicateMinContain: 0.70, // weakest true 0.765 (edited os.md), strongest false 0.502 (GPL-2 ~ LGPL-2.1)
				ContainedMin:        0.90, // chapter in print.html 1.000 for all 76; bzip2 man in manual 0.941
				ContainedMaxReverse: 0.40, // print.html in a chapter ≤ 0.039; near-duplicates are ≥ 0.70
				SimilarMaxSizeRatio: 10,   // measured here: chapter pairs ≤ 7.2× apart in shingles; the whole book vs a man page ≥ 11.6×
			},
			"default": { // Ollama and any other space: not measurable here; semantic cosines run higher
				SimilarMin:          0.80,
				DuplicateMinCosine:  0.95,
				DuplicateMinContain: 0.70,
				ContainedMin:        0.90,
				ContainedMaxReverse: 0.40,
				SimilarMaxSizeRatio: 10,
			},
		},
	}
}

// Name implements Enrichment.
func (x *EmbeddingSimilarity) Name() string { return "EmbeddingSimilarity" }

// Version implements Enrichment.
func (x *EmbeddingSimilarity) Version() string { return "2" }

// ReactsTo implements Enrichment: a switch of the vector space derives every link again there.
func (x *EmbeddingSimilarity) ReactsTo() []Emission {
	return []Emission{DocumentAnalyzed, DocumentRemoved, SpaceSwitched}
}

// Configure implements Enrichment.
func (x *EmbeddingSimilarity) Configure(params map[string]any) error {
	s := simDefaults()
	if err := DecodeParams(params, &s); err != nil {
		return err
	}
	if s.TopK < 1 || s.TopK > 50 {
		return &ParamError{Param: "top_k", Problem: fmt.Sprintf("must be between 1 and 50, not %d", s.TopK)}
	}
	if s.ShingleBudget < 0 {
		return &ParamError{Param: "shingle_cache", Problem: "must not be negative"}
	}
	if _, ok := s.Spaces["default"]; !ok {
		return &ParamError{Param: "spaces", Problem: `needs a "default" entry`}
	}
	for _, k := range sortedKeys(s.Spaces) {
		t := s.Spaces[k]
		for _, f := range []struct {
			name string
			v    float64
		}{{"similar_min", t.SimilarMin}, {"duplicate_min_cosine", t.DuplicateMinCosine}, {"duplicate_min_containment", t.DuplicateMinContain},
			{"contained_min", t.ContainedMin}, {"contained_max_reverse", t.ContainedMaxReverse}} {
			if f.v <= 0 || f.v > 1 {
				return &ParamError{Param: "spaces", Problem: fmt.Sprintf("%s.%s must be in (0, 1], not %v", k, f.name, f.v)}
			}
		}
		if t.SimilarMaxSizeRatio < 1 {
			return &ParamError{Param: "spaces", Problem: fmt.Sprintf("%s.similar_max_size_ratio must be at least 1, not %v", k, t.SimilarMaxSizeRatio)}
		}
		if t.ContainedMaxReverse >= t.ContainedMin {
			return &ParamError{Param: "spaces", Problem: fmt.Sprintf("%s.contained_max_reverse must be below contained_min", k)}
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.settings = s
	x.indexes, x.rels = map[string]*simIndex{}, map[simPairKey]simRel{}
	x.shingles = newSimShingleCache(s.ShingleBudget)
	return nil
}

// floor is the lowest cosine any rule looks at: neighbour lists are cut there.
func (t simThresholds) floor() float64 { return min(t.SimilarMin, t.DuplicateMinCosine) }

// thresholds are the rules for space.
func (s simSettings) thresholds(space string) simThresholds {
	if t, ok := s.Spaces[space]; ok {
		return t
	}
	fam, _, _ := strings.Cut(space, "/")
	if t, ok := s.Spaces[fam]; ok {
		return t
	}
	return s.Spaces["default"]
}

// simRun is one run's working state.
type simRun struct {
	x    *EmbeddingSimilarity
	run  *Run
	ix   *simIndex
	th   simThresholds
	docs map[string]store.Document
}

// tail brings ix up to date in tx. After a rollback the seqs it had seen are handed out again,
// so what is kept by (document, seq) — pair relations, shingle sets, evidence chunks — may be
// of content that is gone: it is dropped.
func (x *EmbeddingSimilarity) tail(ctx context.Context, ix *simIndex, tx store.Q) error {
	rolledBack, err := ix.tail(ctx, tx)
	if rolledBack {
		x.rels = map[simPairKey]simRel{}
		x.shingles = newSimShingleCache(x.shingles.budget)
		x.chunkCache = nil
	}
	return err
}

// Warm implements Warmer: the space's index is loaded or caught up before a document's budget
// starts (the first run after a start reads every document vector of the space).
func (x *EmbeddingSimilarity) Warm(ctx context.Context, tx store.Q, space string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.indexes == nil || space == "" {
		return nil
	}
	return x.tail(ctx, x.index(space), tx)
}

// index is the space's index, made empty the first time (x.mu held).
func (x *EmbeddingSimilarity) index(space string) *simIndex {
	ix := x.indexes[space]
	if ix == nil {
		ix = newSimIndex(space)
		x.indexes[space] = ix
	}
	return ix
}

// Enrich implements Enrichment.
func (x *EmbeddingSimilarity) Enrich(ctx context.Context, run *Run) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.indexes == nil {
		return fmt.Errorf("%s runs before Configure", x.Name())
	}
	d := run.Doc
	r := &simRun{x: x, run: run, th: x.settings.thresholds(run.Space), docs: map[string]store.Document{d.DocumentID: d}}
	if !run.Live {
		// A document that left is tombstoned in every space, so that no copy keeps comparing with it.
		spaces, err := store.DocVectorSpaces(ctx, run.Tx, d.DocumentID)
		if err != nil {
			return err
		}
		for _, s := range spaces {
			if s == run.Space {
				continue
			}
			if _, err := store.PutDocVector(ctx, run.Tx, s, d.DocumentID, nil, 0); err != nil {
				return err
			}
		}
	}
	if run.Space == "" {
		return r.replace(ctx, false, d.DocumentID)
	}
	ix := x.index(run.Space)
	r.ix = ix
	if err := x.tail(ctx, ix, run.Tx); err != nil {
		return err
	}
	var vec []float32
	var set []uint64
	if p, ok := run.Prepared.(simPrep); ok {
		vec, set = p.vec, p.set
	} else if run.Live && d.DuplicateOf == "" {
		var err error
		if vec, set, err = r.docVector(ctx, d.DocumentID); err != nil {
			return err
		}
	}
	old := ix.vector(d.DocumentID)
	affected := map[string]bool{d.DocumentID: true}
	full := map[string]bool{} // neighbours whose own DUPLICATE_OF may change too
	if old != nil && !slices.Equal(old, vec) {
		// D leaves its old place: the neighbours that had it in their top k gain a place, and
		// its near-duplicates may have pointed to it as their oldest.
		for _, n := range ix.scan(old, d.DocumentID, r.th.floor()) {
			rel, err := r.rel(ctx, d.DocumentID, n.doc, n.cos)
			if err != nil {
				return err
			}
			if rel.kind == simDuplicate {
				full[n.doc] = true
			}
			if n.cos < r.th.SimilarMin {
				continue
			}
			top, err := r.topK(ctx, n.doc)
			if err != nil {
				return err
			}
			if slices.ContainsFunc(top, func(t simNeighbour) bool { return t.doc == d.DocumentID }) {
				affected[n.doc] = true
			}
		}
	}
	wrote, err := store.PutDocVector(ctx, run.Tx, run.Space, d.DocumentID, vec, len(set))
	if err != nil {
		return err
	}
	if wrote {
		if err := x.tail(ctx, ix, run.Tx); err != nil {
			return err
		}
	}
	if vec != nil {
		if e, ok := ix.entry(d.DocumentID); ok {
			x.shingles.put(d.DocumentID, e.seq, set)
		}
		if wrote { // a vector already there took its place in every top k when it was written
			if err := r.entering(ctx, d.DocumentID, affected); err != nil {
				return err
			}
			if err := r.newOldest(ctx, d.DocumentID, full); err != nil {
				return err
			}
		}
	}
	// D's links of every type; its neighbours' SIMILAR_TO only: how a neighbour relates to D by
	// text is D's link (just written, or retracted with D), and to anyone else did not change.
	if err := r.replace(ctx, false, d.DocumentID); err != nil {
		return err
	}
	delete(full, d.DocumentID)
	if err := r.replace(ctx, false, sortedKeys(full)...); err != nil {
		return err
	}
	for id := range full {
		delete(affected, id)
	}
	delete(affected, d.DocumentID)
	return r.replace(ctx, true, sortedKeys(affected)...)
}

// newOldest adds to full the near-duplicates of doc that doc is older than: their DUPLICATE_OF
// (to the oldest of their near-duplicates) may now point to doc.
func (r *simRun) newOldest(ctx context.Context, doc string, full map[string]bool) error {
	var dups []string
	for _, n := range r.ix.neighbours(doc, r.th.floor()) {
		if n.cos < r.th.DuplicateMinCosine {
			break
		}
		rel, err := r.rel(ctx, doc, n.doc, n.cos)
		if err != nil {
			return err
		}
		if rel.kind == simDuplicate {
			dups = append(dups, n.doc)
		}
	}
	if err := r.loadDocs(ctx, append(dups, doc)); err != nil {
		return err
	}
	for _, y := range dups {
		if simOlder(r.docs[doc], r.docs[y]) {
			full[y] = true
		}
	}
	return nil
}

// maxEntering bounds the neighbours entering looks at: the closest ones. In a folder of notes
// on the same few subjects every note is above the threshold for every other, and looking at
// each of them for each new note made linking cost more the bigger the store (a shingle
// comparison per neighbour); a neighbour further down keeps its links until its own next run.
const maxEntering = 64

// entering adds to affected the neighbours of doc that may lose a SIMILAR_TO link because doc
// now ranks above it in their top k: those with a link scoring no more than their cosine with
// doc (a link to their k-th can drop only then). One query over the neighbours.
func (r *simRun) entering(ctx context.Context, doc string, affected map[string]bool) error {
	var nb []simNeighbour
	for _, n := range r.ix.neighbours(doc, r.th.floor()) {
		if n.cos < r.th.SimilarMin || len(nb) == maxEntering {
			break // the list is by cosine, highest first
		}
		nb = append(nb, n)
	}
	if len(nb) == 0 {
		return nil
	}
	ids := make([]string, len(nb))
	for i, n := range nb {
		ids[i] = n.doc
	}
	if err := r.loadDocs(ctx, ids); err != nil {
		return err
	}
	ents := make([]string, 0, len(nb))
	for _, id := range ids {
		if e := r.docs[id].EntityID; e != "" {
			ents = append(ents, e)
		}
	}
	mins, err := store.MinDerivedScores(ctx, r.run.Tx, r.x.Name(), TypeSimilar, ents)
	if err != nil {
		return err
	}
	for _, n := range nb {
		m, ok := mins[r.docs[n.doc].EntityID]
		if !ok || m > n.cos+1e-4 { // scores are stored to 4 decimals
			continue
		}
		rel, err := r.rel(ctx, doc, n.doc, n.cos)
		if err != nil {
			return err
		}
		if rel.kind == simNone { // a related pair is in neither's top k
			affected[n.doc] = true
		}
	}
	return nil
}

// replace recomputes and replaces the links of each document in docs (every link of this
// enrichment with an end at the document, or with similarOnly its SIMILAR_TO links).
func (r *simRun) replace(ctx context.Context, similarOnly bool, docs ...string) error {
	if err := r.loadDocs(ctx, docs); err != nil {
		return err
	}
	for _, id := range docs {
		d, ok := r.docs[id]
		if !ok || d.EntityID == "" {
			continue
		}
		links, dup, err := r.linksOf(ctx, d, similarOnly)
		if err != nil {
			return err
		}
		if similarOnly {
			if err := r.run.Replace(ctx, store.LinkScope{Types: []string{TypeSimilar}, Touching: []string{d.EntityID}}, links); err != nil {
				return err
			}
			continue
		}
		if err := r.run.Replace(ctx, store.LinkScope{Types: []string{TypeSimilar, TypeContainedIn}, Touching: []string{d.EntityID}}, links); err != nil {
			return err
		}
		// A document's DUPLICATE_OF is its own (one, to the oldest near-duplicate): the links
		// pointing to it are its duplicates'.
		if err := r.run.Replace(ctx, store.LinkScope{Types: []string{TypeDuplicateOf}, SourceIn: []string{d.EntityID}}, dup); err != nil {
			return err
		}
	}
	return nil
}

func simLive(d store.Document) bool { live, _ := emissions(d); return live }

// linksOf derives the SIMILAR_TO and CONTAINED_IN links with an end at d (similarOnly: its
// SIMILAR_TO links), and d's own DUPLICATE_OF: to its original if it is a byte-identical copy,
// else to the oldest of its near-duplicates that is older than d. One link per document, not
// one per pair: n versions of a template are n-1 links, not n(n-1)/2.
func (r *simRun) linksOf(ctx context.Context, d store.Document, similarOnly bool) (links, dup []store.DerivedLink, err error) {
	if !simLive(d) || similarOnly && r.ix == nil {
		return nil, nil, nil
	}
	if !similarOnly {
		if dup, err = r.sameBytes(ctx, d); err != nil {
			return nil, nil, err
		}
	}
	if r.ix == nil {
		return nil, dup, nil
	}
	if _, ok := r.ix.entry(d.DocumentID); !ok {
		return nil, dup, nil
	}
	var top []simNeighbour
	if similarOnly {
		if top, err = r.topK(ctx, d.DocumentID); err != nil {
			return nil, nil, err
		}
	}
	var oldest *simRel
	var oldestCos float64
	for _, n := range r.ix.neighbours(d.DocumentID, r.th.floor()) {
		if similarOnly {
			break
		}
		rel, err := r.rel(ctx, d.DocumentID, n.doc, n.cos)
		if err != nil {
			return nil, nil, err
		}
		if rel.kind == simUnequal {
			continue
		}
		if rel.kind == simDuplicate {
			if err := r.loadDocs(ctx, []string{n.doc}); err != nil {
				return nil, nil, err
			}
			if simOlder(r.docs[n.doc], d) && (oldest == nil || simOlder(r.docs[n.doc], r.docs[oldestDoc(oldest, d.DocumentID)])) {
				oldest, oldestCos = &rel, n.cos
			}
			continue
		}
		if rel.kind != simNone {
			l, err := r.relLink(ctx, rel, n.cos)
			if err != nil {
				return nil, nil, err
			}
			if l.ID != "" {
				links = append(links, l)
			}
			continue
		}
		if len(top) < r.x.settings.TopK && n.cos >= r.th.SimilarMin {
			top = append(top, n)
		}
	}
	for _, n := range top {
		theirs, err := r.topK(ctx, n.doc)
		if err != nil {
			return nil, nil, err
		}
		if !slices.ContainsFunc(theirs, func(t simNeighbour) bool { return t.doc == d.DocumentID }) {
			continue
		}
		l, err := r.similarLink(ctx, d.DocumentID, n.doc, n.cos)
		if err != nil {
			return nil, nil, err
		}
		if l.ID != "" {
			links = append(links, l)
		}
	}
	if oldest != nil && d.DuplicateOf == "" {
		l, err := r.relLink(ctx, *oldest, oldestCos)
		if err != nil {
			return nil, nil, err
		}
		if l.ID != "" {
			dup = append(dup, l)
		}
	}
	return links, dup, nil
}

// oldestDoc is the other end of a near-duplicate relation of doc.
func oldestDoc(rel *simRel, doc string) string {
	if rel.src == doc {
		return rel.tgt
	}
	return rel.src
}

// topK is doc's top k neighbours at or above similar_min, pairs related otherwise left out.
func (r *simRun) topK(ctx context.Context, doc string) ([]simNeighbour, error) {
	var top []simNeighbour
	for _, n := range r.ix.neighbours(doc, r.th.floor()) {
		if len(top) == r.x.settings.TopK || n.cos < r.th.SimilarMin {
			break
		}
		rel, err := r.rel(ctx, doc, n.doc, n.cos)
		if err != nil {
			return nil, err
		}
		if rel.kind == simNone {
			top = append(top, n)
		}
	}
	return top, nil
}

// sameBytes is the DUPLICATE_OF link of a byte-identical copy: d → its original. The ingest
// found it by content hash; no vector is needed (a copy has no chunks of its own).
func (r *simRun) sameBytes(ctx context.Context, d store.Document) ([]store.DerivedLink, error) {
	var pairs [][2]store.Document
	if d.DuplicateOf != "" {
		if err := r.loadDocs(ctx, []string{d.DuplicateOf}); err != nil {
			return nil, err
		}
		if o, ok := r.docs[d.DuplicateOf]; ok && simLive(o) {
			pairs = append(pairs, [2]store.Document{d, o})
		}
	}
	var out []store.DerivedLink
	for _, p := range pairs {
		cp, orig := p[0], p[1]
		if cp.EntityID == "" || orig.EntityID == "" {
			continue
		}
		if err := r.ensureEntities(ctx, cp, orig); err != nil {
			return nil, err
		}
		ev := []Evidence{simDocEvidence(cp, "content_hash", cp.ContentHash), simDocEvidence(orig, "content_hash", orig.ContentHash)}
		out = append(out, r.run.Link(TypeDuplicateOf, cp.EntityID, orig.EntityID, 1, ev, []string{cp.DocumentID, orig.DocumentID},
			map[string]any{"rule": "same_bytes"}))
	}
	return out, nil
}

func simDocEvidence(d store.Document, field, value string) Evidence {
	return Evidence{Kind: "document", ID: d.DocumentID, DocumentID: d.DocumentID, Path: d.Path, Title: d.Title, Field: field, Value: value}
}

// ensureEntities registers a document's own entity where it has none yet (a byte-identical
// copy is registered without analysis): both ends of a link must exist.
func (r *simRun) ensureEntities(ctx context.Context, docs ...store.Document) error {
	for _, d := range docs {
		var n int
		if err := r.run.Tx.QueryRowContext(ctx, `SELECT count(*) FROM entities WHERE entity_id = ?`, d.EntityID).Scan(&n); err != nil {
			return fmt.Errorf("look up entity %s: %w", d.EntityID, err)
		}
		if n > 0 {
			continue
		}
		name := d.Title
		if name == "" {
			name = d.DocumentID
		}
		if err := store.UpsertEntities(ctx, r.run.Tx, []store.Entity{{EntityID: d.EntityID, EntityType: "document", CanonicalName: name,
			IdentityKey: d.DocumentID, CreatedAt: r.run.Now}}); err != nil {
			return err
		}
	}
	return nil
}

func (r *simRun) loadDocs(ctx context.Context, ids []string) error {
	var miss []string
	for _, id := range ids {
		if _, ok := r.docs[id]; !ok {
			miss = append(miss, id)
		}
	}
	if len(miss) == 0 {
		return nil
	}
	list, err := store.DocumentsByID(ctx, r.run.Tx, miss)
	if err != nil {
		return err
	}
	for _, d := range list {
		r.docs[d.DocumentID] = d
	}
	return nil
}

// docVector is a document's mean vector in the run's space and its shingle set; nil while any
// of its chunks has no vector there yet (a mean over part of a document would be another
// document's vector).
func (r *simRun) docVector(ctx context.Context, doc string) ([]float32, []uint64, error) {
	return docVectorOf(ctx, r.run.Tx, doc, r.run.Space)
}

// simPrep is a document's vector and shingle set, worked out before the transaction.
type simPrep struct {
	vec []float32
	set []uint64
}

// Prepare implements Preparer: the document's vector in the space that answers searches.
func (x *EmbeddingSimilarity) Prepare(ctx context.Context, p *Prep) (any, error) {
	if p.Space == "" || p.Doc.DuplicateOf != "" {
		return nil, nil
	}
	vec, set, err := docVectorOf(ctx, p.Q, p.Doc.DocumentID, p.Space)
	return simPrep{vec: vec, set: set}, err
}

func docVectorOf(ctx context.Context, q store.Q, doc, space string) ([]float32, []uint64, error) {
	cvs, err := store.ChunkVectorsOf(ctx, q, doc, space, false, MaxDocChunks)
	if err != nil {
		return nil, nil, err
	}
	texts, err := store.ChunkTextsOf(ctx, q, doc, MaxDocChunks)
	if err != nil {
		return nil, nil, err
	}
	if len(cvs) == 0 || len(cvs) != len(texts) {
		return nil, nil, nil
	}
	// A file that says next to nothing in words (minified code, a search index, a source map,
	// "moved file 12") is similar to nothing: its vector is its markup's, or too short to mean
	// anything, and thousands of such files all "look related" to each other.
	if proseWords(texts) < minProseWords {
		return nil, nil, nil
	}
	vs := make([][]float32, len(cvs))
	for i, c := range cvs {
		vs[i] = c.Vector
	}
	v := simMean(vs)
	if v == nil {
		return nil, nil, nil
	}
	return v, simShingleSet(texts), nil
}

// simRel is how two documents relate by their text, beyond their vectors.
type simRel struct {
	kind     int     // simNone, simDuplicate, simContained
	src, tgt string  // the link's direction (for simContained: src is inside tgt)
	cSrc     float64 // share of src's shingles in tgt
	cTgt     float64 // share of tgt's shingles in src
}

const (
	simNone = iota
	simDuplicate
	simContained
	simUnequal // sizes too far apart to call the two similar (a whole book and a man page)
)

type simPairKey struct {
	a, b       string
	seqA, seqB int64
}

// rel decides whether a and b (cosine cos) are near-identical or one contains the other. Sizes
// decide first: containment c of A in B needs |B| ≥ c·|A|, so a pair whose shingle counts
// cannot meet the thresholds is neither, without reading any text.
func (r *simRun) rel(ctx context.Context, a, b string, cos float64) (simRel, error) {
	if b < a {
		a, b = b, a
	}
	ea, oka := r.ix.entry(a)
	eb, okb := r.ix.entry(b)
	if !oka || !okb {
		return simRel{}, nil
	}
	key := simPairKey{a, b, ea.seq, eb.seq}
	if rel, ok := r.x.rels[key]; ok {
		return rel, nil
	}
	na, nb := float64(ea.shingles), float64(eb.shingles)
	th := r.th
	dup := cos >= th.DuplicateMinCosine && na > 0 && nb > 0 && min(na, nb) >= th.DuplicateMinContain*max(na, nb)
	aInB := cos >= th.SimilarMin && nb*th.ContainedMaxReverse > na*th.ContainedMin && na > 0
	bInA := cos >= th.SimilarMin && na*th.ContainedMaxReverse > nb*th.ContainedMin && nb > 0
	rel := simRel{}
	if na > 0 && nb > 0 && max(na, nb) > th.SimilarMaxSizeRatio*min(na, nb) {
		rel.kind = simUnequal // unless one contains the other (below)
	}
	if dup || aInB || bInA {
		sa, err := r.shingleSet(ctx, a, ea)
		if err != nil {
			return rel, err
		}
		sb, err := r.shingleSet(ctx, b, eb)
		if err != nil {
			return rel, err
		}
		cab, cba := search.Containment(sa, sb), search.Containment(sb, sa)
		switch {
		case dup && cab >= th.DuplicateMinContain && cba >= th.DuplicateMinContain:
			rel = simRel{kind: simDuplicate, src: a, tgt: b, cSrc: cab, cTgt: cba} // direction decided in relLink
		case cab >= th.ContainedMin && cba < th.ContainedMaxReverse:
			rel = simRel{kind: simContained, src: a, tgt: b, cSrc: cab, cTgt: cba}
		case cba >= th.ContainedMin && cab < th.ContainedMaxReverse:
			rel = simRel{kind: simContained, src: b, tgt: a, cSrc: cba, cTgt: cab}
		}
	}
	if len(r.x.rels) > 200_000 {
		r.x.rels = map[simPairKey]simRel{}
	}
	r.x.rels[key] = rel
	return rel, nil
}

func (r *simRun) shingleSet(ctx context.Context, doc string, e simEntry) ([]uint64, error) {
	if s, ok := r.x.shingles.get(doc, e.seq); ok {
		return s, nil
	}
	texts, err := store.ChunkTextsOf(ctx, r.run.Tx, doc, MaxDocChunks)
	if err != nil {
		return nil, err
	}
	s := simShingleSet(texts)
	r.x.shingles.put(doc, e.seq, s)
	return s, nil
}

// relLink is the DUPLICATE_OF or CONTAINED_IN link of a related pair. A near-duplicate points
// to the older version: the older file (mtime), then the smaller document ID — never the order
// the files were registered in, which differs between two builds of the same folder.
func (r *simRun) relLink(ctx context.Context, rel simRel, cos float64) (store.DerivedLink, error) {
	if err := r.loadDocs(ctx, []string{rel.src, rel.tgt}); err != nil {
		return store.DerivedLink{}, err
	}
	src, tgt := r.docs[rel.src], r.docs[rel.tgt]
	if src.EntityID == "" || tgt.EntityID == "" { // a document deleted outright: nothing to link
		return store.DerivedLink{}, nil
	}
	typ, score, rule := TypeContainedIn, rel.cSrc, "contained"
	cSrc, cTgt := rel.cSrc, rel.cTgt
	if rel.kind == simDuplicate {
		typ, score, rule = TypeDuplicateOf, min(rel.cSrc, rel.cTgt), "near_identical"
		if simOlder(src, tgt) {
			src, tgt, cSrc, cTgt = tgt, src, cTgt, cSrc
		}
	}
	ev, err := r.bestPair(ctx, src, tgt)
	if err != nil {
		return store.DerivedLink{}, err
	}
	if err := r.ensureEntities(ctx, src, tgt); err != nil {
		return store.DerivedLink{}, err
	}
	return r.run.Link(typ, src.EntityID, tgt.EntityID, score, ev, []string{src.DocumentID, tgt.DocumentID}, map[string]any{
		"space": r.run.Space, "rule": rule, "cosine": round(cos),
		"source_in_target": round(cSrc), "target_in_source": round(cTgt),
	}), nil
}

// simOlder reports whether a is the older version of the two.
func simOlder(a, b store.Document) bool {
	if a.Mtime != b.Mtime && a.Mtime != "" && b.Mtime != "" {
		return a.Mtime < b.Mtime
	}
	return a.DocumentID < b.DocumentID
}

// similarLink is the SIMILAR_TO link of a and b, from the smaller entity ID to the larger.
func (r *simRun) similarLink(ctx context.Context, a, b string, cos float64) (store.DerivedLink, error) {
	if err := r.loadDocs(ctx, []string{a, b}); err != nil {
		return store.DerivedLink{}, err
	}
	da, db := r.docs[a], r.docs[b]
	if da.EntityID == "" || db.EntityID == "" {
		return store.DerivedLink{}, nil
	}
	if db.EntityID < da.EntityID {
		da, db = db, da
	}
	ev, err := r.bestPair(ctx, da, db)
	if err != nil {
		return store.DerivedLink{}, err
	}
	if err := r.ensureEntities(ctx, da, db); err != nil {
		return store.DerivedLink{}, err
	}
	return r.run.Link(TypeSimilar, da.EntityID, db.EntityID, cos, ev, []string{da.DocumentID, db.DocumentID},
		map[string]any{"space": r.run.Space}), nil
}

// bestPair is the evidence of a link between two documents' vectors: the pair of their chunks
// closest in the space (ties by ordinals), each cited by path, lines and a short quote, so a
// person can read why.
func (r *simRun) bestPair(ctx context.Context, a, b store.Document) ([]Evidence, error) {
	ca, err := r.chunks(ctx, a.DocumentID)
	if err != nil {
		return nil, err
	}
	cb, err := r.chunks(ctx, b.DocumentID)
	if err != nil {
		return nil, err
	}
	ia, ib := bestPairCandidates(ca, cb), bestPairCandidates(cb, ca)
	bi, bj, best := -1, -1, float32(-2)
	for _, i := range ia {
		for _, j := range ib {
			if c := simDot(ca[i].Vector, cb[j].Vector); c > best || (c == best && (i < bi || (i == bi && j < bj))) {
				bi, bj, best = i, j, c
			}
		}
	}
	if bi < 0 {
		return nil, nil
	}
	return []Evidence{simChunkEvidence(a, ca[bi], float64(best)), simChunkEvidence(b, cb[bj], float64(best))}, nil
}

// maxPairSide bounds the chunks of each document compared for a link's evidence: two files
// of 2,000 chunks would take 4 million products (a quarter of a second inside the write
// transaction); 256 × 256 take a sixtieth of that.
const maxPairSide = 256

// bestPairCandidates are the indexes of the chunks of a worth comparing with b's: all of them
// when both are small, else a's maxPairSide chunks closest to b's mean vector (ties by
// ordinal), in order. The pair found among them is the closest pair or one as close in all but
// rare cases, and it is always a real pair of passages with its real score.
func bestPairCandidates(a, b []store.ChunkVector) []int {
	idx := make([]int, len(a))
	for i := range idx {
		idx[i] = i
	}
	if len(a) <= maxPairSide && len(b) <= maxPairSide {
		return idx
	}
	vs := make([][]float32, len(b))
	for i, c := range b {
		vs[i] = c.Vector
	}
	mean := simMean(vs)
	if mean == nil || len(a) <= maxPairSide {
		return idx[:min(len(idx), maxPairSide)]
	}
	score := make([]float32, len(a))
	for i, c := range a {
		score[i] = simDot(c.Vector, mean)
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(score[y], score[x]) })
	idx = idx[:maxPairSide]
	slices.Sort(idx)
	return idx
}

// chunks are a document's chunks with their vectors and texts, from a small cache keyed by the
// document's vector row: the documents many others link to (print.html holds 76 chapters) are
// read once, not once per link.
func (r *simRun) chunks(ctx context.Context, doc string) ([]store.ChunkVector, error) {
	e, _ := r.ix.entry(doc)
	for _, c := range r.x.chunkCache {
		if c.doc == doc && c.seq == e.seq && e.seq != 0 {
			return c.chunks, nil
		}
	}
	cs, err := store.ChunkVectorsOf(ctx, r.run.Tx, doc, r.run.Space, true, MaxDocChunks)
	if err != nil {
		return nil, err
	}
	if e.seq != 0 {
		r.x.chunkCache = append(r.x.chunkCache, simChunks{doc: doc, seq: e.seq, chunks: cs})
		if len(r.x.chunkCache) > 8 {
			r.x.chunkCache = r.x.chunkCache[1:]
		}
	}
	return cs, nil
}

type simChunks struct {
	doc    string
	seq    int64
	chunks []store.ChunkVector
}

func simChunkEvidence(d store.Document, c store.ChunkVector, score float64) Evidence {
	return Evidence{Kind: "chunk", ID: c.ChunkID, DocumentID: d.DocumentID, Path: d.Path, Title: d.Title,
		LineStart: c.LineStart, LineEnd: c.LineEnd, Page: c.Page, Quote: simQuote(c.Text, 200), Score: round(score)}
}

// simQuote is the start of text with its whitespace collapsed, at most n bytes, cut at a word.
func simQuote(text string, n int) string {
	s := strings.Join(strings.Fields(text), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(s[:cut], ' '); i > n/2 {
		cut = i
	}
	return s[:cut] + "…"
}
