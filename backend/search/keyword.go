package search

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/strata-app/strata/backend/store"
)

// Keyword search ranks by FTS5's BM25 (headings weighted double). Asking FTS5 for the best N
// makes it score every chunk that matches any query word (~5 µs each with modernc's SQLite): a
// ten-word question matches half of a 100k-chunk index, 300 ms. Finding which chunks match is
// cheap (0.16–0.3 µs a match); scoring them is not. So unless the query matches little (then
// FTS5 ranks, exactly as before), the search runs in two stages, after Moffat and Zobel's
// "continue" strategy (Self-indexing inverted files for fast text retrieval, 1996):
//
//  1. Candidates. Each term is probed (its first `probe` matches: a rare term is then known
//     whole, a common one by an estimate of its frequency). Terms are then read rarest first
//     (a rare term says the most and costs the least) while the posting budget lasts, and each
//     chunk collects the IDF of the terms it contains; the best `candidates` go on. The most
//     common words of a big index are never read: they cannot bring in a chunk by themselves,
//     but they still count in stage 2.
//  2. Ranking. The candidates are scored here with BM25 over every query term, as FTS5 would
//     score them: the same tokenizer (tokenize.go), the index's own totals, the same formula
//     (TestBM25MatchesFTS5 checks the numbers). A term that was read or, within the budget,
//     counted has its exact frequency; only words too common for either keep an estimate.
//
// On the quality corpus this changes no ranking (recall@5 and MRR@10 as before). On the 100k
// benchmark corpus (random sentences, so long questions of mid-frequency words and few rare
// ones, a hard case) about 80% of exact BM25's top 10 are kept, in ~9 ms instead of ~300.

// keywordBudget bounds the work of one keyword search.
type keywordBudget struct {
	exact      int // total matches (summed over terms) up to which FTS5 ranks every match itself
	probe      int // matches read of each term to learn whether it is rare (and its frequency)
	postings   int // matches read in all to gather candidates
	candidates int // chunks scored with BM25 here
}

var defaultKeywordBudget = keywordBudget{exact: 1000, probe: 256, postings: 12_000, candidates: 300}

// BM25 parameters, FTS5's (k1 = 1.2, b = 0.75), and the column weights of migration 0003's rank
// (text 1, heading 2).
const (
	bm25K1         = 1.2
	bm25B          = 0.75
	weightText     = 1.0
	weightHeading  = 2.0
	maxKeywordBits = 64 // matchers (a phrase's tokens) one search can track; more: FTS5 ranks
)

// kwPhrase is one distinct term of a query (a word or a phrase) as FTS5 sees it.
type kwPhrase struct {
	toks     []string // its tokens, stemmed
	prefix   bool     // the last token matches as a prefix
	fetch    string   // FTS5 expression it is read with (without the prefix star, see below)
	pos      int      // first position in the query: orders ties
	uses     int      // how many times the query has it (each counts, as in FTS5)
	rowids   []int64  // matches read so far
	complete bool     // rowids holds every match
	df       float64  // document frequency, exact when complete
	bits     []int    // matcher bit of each token
	compound bool     // adjacent query words written as one (queryCompounds): not typed, so not counted in known
	parts    []int    // a compound's words that are terms of the query, by index in phrases
}

// kwStats is what a keyword search learned of the query's terms, for the ranking above it:
// how much of the query a chunk or a title holds, weighed by how telling each term is.
type kwStats struct {
	idf   map[string]float64 // a term's stemmed tokens joined by spaces → its IDF
	mass  float64            // Σ IDF over the query's terms: about what a chunk of average length holding each once scores
	known float64            // share of the query's distinct terms that occur in the index
	// terms are the query's terms with their IDF, for callers that weigh text by the query
	// (Response.Terms).
	terms []Term
	// postings are the chunks of every term that was read whole, with its IDF, when they are
	// few enough (docPostings) to map to documents for document-level BM25.
	postings []termPostings
	chunks   float64 // chunks in the index
}

type termPostings struct {
	idf    float64
	uses   int
	rowids []int64
	// A compound's words among the postings (by index), whose evidence it replaces where it is
	// the better (docBM25); nil for a word.
	parts    []int
	compound bool
}

// docPostings bounds the postings mapped to documents for document-level BM25: one b-tree
// lookup each into the chunks table, ~10 µs at 100k chunks (1500 postings were 15 ms of CPU a
// query, the ranking's largest cost). A query of rare words has its document-level evidence;
// the common words of a big index, whose IDF is small, are left out of it. On the quality
// corpus 600 ranks as well as 1500 (dev hybrid MRR@10 0.653 vs 0.646, mixed 0.869 both).
const docPostings = 600

// share is how much of the query's IDF mass a BM25 score amounts to (0 when unknown).
func (st kwStats) share(score float64) float64 {
	if st.mass <= 0 {
		return 0
	}
	return score / st.mass
}

func statsOf(phrases []*kwPhrase, n float64) kwStats {
	st := kwStats{idf: make(map[string]float64, len(phrases))}
	typed := 0
	for _, p := range phrases {
		idf := bm25IDF(p.df, n)
		st.idf[strings.Join(p.toks, " ")] = idf
		if p.compound {
			// The words it joins, written as one: a chunk scores the better of the two spellings
			// (bm25.score), so the pair counts once in the mass, by its words, and a share means
			// what it did (a chunk of average length holding every typed word once: 1).
			continue
		}
		st.mass += idf * float64(p.uses)
		typed++
		if p.df > 0 {
			st.known++
		}
	}
	if typed > 0 {
		st.known /= float64(typed)
	}
	st.chunks = n
	st.terms = termsOf(phrases, n)
	total := 0
	at := map[int]int{} // phrase → its postings
	for i, p := range phrases {
		if p.complete && len(p.rowids) > 0 && total+len(p.rowids) <= docPostings {
			total += len(p.rowids)
			tp := termPostings{idf: bm25IDF(p.df, n), uses: p.uses, rowids: p.rowids, compound: p.compound}
			for _, k := range p.parts {
				if j, ok := at[k]; ok {
					tp.parts = append(tp.parts, j)
				}
			}
			at[i] = len(st.postings)
			st.postings = append(st.postings, tp)
		}
	}
	return st
}

// keywordSearch returns the best `limit` keyword hits for text, best first, ties by chunk ID,
// and the IDF of its terms.
func keywordSearch(ctx context.Context, q store.Q, text string, f store.SearchFilter, limit int, bud keywordBudget) ([]store.SearchHit, kwStats, error) {
	terms := queryTerms(text)
	if len(terms) == 0 {
		return nil, kwStats{}, nil
	}
	match := joinTerms(terms)
	var st kwStats
	exact := func() ([]store.SearchHit, kwStats, error) {
		hits, err := store.KeywordSearch(ctx, q, match, f, limit)
		return hits, st, err
	}

	// Distinct phrases, each occurrence counted. A prefix term is first read as the whole word:
	// FTS5 expands a prefix by merging every indexed token that starts with it, which for a
	// common word costs more than all the rest of the query. Only if the word itself is rare
	// (likely still being typed) is the prefix read; stage 2 matches it as a prefix either way.
	var phrases []*kwPhrase
	var occ []int // phrase of each query term, in query order
	byKey := map[string]int{}
	nbits := 0
	for i, t := range terms {
		toks := ftsTokens(t.text)
		if len(toks) == 0 {
			continue // nothing FTS5 would index: it matches nothing
		}
		key := strings.Join(toks, " ")
		if t.prefix {
			key += "*"
		}
		if k, ok := byKey[key]; ok {
			phrases[k].uses++
			occ = append(occ, k)
			continue
		}
		p := &kwPhrase{toks: toks, prefix: t.prefix, fetch: queryTerm{text: t.text}.expr(), pos: i, uses: 1}
		for range toks {
			p.bits = append(p.bits, nbits)
			nbits++
		}
		byKey[key] = len(phrases)
		occ = append(occ, len(phrases))
		phrases = append(phrases, p)
	}
	if len(phrases) == 0 || nbits > maxKeywordBits {
		return exact()
	}
	// Adjacent words written as one (queryCompounds: "host name" → "hostname"), as further terms
	// while matcher bits last: the probe below is their lookup, and those the index does not hold
	// are dropped after it. A compound stands for the words it joins: a chunk scores the better
	// of the two spellings (bm25.score), as does a document (docBM25); it is not one of the
	// typed words that `known` counts. A query with compounds is always scored here, FTS5's own
	// ranking would add a compound's score to its words'.
	typed := len(phrases)
	for _, cw := range queryCompounds(text) {
		c := cw.word
		if nbits+len(phrases)-typed >= maxKeywordBits {
			break
		}
		toks := ftsTokens(c)
		if len(toks) != 1 {
			continue
		}
		if _, ok := byKey[toks[0]]; ok {
			continue // the query has the word itself
		}
		p := &kwPhrase{toks: toks, fetch: queryTerm{text: c}.expr(), pos: len(terms) + len(phrases), uses: 1, compound: true}
		for _, w := range []string{cw.first, cw.second} {
			if wt := ftsTokens(w); len(wt) == 1 {
				for _, key := range []string{wt[0], wt[0] + "*"} {
					if k, ok := byKey[key]; ok && !phrases[k].compound {
						p.parts = append(p.parts, k)
					}
				}
			}
		}
		byKey[toks[0]] = len(phrases)
		phrases = append(phrases, p)
	}

	// Probe each term: a rare one is read whole, a common one reveals itself.
	err := inParallel(ctx, len(phrases), func(i int) error {
		p := phrases[i]
		ids, err := store.MatchRowIDs(ctx, q, p.fetch, 0, bud.probe)
		if err == nil && p.prefix && len(ids) < bud.probe {
			p.fetch = queryTerm{text: terms[p.pos].text, prefix: true}.expr()
			ids, err = store.MatchRowIDs(ctx, q, p.fetch, 0, bud.probe)
		}
		p.rowids, p.complete = ids, len(ids) < bud.probe
		return err
	})
	if err != nil {
		return nil, st, err
	}
	withCompounds := false
	kept := phrases[:0]
	for _, p := range phrases {
		if !p.compound {
			kept = append(kept, p)
		} else if len(p.rowids) > 0 {
			p.bits = []int{nbits}
			nbits++
			occ = append(occ, len(kept))
			kept = append(kept, p)
			withCompounds = true
		}
	}
	phrases = kept
	total, allComplete := 0, true
	for _, p := range phrases {
		total += len(p.rowids)
		allComplete = allComplete && p.complete
	}
	totals, err := store.ReadFTSTotals(ctx, q)
	if err != nil {
		return nil, st, err
	}
	if totals.Rows == 0 {
		return nil, st, nil
	}
	n := float64(totals.Rows)
	if allComplete && total <= bud.exact && !withCompounds {
		for _, p := range phrases {
			p.df = float64(len(p.rowids))
		}
		st = statsOf(phrases, n)
		return exact()
	}
	lo, hi, err := store.ChunkRowIDSpan(ctx, q)
	if err != nil {
		return nil, st, err
	}
	for _, p := range phrases {
		p.df = estimateDF(p, n, lo, hi)
	}

	cands, err := gatherCandidates(ctx, q, phrases, n, bud)
	if err != nil {
		return nil, st, err
	}
	filtered := f.Narrows()
	var pass map[int64]store.SearchHit
	if filtered {
		// Filter a wider pool first, so that enough candidates survive to be scored.
		pool := cands[:min(len(cands), bud.candidates*4)]
		if pass, err = store.HitsByRowID(ctx, q, pool, f); err != nil {
			return nil, st, err
		}
		kept := cands[:0:0]
		for _, id := range pool {
			if _, ok := pass[id]; ok && len(kept) < bud.candidates {
				kept = append(kept, id)
			}
		}
		cands = kept
	} else {
		cands = cands[:min(len(cands), bud.candidates)]
	}

	// Stage 2, side by side where there is a core to spare: the candidates' text in two halves,
	// and exact counts of the terms stage 1 did not read, rarest first, while their estimated
	// matches fit in the posting budget (counting costs half as much as reading, and an
	// estimate from where a term's first matches end is off for words that cluster in some
	// documents, a manual's own vocabulary: on the quality corpus it cost a question).
	const halves = 2
	var unread []*kwPhrase
	for _, p := range phrases {
		if !p.complete {
			unread = append(unread, p)
		}
	}
	sort.SliceStable(unread, func(i, j int) bool { return unread[i].df < unread[j].df })
	for i, left := 0, bud.postings; i < len(unread); i++ {
		if left -= int(unread[i].df); left < 0 {
			unread = unread[:i]
		}
	}
	bodies := make([][]store.ChunkBody, halves)
	err = inParallel(ctx, halves+len(unread), func(i int) error {
		if i < halves {
			var err error
			bodies[i], err = store.ChunkBodies(ctx, q, cands[i*len(cands)/halves:(i+1)*len(cands)/halves])
			return err
		}
		p := unread[i-halves]
		c, err := store.MatchCount(ctx, q, p.fetch)
		p.df, p.complete = float64(c), err == nil
		return err
	})
	if err != nil {
		return nil, st, err
	}
	st = statsOf(phrases, n)
	type scored struct {
		rowid int64
		score float64
	}
	parts := make([][]scored, halves)
	avgdl := float64(totals.Tokens) / n
	err = inParallel(ctx, halves, func(h int) error {
		sc := newBM25(phrases, occ, n, avgdl)
		for _, b := range bodies[h] {
			if s := sc.score(b.Text, b.Heading); s > 0 {
				parts[h] = append(parts[h], scored{b.RowID, s})
			}
		}
		return nil
	})
	if err != nil {
		return nil, st, err
	}
	list := append(parts[0], parts[1]...)
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].rowid < list[j].rowid
	})
	// As in store.KeywordSearch: up to twice the limit, so that chunks of removed documents can
	// drop out; the second half is only loaded if some did.
	list = list[:min(len(list), limit*2)]
	hits := make([]store.SearchHit, 0, limit)
	for from := 0; from < len(list) && len(hits) < limit; {
		to := min(len(list), from+limit-len(hits))
		if !filtered {
			ids := make([]int64, 0, to-from)
			for _, s := range list[from:to] {
				ids = append(ids, s.rowid)
			}
			if pass, err = store.HitsByRowID(ctx, q, ids, f); err != nil {
				return nil, st, err
			}
		}
		for _, s := range list[from:to] {
			if h, ok := pass[s.rowid]; ok {
				h.Score, h.Snippet = s.score, ""
				hits = append(hits, h)
			}
		}
		from = to
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ChunkID < hits[j].ChunkID
	})
	return hits[:min(len(hits), limit)], st, nil
}

// inParallel runs fn(0..n-1) on up to GOMAXPROCS goroutines that it waits for, and returns the
// first error (the others still finish their current item and stop).
func inParallel(ctx context.Context, n int, fn func(i int) error) error {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("keyword search: %w", err)
			}
			if err := fn(i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next  atomic.Int64
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					next.Store(int64(n)) // no more items
					return
				}
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return fmt.Errorf("keyword search: %w", ctx.Err())
	}
	return first
}

// estimateDF is a phrase's document frequency: exact when every match was read, otherwise
// extrapolated from the rowid at which its first matches ended, as if matches and chunks were
// spread evenly over the rowids (lo..hi): cheap, unbiased when they are, and only ever used for
// words common enough that their weight (IDF) is small.
func estimateDF(p *kwPhrase, n float64, lo, hi int64) float64 {
	if p.complete || len(p.rowids) == 0 {
		return float64(len(p.rowids))
	}
	last := p.rowids[len(p.rowids)-1]
	est := float64(len(p.rowids)) * float64(hi-lo+1) / float64(max(last-lo+1, 1))
	return min(max(est, float64(len(p.rowids))), n)
}

// bm25IDF is FTS5's inverse document frequency, floored at a millionth for words in more than
// half the chunks.
func bm25IDF(df, n float64) float64 {
	idf := math.Log((n - df + 0.5) / (df + 0.5))
	if idf <= 0 {
		return 1e-6
	}
	return idf
}

// gatherCandidates runs stage 1 and returns candidate rowids, best first (ties by rowid).
func gatherCandidates(ctx context.Context, q store.Q, phrases []*kwPhrase, n float64, bud keywordBudget) ([]int64, error) {
	order := append([]*kwPhrase(nil), phrases...)
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].df != order[j].df {
			return order[i].df < order[j].df
		}
		return order[i].pos < order[j].pos
	})
	// The common terms the budget affords, rarest first, decided from the estimates so that
	// they can be read side by side. The rarest term is read even above the budget (up to a
	// hard cap), so that a query of nothing but common words still has candidates.
	var toRead []*kwPhrase
	planned := 0
	for _, p := range order {
		if !p.complete {
			if planned > 0 && planned+int(p.df) > bud.postings {
				break // too common for the budget, and so are the terms after it
			}
			toRead = append(toRead, p)
		}
		planned += int(p.df)
	}
	hardCap := max(bud.postings, bud.probe) * 4
	err := inParallel(ctx, len(toRead), func(i int) error {
		p := toRead[i]
		limit := 0 // within the budget by its estimate: read without a limit, which is cheaper
		if int(p.df) > bud.postings {
			limit = hardCap
		}
		more, err := store.MatchRowIDs(ctx, q, p.fetch, p.rowids[len(p.rowids)-1], limit) // after the probe's
		p.rowids = append(p.rowids, more...)
		if limit == 0 || len(more) < limit { // read whole: its frequency is now exact, for stage 2 too
			p.complete, p.df = true, float64(len(p.rowids))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var acc, spare []candidate // by rowid: each term's matches are merged in (they come sorted)
	for _, p := range order {
		if !p.complete && !slices.Contains(toRead, p) {
			continue // not read: it counts in stage 2 only
		}
		w := bm25IDF(p.df, n) * float64(p.uses)
		acc, spare = mergeScores(acc, p.rowids, w, spare[:0]), acc
	}
	k := min(len(acc), bud.candidates*4) // more than enough, filters included
	selectBest(acc, k)
	best := acc[:k]
	sort.Slice(best, func(i, j int) bool { return best[i].better(best[j]) })
	ids := make([]int64, len(best))
	for i, c := range best {
		ids[i] = c.rowid
	}
	return ids, nil
}

// candidate is a chunk with what stage 1 has found of it.
type candidate struct {
	rowid int64
	score float64
}

// better orders candidates best first, ties by rowid, so that every cut is deterministic.
func (c candidate) better(d candidate) bool {
	if c.score != d.score {
		return c.score > d.score
	}
	return c.rowid < d.rowid
}

// mergeScores adds w to the chunks of ids (ascending) in acc (by rowid), into out.
func mergeScores(acc []candidate, ids []int64, w float64, out []candidate) []candidate {
	i, j := 0, 0
	for i < len(acc) && j < len(ids) {
		switch a, id := acc[i], ids[j]; {
		case a.rowid < id:
			out = append(out, a)
			i++
		case a.rowid > id:
			out = append(out, candidate{id, w})
			j++
		default:
			out = append(out, candidate{id, a.score + w})
			i++
			j++
		}
	}
	out = append(out, acc[i:]...)
	for _, id := range ids[j:] {
		out = append(out, candidate{id, w})
	}
	return out
}

// selectBest reorders c so that its first k elements are the k best (in no particular order):
// quickselect with median-of-three pivots, linear on average.
func selectBest(c []candidate, k int) {
	lo, hi := 0, len(c)-1
	for lo < hi && k > lo && k <= hi {
		mid := lo + (hi-lo)/2
		if c[mid].better(c[lo]) {
			c[mid], c[lo] = c[lo], c[mid]
		}
		if c[hi].better(c[lo]) {
			c[hi], c[lo] = c[lo], c[hi]
		}
		if c[hi].better(c[mid]) {
			c[hi], c[mid] = c[mid], c[hi]
		}
		pivot := c[mid]
		i, j := lo, hi
		for i <= j {
			for c[i].better(pivot) {
				i++
			}
			for pivot.better(c[j]) {
				j--
			}
			if i <= j {
				c[i], c[j] = c[j], c[i]
				i++
				j--
			}
		}
		// Now c[lo..j] are no worse than the pivot and c[i..hi] no better; any between equal it.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

// bm25 scores chunks as FTS5's bm25(chunks_fts, 1.0, 2.0) would, for one query.
type bm25 struct {
	phrases []*kwPhrase
	occ     []int
	idf     []float64
	avgdl   float64
	exact   map[string]uint64 // stem → bits of the matchers it satisfies
	prefix  []prefixMatcher
	keep    [256]bool         // first bytes of every stem and prefix
	multi   bool              // some phrase has several tokens
	memo    map[string]uint64 // folded token → its bits: each distinct word is stemmed once

	freq  []float64
	masks []uint64
	buf   []byte
}

type prefixMatcher struct {
	tok []byte
	bit uint64
}

func newBM25(phrases []*kwPhrase, occ []int, n, avgdl float64) *bm25 {
	s := &bm25{phrases: phrases, occ: occ, avgdl: avgdl, exact: map[string]uint64{}, memo: map[string]uint64{},
		freq: make([]float64, len(phrases))}
	for _, p := range phrases {
		s.idf = append(s.idf, bm25IDF(p.df, n))
		s.multi = s.multi || len(p.toks) > 1
		for i, t := range p.toks {
			bit := uint64(1) << p.bits[i]
			s.keep[t[0]] = true
			if p.prefix && i == len(p.toks)-1 {
				s.prefix = append(s.prefix, prefixMatcher{[]byte(t), bit})
			} else {
				s.exact[t] |= bit
			}
		}
	}
	return s
}

// score is the chunk's BM25 score (positive; FTS5's rank is its negation).
func (s *bm25) score(text, heading string) float64 {
	clear(s.freq)
	tokens := 0
	for col, t := range [2]string{text, heading} {
		w := weightText
		if col == 1 {
			w = weightHeading
		}
		s.masks = s.masks[:0]
		sc := tokenScanner{text: t, buf: s.buf, keep: &s.keep}
		for {
			tok, ok := sc.next()
			if !ok {
				break
			}
			tokens++
			var m uint64
			if tok != nil {
				var seen bool
				if m, seen = s.memo[string(tok)]; !seen {
					key := string(tok)
					stem := porterStem(tok)
					m = s.exact[string(stem)]
					for _, p := range s.prefix {
						if bytes.HasPrefix(stem, p.tok) {
							m |= p.bit
						}
					}
					s.memo[key] = m
				}
			}
			if s.multi {
				s.masks = append(s.masks, m)
			}
			if m == 0 {
				continue
			}
			for i, p := range s.phrases {
				if len(p.toks) == 1 && m&(1<<p.bits[0]) != 0 {
					s.freq[i] += w
				}
			}
		}
		s.buf = sc.buf
		if s.multi {
			for i, p := range s.phrases {
				if len(p.toks) > 1 {
					s.freq[i] += w * float64(phraseHits(s.masks, p.bits))
				}
			}
		}
	}
	if tokens == 0 {
		return 0
	}
	// FTS5's arithmetic, term by term in query order (duplicates included), so that equal
	// inputs give bit-equal scores.
	d := float64(tokens)
	var score float64
	for _, i := range s.occ {
		if s.phrases[i].compound {
			continue
		}
		f := s.freq[i]
		score += s.idf[i] * ((f * (bm25K1 + 1.0)) / (f + bm25K1*(1-bm25B+bm25B*d/s.avgdl)))
	}
	// A compound is the words it joins written as one: a chunk gets the better of the two
	// spellings, not both (what the compound adds beyond its words' score, if anything).
	for i, p := range s.phrases {
		if !p.compound || s.freq[i] == 0 {
			continue
		}
		norm := bm25K1 * (1 - bm25B + bm25B*d/s.avgdl)
		f := s.freq[i]
		alt := s.idf[i] * ((f * (bm25K1 + 1.0)) / (f + norm))
		for _, k := range p.parts {
			f := s.freq[k]
			alt -= s.idf[k] * float64(s.phrases[k].uses) * ((f * (bm25K1 + 1.0)) / (f + norm))
		}
		if alt > 0 {
			score += alt
		}
	}
	return score
}

// phraseHits counts the positions where the tokens of a phrase (matcher bits, in order) follow
// one another.
func phraseHits(masks []uint64, phraseBits []int) int {
	hits := 0
	for i := 0; i+len(phraseBits) <= len(masks); i++ {
		ok := true
		for j, b := range phraseBits {
			if masks[i+j]&(1<<b) == 0 {
				ok = false
				break
			}
		}
		if ok {
			hits++
		}
	}
	return hits
}

// knownShare is the share of the query's distinct terms that occur in the index (one match of
// each is looked up), for a search by vectors alone; 1 when the query has no term.
func knownShare(ctx context.Context, q store.Q, text string) (float64, error) {
	terms := queryTerms(text)
	if len(terms) == 0 {
		return 1, nil
	}
	known := 0
	for _, t := range terms {
		ids, err := store.MatchRowIDs(ctx, q, t.expr(), 0, 1)
		if err != nil {
			return 0, err
		}
		if len(ids) > 0 {
			known++
		}
	}
	return float64(known) / float64(len(terms)), nil
}
