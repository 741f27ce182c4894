package search

import (
	"context"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/strata-app/strata/backend/store"
)

// Ranking documents, not chunks. Fusion scores chunks; a person looks for a document, and two
// failures came from ranking chunks alone (issue 13): one lucky chunk of a document that is
// not about the question beat the document that is (so each document is ranked by its best
// chunk plus, diminishing, its further matching chunks and a title that names the query's
// words), and a document that contains others (a book on one page, an export, a copy) won
// with the very passage its part holds (so documents holding the same passage become one
// result that cites the most specific of them and names the others).

// Bounds of the document-level work, so that it costs the same at 100k chunks as at 1k:
const (
	groupDocs      = 40  // documents, best first, that are compared for shared passages
	chunksPerDoc   = 4   // a document's chunks that count in its score: its best and three more
	chunksShared   = 12  // a document's chunks compared for shared passages
	shingleWords   = 3   // words per shingle: short enough that small edits and re-chunking leave most intact
	sameContaining = 0.6 // share of a passage's shingles another document must hold to hold it
	// A passage shorter than this many shingles (about a dozen words: a heading alone, a
	// one-line caption) holds too little to say another document holds it: every stub page
	// and table of contents that repeats a chapter's title "held" the chapter's passage.
	minSharedShingles = 10
	coveragePrior     = 4 // chunks added to a document's count in its coverage: one match in a one-chunk note is not full coverage
)

// docCand is a candidate document with the chunks that found it.
type docCand struct {
	id       string
	chunks   []*chunkCand // best first, at most chunksShared
	all      []*chunkCand // every candidate chunk of the document, best first (ties by chunk ID)
	score    float64
	ref      store.DocRef
	hasRef   bool
	best     []uint64 // sorted shingles of its best chunk
	union    []uint64 // sorted shingles of its counted chunks
	hasTexts bool
}

// group is a result to be: documents that hold the same passage, leader (best score) first.
type group struct {
	docs    []*docCand // the most specific first, then the others by score
	score   float64
	dups    []store.DocRef // byte-identical copies of members: they hold no chunks of their own
	holders []*docCand     // larger documents with results of their own that hold the passage too
}

// passes reports whether any chunk of the group has the evidence the floor asks for.
func (g *group) passes() bool {
	for _, d := range g.docs {
		for _, c := range d.chunks {
			if c.strong {
				return true
			}
		}
	}
	return false
}

// rank turns candidate chunks into ranked groups of documents, best first (ties by document
// ID), and returns the texts it read (the chunks of the first groupDocs documents) for citing.
func (s *Searcher) rank(ctx context.Context, cands map[int64]*chunkCand, st kwStats, w Weights) ([]*group, map[int64]string, error) {
	byDoc := map[string]*docCand{}
	for _, c := range cands {
		d := byDoc[c.hit.DocumentID]
		if d == nil {
			d = &docCand{id: c.hit.DocumentID}
			byDoc[d.id] = d
		}
		d.chunks = append(d.chunks, c)
	}
	ids := make([]string, 0, len(byDoc))
	for id := range byDoc {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	refs, err := store.DocRefs(ctx, s.DB.Reader(), ids)
	if err != nil {
		return nil, nil, err
	}
	tf, avgChunks, err := s.docTermCounts(ctx, st, w)
	if err != nil {
		return nil, nil, err
	}
	docs := make([]*docCand, 0, len(byDoc))
	for _, d := range byDoc {
		d.ref, d.hasRef = refs[d.id]
		sort.Slice(d.chunks, func(i, j int) bool { return d.chunks[i].better(d.chunks[j]) })
		matching := len(d.chunks)
		d.all = d.chunks
		d.chunks = d.chunks[:min(len(d.chunks), chunksShared)]
		d.score = d.chunks[0].score
		for i, c := range d.chunks[1:min(len(d.chunks), chunksPerDoc)] {
			d.score += w.Context * c.score / float64(i+2)
		}
		if w.Title > 0 && st.mass > 0 {
			d.score += w.Title * titleShare(d.chunks[0].hit, st)
		}
		if w.Coverage > 0 && d.hasRef {
			d.score += w.Coverage * float64(matching) / float64(d.ref.Chunks+coveragePrior)
		}
		if w.Document > 0 && d.hasRef {
			d.score += w.Document * docBM25(d, tf[d.id], st, avgChunks)
		}
		docs = append(docs, d)
	}
	sort.Slice(docs, func(i, j int) bool {
		if docs[i].score != docs[j].score {
			return docs[i].score > docs[j].score
		}
		return docs[i].id < docs[j].id
	})

	// The first documents' chunks' texts, to compare them.
	top := docs[:min(len(docs), groupDocs)]
	var rowids []int64
	for _, d := range top {
		for _, c := range d.chunks {
			rowids = append(rowids, c.hit.ChunkRowID)
		}
	}
	texts, err := store.ChunkTexts(ctx, s.DB.Reader(), rowids)
	if err != nil {
		return nil, nil, err
	}
	for _, d := range top {
		d.hasTexts = true
		for i, c := range d.chunks {
			c.shingles = shingles(texts[c.hit.ChunkRowID])
			if i == 0 {
				d.best = c.shingles
			}
			d.union = append(d.union, c.shingles...)
		}
		slices.Sort(d.union)
		d.union = slices.Compact(d.union)
	}

	// Group by passage: a document whose best passage a smaller candidate document also holds
	// (most of its shingles are among that one's matching chunks) is no result of its own but
	// joins the group of that smaller document (the best scoring one, if several hold it). The
	// smallest documents are settled first, so a book on one page joins each chapter's group
	// only through its own best passage and does not chain chapters together.
	bySize := slices.Clone(top)
	sort.SliceStable(bySize, func(i, j int) bool {
		return moreSpecific(bySize[i].ref, bySize[j].ref, bySize[i].hasRef, bySize[j].hasRef)
	})
	root := map[*docCand]*docCand{}
	rank := map[*docCand]int{}
	for i, d := range docs {
		rank[d] = i
	}
	for i, d := range bySize {
		var into *docCand
		for _, x := range bySize[:i] {
			if root[x] == x && (into == nil || rank[x] < rank[into]) && len(d.best) >= minSharedShingles && containment(d.best, x.union) >= sameContaining {
				into = x
			}
		}
		if into == nil {
			into = d
		}
		root[d] = into
	}
	var groups []*group
	byRoot := map[*docCand]*group{}
	for _, d := range docs {
		r, ok := root[d]
		if !ok {
			r = d // beyond the compared documents: a result of its own
		}
		if g := byRoot[r]; g != nil {
			// A root that ranks below a document it holds joined its group when that
			// document made it (below): it is a member once.
			if !slices.Contains(g.docs, d) {
				g.docs = append(g.docs, d)
			}
			continue
		}
		g := &group{docs: []*docCand{d}, score: d.score}
		if r != d {
			g.docs = []*docCand{r, d} // its root's group, which ranks as its best member
			g.score = max(r.score, d.score)
		}
		byRoot[r] = g
		groups = append(groups, g)
	}
	// A group's passage may be in larger documents that are groups of their own (a book on one
	// page holds every chapter's passages): they are named too.
	for _, g := range groups {
		r := g.docs[0]
		if len(r.best) < minSharedShingles {
			continue
		}
		for _, y := range top {
			if y != r && !slices.Contains(g.docs, y) && moreSpecific(r.ref, y.ref, r.hasRef, y.hasRef) && containment(r.best, y.union) >= sameContaining {
				g.holders = append(g.holders, y)
			}
		}
	}
	for _, r := range refs {
		if r.DuplicateOf == "" {
			continue
		}
		if _, isCand := byDoc[r.DocumentID]; isCand {
			continue
		}
		for _, g := range groups {
			if slices.ContainsFunc(append(g.docs, g.holders...), func(d *docCand) bool { return d.id == r.DuplicateOf }) {
				g.dups = append(g.dups, r)
				break
			}
		}
	}
	return groups, texts, nil
}

// docTermCounts counts, for each document, the chunks that hold each term read whole (from
// the postings keyword search read), and the index's chunks per document on average.
func (s *Searcher) docTermCounts(ctx context.Context, st kwStats, w Weights) (map[string][]int, float64, error) {
	if w.Document <= 0 || len(st.postings) == 0 {
		return nil, 0, nil
	}
	var all []int64
	for _, p := range st.postings {
		all = append(all, p.rowids...)
	}
	docOf, ndocs, err := store.ChunkDocuments(ctx, s.DB.Reader(), all)
	if err != nil {
		return nil, 0, err
	}
	tf := map[string][]int{}
	for i, p := range st.postings {
		for _, id := range p.rowids {
			doc, ok := docOf[id]
			if !ok {
				continue
			}
			if tf[doc] == nil {
				tf[doc] = make([]int, len(st.postings))
			}
			tf[doc][i]++
		}
	}
	return tf, st.chunks / float64(max(ndocs, 1)), nil
}

// docBM25 is BM25 over whole documents, with the chunks of a document that hold a term as its
// frequency and the document's chunks as its length, as a share of the query's IDF mass: what
// a plain file-level BM25 ranks by (on the held-out set it put the answer first more
// often than chunk ranking did).
func docBM25(d *docCand, tf []int, st kwStats, avgChunks float64) float64 {
	if tf == nil || st.mass <= 0 || avgChunks <= 0 {
		return 0
	}
	norm := bm25K1 * (1 - bm25B + bm25B*float64(max(d.ref.Chunks, 1))/avgChunks)
	var score float64
	term := func(i int) float64 {
		f := float64(tf[i])
		return st.postings[i].idf * float64(st.postings[i].uses) * f * (bm25K1 + 1) / (f + norm)
	}
	for i, p := range st.postings {
		if !p.compound {
			score += term(i)
			continue
		}
		alt := term(i) // the better of the two spellings, as for chunks (bm25.score)
		for _, k := range p.parts {
			alt -= term(k)
		}
		score += max(alt, 0)
	}
	return score / st.mass
}

// better orders chunks of one document best first, ties by chunk ID.
func (c *chunkCand) better(d *chunkCand) bool {
	if c.score != d.score {
		return c.score > d.score
	}
	return c.hit.ChunkID < d.hit.ChunkID
}

// moreSpecific orders a group's documents for citing: the smaller document first (the passage
// is a larger share of it: the chapter before the whole book, the plain text before its PDF),
// ties by document ID. A document whose size is unknown comes last.
func moreSpecific(a, b store.DocRef, aKnown, bKnown bool) bool {
	if aKnown != bKnown {
		return aKnown
	}
	if a.Size != b.Size {
		return a.Size < b.Size
	}
	return a.DocumentID < b.DocumentID
}

// titleShare is the share of the query's IDF mass whose terms the document's title or file
// name holds (stemmed as the index stems).
func titleShare(h store.SearchHit, st kwStats) float64 {
	base := filepath.Base(h.Path)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	have := map[string]bool{}
	for _, t := range ftsTokens(h.Title + " " + base) {
		have[t] = true
	}
	var got float64
	for term, idf := range st.idf {
		ok := true
		for _, tok := range strings.Split(term, " ") {
			ok = ok && have[tok]
		}
		if ok {
			got += idf
		}
	}
	return min(got/st.mass, 1)
}

// Shingles and Containment are shingles and containment for other packages: the enrichment
// that finds near-identical documents (enrich.EmbeddingSimilarity) uses the same definition of
// "the same passage" as the search that folds copies together.
func Shingles(text string) []uint64 { return shingles(text) }

// Containment is containment (see Shingles).
func Containment(a, b []uint64) float64 { return containment(a, b) }

// shingles are the hashes of the runs of shingleWords words of text (lower case, letters and
// digits only: markup, punctuation and whitespace do not tell two copies of a passage apart),
// sorted and distinct. Words are hashed as they are scanned, without being copied: this runs
// over every compared chunk of every search.
func shingles(text string) []uint64 {
	const prime = 1099511628211 // FNV-64's
	var ws []uint64
	h, in := uint64(14695981039346656037), false
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			h = (h ^ uint64(unicode.ToLower(r))) * prime
			in = true
			continue
		}
		if in {
			ws = append(ws, h)
			h, in = 14695981039346656037, false
		}
	}
	if in {
		ws = append(ws, h)
	}
	if len(ws) < shingleWords {
		return nil
	}
	out := make([]uint64, 0, len(ws)-shingleWords+1)
	for i := 0; i+shingleWords <= len(ws); i++ {
		var x uint64
		for _, w := range ws[i : i+shingleWords] {
			x = (x^w)*prime + 0x9e3779b97f4a7c15
		}
		out = append(out, x)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// containment is the share of a (sorted, distinct) that b (sorted, distinct) holds.
func containment(a, b []uint64) float64 {
	if len(a) == 0 {
		return 0
	}
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return float64(n) / float64(len(a))
}

// cite fills resp with the first q.Limit groups, each cited by the best chunk of its most
// specific document that has something to show: a chunk with no prose (only a reference
// definition block or an HTML comment, in a document stored from Markdown source) is no
// result, nor one that keyword search found only by words inside its markup; the next chunk
// takes its place, and a group with none is left out.
//
// A group was formed on the passages that found its documents best, and the passage it cites
// may be another one: a member that does not hold the cited passage is not named as holding it
// but becomes a result of its own, at its place by score (two licence files that share a
// paragraph of boilerplate are two results, not one citing the first file's own list of files
// "also in" the second).
func (s *Searcher) cite(ctx context.Context, q Query, groups []*group, texts map[int64]string) ([]Result, error) {
	queue := slices.Clone(groups)
	read := map[*group]bool{}
	var out []Result
	for i := 0; i < len(queue) && len(out) < q.Limit; i++ {
		if !read[queue[i]] {
			// Texts of the next few groups, read at once (those of the first groupDocs
			// documents were read for grouping).
			batch := queue[i:min(len(queue), i+max(q.Limit-len(out), 8))]
			if err := s.readTexts(ctx, batch, texts); err != nil {
				return nil, err
			}
			for _, g := range batch {
				read[g] = true
			}
		}
		g := queue[i]
		r, apart, ok := citeGroup(q, g, texts)
		if len(apart) > 0 {
			for _, d := range apart {
				queue = enqueue(queue, i+1, g.split(d))
			}
			// Without them the group may rank lower: it is cited again at its place.
			queue = enqueue(queue, i+1, g)
			continue
		}
		if ok {
			out = append(out, r)
		}
	}
	if err := fillLines(ctx, s.DB.Reader(), out); err != nil {
		return nil, err
	}
	return out, nil
}

// readTexts adds to texts those of the groups' chunks it lacks: the cited candidates of
// documents beyond the compared ones, and every document's further passages (otherPassages).
func (s *Searcher) readTexts(ctx context.Context, groups []*group, texts map[int64]string) error {
	var missing []int64
	for _, g := range groups {
		for _, d := range g.docs {
			for _, c := range d.chunks {
				if _, ok := texts[c.hit.ChunkRowID]; !ok && !d.hasTexts {
					missing = append(missing, c.hit.ChunkRowID)
				}
			}
			for _, c := range d.all[len(d.chunks):] {
				if _, ok := texts[c.hit.ChunkRowID]; !ok && c.strong {
					missing = append(missing, c.hit.ChunkRowID)
				}
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	more, err := store.ChunkTexts(ctx, s.DB.Reader(), missing)
	if err != nil {
		return err
	}
	for id, t := range more {
		texts[id] = t
	}
	return nil
}

// before reports whether g ranks above h as rank ordered them: by score, ties by the ID of
// the member that gives the score.
func (g *group) before(h *group) bool {
	if g.score != h.score {
		return g.score > h.score
	}
	return g.lead().id < h.lead().id
}

// lead is the member that gives g its score: the best scoring, ties by ID.
func (g *group) lead() *docCand {
	l := g.docs[0]
	for _, d := range g.docs[1:] {
		if d.score > l.score || d.score == l.score && d.id < l.id {
			l = d
		}
	}
	return l
}

// split takes d out of g as a group of its own, with its byte-identical copies; g's score is
// then that of its best remaining member.
func (g *group) split(d *docCand) *group {
	out := &group{docs: []*docCand{d}, score: d.score}
	g.docs = slices.DeleteFunc(g.docs, func(x *docCand) bool { return x == d })
	g.dups = slices.DeleteFunc(g.dups, func(r store.DocRef) bool {
		if r.DuplicateOf == d.id {
			out.dups = append(out.dups, r)
			return true
		}
		return false
	})
	g.score = g.lead().score
	return out
}

// enqueue inserts g into queue at its place by rank, at from or after it.
func enqueue(queue []*group, from int, g *group) []*group {
	at := from
	for at < len(queue) && !g.before(queue[at]) {
		at++
	}
	return slices.Insert(queue, at, g)
}

// holds reports whether d holds the passage of shingles sh: most of them are among its
// compared chunks. A passage of a few words (a heading alone) is held by no other document.
func (d *docCand) holds(sh []uint64) bool {
	return len(sh) >= minSharedShingles && containment(sh, d.union) >= sameContaining
}

// citeGroup cites g (see cite), and returns the members that do not hold the passage cited.
func citeGroup(q Query, g *group, texts map[int64]string) (Result, []*docCand, bool) {
	docs := slices.Clone(g.docs)
	sort.SliceStable(docs, func(i, j int) bool { return moreSpecific(docs[i].ref, docs[j].ref, docs[i].hasRef, docs[j].hasRef) })
	for _, d := range docs {
		for _, c := range d.chunks {
			t, ok := texts[c.hit.ChunkRowID]
			if !ok {
				t = c.hit.Snippet // the chunk's opening, as the store gave it
			}
			snip, spans, inMarkup := snippet(t, q.Text, 32)
			if snip == "" || inMarkup && !c.byVec {
				continue // only markup, or found only by words in its markup
			}
			// Another document holds the passage when it holds most of the cited chunk and
			// most of the words the snippet shows (a chunk mostly of shared boilerplate may
			// show words of its own).
			shown := shingles(snip)
			holds := func(y *docCand) bool { return y.holds(c.shingles) && y.holds(shown) }
			var holding, apart []*docCand
			for _, y := range docs {
				switch {
				case y == d:
					holding = append(holding, y)
				case holds(y):
					holding = append(holding, y)
				default:
					apart = append(apart, y)
				}
			}
			if len(apart) > 0 {
				return Result{}, apart, false
			}
			var dups []store.DocRef
			for _, r := range g.dups {
				if slices.ContainsFunc(holding, func(y *docCand) bool { return y.id == r.DuplicateOf }) {
					dups = append(dups, r)
				}
			}
			for _, y := range g.holders {
				if holds(y) {
					holding = append(holding, y)
				}
			}
			h := c.hit
			r := Result{DocumentID: h.DocumentID, Path: h.Path, Title: h.Title, ChunkID: h.ChunkID,
				Snippet: snip, Highlights: spans, LineStart: h.LineStart, LineEnd: h.LineEnd, Page: h.Page, Heading: strings.TrimSpace(inline(h.Heading)),
				Score: round(g.score), Modes: c.modes}
			r.Line = h.LineStart
			if i, off, ok := snippetAt(t, snip, spans); ok {
				r.lines = append(r.lines, lineAt{h.ChunkRowID, h.ChunkID, i, off, -1})
			}
			r.AlsoIn, r.AlsoInCount = alsoIn(d, c, holding, dups)
			for k := range r.AlsoIn {
				a := &r.AlsoIn[k]
				a.Line = a.LineStart
				if at, ok := texts[a.rowid]; ok {
					if i, off, ok := snippetAt(at, snip, spans); ok {
						r.lines = append(r.lines, lineAt{a.rowid, a.chunkID, i, off, alsoInAt(k)})
					}
				}
			}
			var at []lineAt
			r.OtherPassages, at, r.OtherPassagesCount = otherPassages(q, d, c, texts)
			r.lines = append(r.lines, at...)
			for _, n := range d.chunks {
				if n != c && len(r.Next) < maxNext {
					r.Next = append(r.Next, n.hit.ChunkID)
				}
			}
			return r, nil, true
		}
	}
	return Result{}, nil, false
}

// otherPassages are the places of d besides the cited chunk that the query found: its
// candidate chunks that pass the floor of evidence themselves and whose snippet shows some of
// the query's words (so never a chunk of markup alone, as citeGroup asks of the cited one).
// Vectors alone are not enough here: within a document about the question every paragraph is
// near it, and static vectors brought "the hedge along the lane was cut" for "heron colony"
// (in semantic mode, which has no floor on cosines, every chunk of the document). The best
// maxPassages of them (d.all is best first, ties by chunk ID), in the document's order (page,
// line, chunk ID), and how many there are.
func otherPassages(q Query, d *docCand, cited *chunkCand, texts map[int64]string) ([]Passage, []lineAt, int) {
	type found struct {
		p     Passage
		rowid int64
		idx   int
		off   int
		ok    bool
	}
	var list []found
	n := 0
	for _, c := range d.all {
		if c == cited || !c.strong {
			continue
		}
		t, ok := texts[c.hit.ChunkRowID]
		if !ok {
			t = c.hit.Snippet
		}
		snip, spans, _ := snippet(t, q.Text, passageWidth)
		if len(spans) == 0 { // no prose, or none of the query's words outside markup
			continue
		}
		n++
		if len(list) < maxPassages {
			h := c.hit
			idx, off, ok := snippetAt(t, snip, spans)
			list = append(list, found{Passage{ChunkID: h.ChunkID, LineStart: h.LineStart, LineEnd: h.LineEnd, Line: h.LineStart,
				Page: h.Page, Heading: strings.TrimSpace(inline(h.Heading)), Snippet: snip, Highlights: spans}, h.ChunkRowID, idx, off, ok})
		}
	}
	// The document's order: by page, then line (a chunk's first line, then the line of its
	// text: chunks do not share lines), then chunk ID.
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.p.Page != b.p.Page {
			return a.p.Page < b.p.Page
		}
		if a.p.LineStart != b.p.LineStart {
			return a.p.LineStart < b.p.LineStart
		}
		if a.idx != b.idx {
			return a.idx < b.idx
		}
		return a.p.ChunkID < b.p.ChunkID
	})
	var out []Passage
	var at []lineAt
	for i, f := range list {
		out = append(out, f.p)
		if f.ok {
			at = append(at, lineAt{f.rowid, f.p.ChunkID, f.idx, f.off, i})
		}
	}
	return out, at, n
}

// alsoIn names the documents of a group other than the cited one, most specific first, each
// with the place of its chunk that holds most of the cited passage; a byte-identical copy with
// the place of the chunk it shares.
func alsoIn(cited *docCand, at *chunkCand, docs []*docCand, dups []store.DocRef) ([]AlsoIn, int) {
	type entry struct {
		ref   store.DocRef
		known bool
		at    store.SearchHit
	}
	where := func(d *docCand) store.SearchHit {
		if d == cited {
			return at.hit
		}
		best, share := d.chunks[0].hit, -1.0
		for _, c := range d.chunks {
			if s := containment(at.shingles, c.shingles); s > share {
				best, share = c.hit, s
			}
		}
		return best
	}
	var es []entry
	for _, d := range docs {
		if d != cited {
			es = append(es, entry{d.ref, d.hasRef, where(d)})
		}
	}
	for _, r := range dups {
		for _, d := range docs {
			if d.id == r.DuplicateOf {
				es = append(es, entry{r, true, where(d)})
			}
		}
	}
	sort.SliceStable(es, func(i, j int) bool { return moreSpecific(es[i].ref, es[j].ref, es[i].known, es[j].known) })
	var out []AlsoIn
	for _, e := range es[:min(len(es), maxAlsoIn)] {
		a := AlsoIn{DocumentID: e.ref.DocumentID, Path: e.ref.Path, Title: e.ref.Title, LineStart: e.at.LineStart, LineEnd: e.at.LineEnd, Page: e.at.Page,
			rowid: e.at.ChunkRowID, chunkID: e.at.ChunkID}
		if !e.known {
			a.DocumentID, a.Path, a.Title = e.at.DocumentID, e.at.Path, e.at.Title
		}
		out = append(out, a)
	}
	return out, len(es)
}
