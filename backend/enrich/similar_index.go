package enrich

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// simIndex is one process's copy of the document vectors of one space (table doc_vectors),
// built from SQLite when first needed and then tailed by seq before each run, inside the run's
// transaction, so that several processes on one folder see the same vectors (DESIGN.md
// invariant 3). It is only a cache: dropping it loses nothing.
//
// Comparing one document with every other is a scan: 20k documents × 256 floats is ~5M
// multiply-adds, a few milliseconds, which is simpler than an index and exact (no recall
// question for the links). chromem-go stays the index of chunk search.
type simIndex struct {
	space  string
	dims   int
	loaded bool
	wm     int64  // the largest seq applied
	wmDoc  string // the document of that row: a rolled-back, reused seq shows as another document
	slot   map[string]int
	docs   []simEntry
	vecs   []float32 // slot*dims
	gen    uint64    // bumped on every applied row
	// lists caches neighbour lists, each exact at the gen it names. A run asks for its
	// neighbours' lists too (the mutual top-k check); a new note changes one row of the index,
	// so a list cached before it is brought up to date by comparing with the rows changed since
	// (changed), not by scanning every document again: one scan per new note instead of six.
	lists       map[string]simList
	changed     []int  // the slot each applied row changed, the first at gen changedFrom+1
	changedFrom uint64 // the gen before changed[0]
	cached      int    // entries in lists

	// The transaction last tailed in, the watermark before its own rows, and the documents
	// whose rows it applied as its own (see tail): those are read back as the table has them
	// when the next transaction begins or a rollback shows, instead of the whole copy being read
	// again (a second per 20k documents, inside the next transaction).
	tx          store.Q
	txFrom      int64
	txFromDoc   string
	sinceTxFrom []string
}

// simMaxRevert bounds the documents put back one by one after a rollback; past it the copy is
// read again whole.
const simMaxRevert = 4096

// simList is a neighbour list exact at gen at.
type simList struct {
	at uint64
	l  []simNeighbour
}

// Bounds of the neighbour-list cache: the rows remembered for bringing lists up to date (an
// older list is scanned again), the longest list kept (a folder of near-identical templates
// has lists of thousands: those are scanned when asked), and the entries kept in all.
const (
	simMaxChanged     = 4096
	simMaxCachedList  = 256
	simMaxCachedTotal = 1 << 20
)

type simEntry struct {
	id       string
	seq      int64
	shingles int
	live     bool
}

// simNeighbour is another document and its cosine with the one whose neighbour it is.
type simNeighbour struct {
	doc string
	cos float64
}

func newSimIndex(space string) *simIndex {
	return &simIndex{space: space, slot: map[string]int{}, lists: map[string]simList{}}
}

// tail applies the rows written since the watermark, inside q, the caller's transaction (the
// same *store.Tx for the whole transaction). The rows a transaction applied after its first
// catch-up are its own (sinceTxFrom): whether it committed is not known here, so when the next
// transaction begins they are read again as the table has them, and the watermark goes back to
// before them (another process may have been handed their seqs after a rollback). Within a
// transaction a rollback (a job's savepoint) shows as the watermark's row gone or naming another
// document or space: its own rows are read again the same way, or, when it has none, the copy
// starts over. tail reports such a rollback: what a caller keeps by (document, seq) may then
// describe content that is gone, the seq being handed out again.
func (ix *simIndex) tail(ctx context.Context, q store.Q) (rolledBack bool, err error) {
	first := q != ix.tx
	if ix.loaded && first && len(ix.sinceTxFrom) > 0 {
		if err := ix.revert(ctx, q); err != nil {
			return false, err
		}
	}
	if ix.loaded && ix.wm > 0 {
		doc, space, ok, maxSeq, err := store.DocVectorSeq(ctx, q, ix.wm)
		if err != nil {
			return false, err
		}
		if maxSeq < ix.wm || (ok && (doc != ix.wmDoc || space != ix.space)) {
			rolledBack = true
			if len(ix.sinceTxFrom) == 0 || first {
				*ix = *newSimIndex(ix.space) // nothing of its own to put back: read again whole
				first = true
			} else if err := ix.revert(ctx, q); err != nil {
				return true, err
			}
		}
	}
	ix.loaded = true
	err = store.DocVectorsSince(ctx, q, ix.space, ix.wm, func(v store.DocVector) error {
		return ix.apply(v, !first)
	})
	if err != nil {
		return rolledBack, err
	}
	if first {
		// What the first catch-up of a transaction read was committed by others: the
		// transaction's own rows come after it.
		ix.tx, ix.txFrom, ix.txFromDoc, ix.sinceTxFrom = q, ix.wm, ix.wmDoc, nil
	}
	return rolledBack, nil
}

// revert reads again, as the table has them now, the documents the current (or last)
// transaction applied as its own (a document whose only row was rolled back is left out) and
// moves the watermark back to before them; or starts the copy over when there are too many.
// The list is kept until every document is read back: an interrupted revert is done again.
func (ix *simIndex) revert(ctx context.Context, q store.Q) error {
	if len(ix.sinceTxFrom) > simMaxRevert {
		*ix = *newSimIndex(ix.space)
		return nil
	}
	seen := map[string]bool{}
	for _, doc := range ix.sinceTxFrom {
		if seen[doc] {
			continue
		}
		seen[doc] = true
		v, ok, err := store.DocVectorOf(ctx, q, ix.space, doc)
		if err != nil {
			return err
		}
		if !ok {
			v.Vector = nil // as a tombstone: not a neighbour of anything
		}
		if err := ix.put(v); err != nil {
			return err
		}
	}
	ix.sinceTxFrom = nil
	ix.wm, ix.wmDoc = ix.txFrom, ix.txFromDoc
	return nil
}

// apply takes a row read from the table: the document's entry and the watermark move to it;
// own, it is the current transaction's (see tail).
func (ix *simIndex) apply(v store.DocVector, own bool) error {
	if err := ix.put(v); err != nil {
		return err
	}
	ix.wm, ix.wmDoc = v.Seq, v.DocumentID
	if own {
		ix.sinceTxFrom = append(ix.sinceTxFrom, v.DocumentID)
	}
	return nil
}

// put sets a document's entry to v, its vector, seq and shingle count, as one change (none
// when the entry holds v already).
func (ix *simIndex) put(v store.DocVector) error {
	if v.Vector != nil {
		if ix.dims == 0 {
			ix.dims = len(v.Vector)
		}
		if len(v.Vector) != ix.dims {
			return fmt.Errorf("document vector of %s has %d dimensions, space %s has %d", v.DocumentID, len(v.Vector), ix.space, ix.dims)
		}
	}
	i, ok := ix.slot[v.DocumentID]
	if !ok {
		i = len(ix.docs)
		ix.slot[v.DocumentID] = i
		ix.docs = append(ix.docs, simEntry{id: v.DocumentID})
		if ix.dims > 0 {
			ix.vecs = append(ix.vecs, make([]float32, ix.dims)...)
		}
	}
	if ix.dims > 0 && len(ix.vecs) < len(ix.docs)*ix.dims { // slots made before the first vector fixed dims
		ix.vecs = append(ix.vecs, make([]float32, len(ix.docs)*ix.dims-len(ix.vecs))...)
	}
	e := &ix.docs[i]
	if ok && e.seq == v.Seq && e.shingles == v.Shingles && e.live == (v.Vector != nil) &&
		(!e.live || slices.Equal(ix.vecs[i*ix.dims:(i+1)*ix.dims], v.Vector)) {
		// The same row again (a transaction's own rows read back, then tailed, after it
		// committed): no change, so the neighbour lists that hold it stay as they are.
		return nil
	}
	e.seq, e.shingles, e.live = v.Seq, v.Shingles, v.Vector != nil
	if e.live {
		copy(ix.vecs[i*ix.dims:(i+1)*ix.dims], v.Vector)
	}
	ix.gen++
	ix.changed = append(ix.changed, i)
	if len(ix.changed) > simMaxChanged {
		drop := len(ix.changed) / 2
		ix.changed = append([]int(nil), ix.changed[drop:]...)
		ix.changedFrom += uint64(drop)
	}
	return nil
}

// vector is a document's live vector (a copy), or nil.
func (ix *simIndex) vector(doc string) []float32 {
	i, ok := ix.slot[doc]
	if !ok || !ix.docs[i].live {
		return nil
	}
	return slices.Clone(ix.vecs[i*ix.dims : (i+1)*ix.dims])
}

func (ix *simIndex) entry(doc string) (simEntry, bool) {
	i, ok := ix.slot[doc]
	if !ok || !ix.docs[i].live {
		return simEntry{}, false
	}
	return ix.docs[i], true
}

// scan lists the live documents other than self whose cosine with v is at least floor,
// best first, ties by document ID.
func (ix *simIndex) scan(v []float32, self string, floor float64) []simNeighbour {
	if len(v) != ix.dims {
		return nil
	}
	// A large index is compared in parts, side by side: a new note's linking in a store of
	// 20k documents scans it up to six times (its own list, its neighbours' for the mutual
	// check) while a reader may wait for its transaction. The parts' matches are joined and
	// sorted: the same list as one pass, whatever finished first.
	parts := 1
	if len(ix.docs) >= simParallelScan {
		parts = min(runtime.GOMAXPROCS(0), len(ix.docs)/(simParallelScan/2))
	}
	found := make([][]simNeighbour, parts)
	part := func(p int) {
		var mine []simNeighbour
		for i := p * len(ix.docs) / parts; i < (p+1)*len(ix.docs)/parts; i++ {
			e := ix.docs[i]
			if !e.live || e.id == self {
				continue
			}
			if c := float64(simDot(v, ix.vecs[i*ix.dims:(i+1)*ix.dims])); c >= floor {
				mine = append(mine, simNeighbour{doc: e.id, cos: c})
			}
		}
		found[p] = mine
	}
	if parts == 1 {
		part(0)
	} else {
		var wg sync.WaitGroup
		for p := range parts {
			wg.Go(func() { part(p) })
		}
		wg.Wait()
	}
	out := slices.Concat(found...)
	slices.SortFunc(out, simNeighbourOrder)
	return out
}

// simParallelScan is the index size from which a scan is split between the cores.
const simParallelScan = 4096

// neighbours is scan for a document in the index, from the cache when it holds the
// document's list: as it is when nothing changed since, else brought up to date.
func (ix *simIndex) neighbours(doc string, floor float64) []simNeighbour {
	i, ok := ix.slot[doc]
	if !ok || !ix.docs[i].live {
		return nil
	}
	if c, ok := ix.lists[doc]; ok {
		if c.at == ix.gen {
			return c.l
		}
		if l, ok := ix.catchUp(i, c, floor); ok {
			ix.keep(doc, l)
			return l
		}
	}
	l := ix.scan(ix.vecs[i*ix.dims:(i+1)*ix.dims], doc, floor)
	ix.keep(doc, l)
	return l
}

// keep caches doc's list, exact now, within the cache's bounds.
func (ix *simIndex) keep(doc string, l []simNeighbour) {
	ix.cached -= len(ix.lists[doc].l)
	delete(ix.lists, doc)
	if len(l) > simMaxCachedList {
		return
	}
	if ix.cached+len(l) > simMaxCachedTotal {
		clear(ix.lists)
		ix.cached = 0
	}
	ix.lists[doc] = simList{at: ix.gen, l: l}
	ix.cached += len(l)
}

// catchUp brings the list of the document in slot owner, exact at c.at, to the current gen:
// the rows changed since leave it and come back with their new cosine if they still reach
// floor. It gives up (false) when those changes are no longer remembered or include the
// document's own vector. The result equals a scan: the same cosines, the same order.
func (ix *simIndex) catchUp(owner int, c simList, floor float64) ([]simNeighbour, bool) {
	if c.at < ix.changedFrom {
		return nil, false
	}
	since := ix.changed[c.at-ix.changedFrom:]
	moved := make(map[string]int, len(since))
	for _, s := range since {
		if s == owner {
			return nil, false
		}
		moved[ix.docs[s].id] = s
	}
	v := ix.vecs[owner*ix.dims : (owner+1)*ix.dims]
	out := make([]simNeighbour, 0, len(c.l)+1) // a new note adds one at most to most lists
	for _, n := range c.l {
		if _, ok := moved[n.doc]; !ok {
			out = append(out, n)
		}
	}
	for id, s := range moved {
		if !ix.docs[s].live {
			continue
		}
		if cos := float64(simDot(v, ix.vecs[s*ix.dims:(s+1)*ix.dims])); cos >= floor {
			out = append(out, simNeighbour{doc: id, cos: cos})
		}
	}
	slices.SortFunc(out, simNeighbourOrder)
	if cap(out) > len(out)+len(out)/4+1 {
		out = slices.Clone(out) // kept: no spare capacity the cache does not count
	}
	return out, true
}

// simNeighbourOrder is best first, ties by document ID.
func simNeighbourOrder(a, b simNeighbour) int {
	if a.cos != b.cos {
		if a.cos > b.cos {
			return -1
		}
		return 1
	}
	return strings.Compare(a.doc, b.doc)
}

// simDot is the dot product of two vectors of equal length, in four lanes (the same order of
// additions every time: the same vectors give the same cosine in every build of a store).
func simDot(a, b []float32) float32 {
	var s0, s1, s2, s3 float32
	n := len(a) &^ 3
	b = b[:len(a)]
	for i := 0; i < n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for i := n; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// simMean is the L2-normalised mean of vectors (nil if there are none or they cancel out).
func simMean(vs [][]float32) []float32 {
	if len(vs) == 0 {
		return nil
	}
	sum := make([]float64, len(vs[0]))
	for _, v := range vs {
		for i, f := range v {
			sum[i] += float64(f)
		}
	}
	var n float64
	for _, f := range sum {
		n += f * f
	}
	if n == 0 {
		return nil
	}
	n = math.Sqrt(n)
	out := make([]float32, len(sum))
	for i, f := range sum {
		out[i] = float32(f / n)
	}
	return out
}

// simShingleCache keeps the shingle sets of recently compared documents (by document and the
// seq of the vector row they were computed with), within a budget of shingles: print.html
// alone has 139k (1.1 MB); a store's worth would not fit.
type simShingleCache struct {
	budget int
	size   int
	sets   map[string]simShingles
	order  []string // oldest first
}

type simShingles struct {
	seq int64
	set []uint64
}

func newSimShingleCache(budget int) *simShingleCache {
	return &simShingleCache{budget: budget, sets: map[string]simShingles{}}
}

func (c *simShingleCache) get(doc string, seq int64) ([]uint64, bool) {
	s, ok := c.sets[doc]
	if !ok || s.seq != seq {
		return nil, false
	}
	return s.set, true
}

func (c *simShingleCache) put(doc string, seq int64, set []uint64) {
	if old, ok := c.sets[doc]; ok {
		c.size -= len(old.set)
		c.order = slices.DeleteFunc(c.order, func(d string) bool { return d == doc })
	}
	c.sets[doc] = simShingles{seq: seq, set: set}
	c.order = append(c.order, doc)
	c.size += len(set)
	for c.size > c.budget && len(c.order) > 1 {
		d := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.sets[d].set)
		delete(c.sets, d)
	}
}

// simShingleSet is the set of 3-word shingles of a document's chunks (search.Shingles, the
// definition search uses to fold copies of a passage), sorted and distinct.
func simShingleSet(texts []string) []uint64 {
	var all []uint64
	for _, t := range texts {
		all = append(all, search.Shingles(t)...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}
