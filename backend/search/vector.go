package search

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"

	"github.com/strata-app/strata/backend/store"
)

// QueryEmbedder turns a query into a vector of the index's space.
type QueryEmbedder interface {
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
}

// Index holds one embedding space's vectors in memory for exact nearest-neighbour search
// (cosine). SQLite is the truth (DESIGN.md invariant 1): the index is rebuilt from the
// embeddings table when it is opened, and before each query it tails rows added or deleted
// since (by any process) using their sequence numbers.
//
// It replaced chromem-go, which could not meet the search latency target: one query over 100k
// 256-dimension vectors took 60 ms of both cores (a dot product with one accumulator, a mutex
// taken per document for its shared top-k heap, a channel send per document to filter a map
// of all of them on every query). Here the vectors are stored by component (column-major), so
// a query reads only the components where it is non-zero — a static-embedder question has ~75
// of 256 — and a block of partial scores stays in the CPU cache: ~2 ms on two cores (4 ms of
// CPU) for the same exact search. Ties are broken by rowid at every cut (chromem-go kept an
// arbitrary one of equal vectors), so the answer does not depend on the order vectors arrived
// in or on how the scan is split between cores.
type Index struct {
	db    *store.DB
	space string

	syncMu   sync.Mutex // one Sync at a time; guards the watermarks
	addsWM   int64      // newest embeddings.seq applied
	deleteWM int64      // newest embedding_deletes.seq applied

	mu     sync.RWMutex
	dims   int
	cols   [][]float32     // cols[d][slot]: component d of every vector, L2-normalised
	rowids []int64         // slot → chunk rowid
	slots  map[int64]int32 // chunk rowid → slot
}

// OpenIndex builds the index of space from SQLite.
func OpenIndex(ctx context.Context, db *store.DB, space string) (*Index, error) {
	ix := &Index{db: db, space: space, slots: map[int64]int32{}}
	// Deletions logged before this point concern rows already gone from the table.
	_, del, err := store.VectorWatermarks(ctx, db.Reader())
	if err != nil {
		return nil, err
	}
	ix.deleteWM = del
	n, _, err := store.CountEmbeddings(ctx, db.Reader(), space)
	if err != nil {
		return nil, err
	}
	ix.rowids = make([]int64, 0, n)
	ix.slots = make(map[int64]int32, n)
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if err := ix.tailAdds(ctx, n); err != nil {
		return nil, err
	}
	if n >= bigRebuild {
		// Reading the vectors left as much garbage as the index is big (the driver copies each
		// row): hand it back to the system now rather than keep it resident until the runtime
		// gets round to it.
		debug.FreeOSMemory()
	}
	return ix, nil
}

// bigRebuild is the number of vectors (~10 MB at 256 dimensions) from which a rebuild returns
// its garbage to the system at once.
const bigRebuild = 10_000

// Space is the index's embedding space key.
func (ix *Index) Space() string { return ix.space }

// Len is the number of vectors held.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.rowids)
}

// tailAdds applies embeddings newer than the watermark; sizeHint pre-sizes the columns of a
// first build. Caller holds ix.syncMu.
func (ix *Index) tailAdds(ctx context.Context, sizeHint int) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return store.VectorBlobsSince(ctx, ix.db.Reader(), ix.space, ix.addsWM, func(seq, rowid int64, blob []byte) error {
		if err := ix.put(rowid, blob, sizeHint); err != nil {
			return err
		}
		ix.addsWM = seq
		return nil
	})
}

// put adds or replaces a chunk's vector, given as stored (little-endian float32s). Caller
// holds ix.mu.
func (ix *Index) put(rowid int64, blob []byte, sizeHint int) error {
	dims := len(blob) / 4
	if ix.cols == nil {
		ix.dims = dims
		ix.cols = make([][]float32, dims)
		for d := range ix.cols {
			ix.cols[d] = make([]float32, 0, sizeHint)
		}
	}
	if dims != ix.dims || len(blob)%4 != 0 {
		return fmt.Errorf("vector index %s: chunk %d has %d bytes of vector, the index %d dimensions", ix.space, rowid, len(blob), ix.dims)
	}
	at := func(d int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(blob[4*d:])) }
	var sum float64
	for d := range dims {
		sum += float64(at(d)) * float64(at(d))
	}
	var scale float32 // a zero vector stays zero and is similar to nothing
	if sum > 0 {
		scale = float32(1 / math.Sqrt(sum))
	}
	if s, ok := ix.slots[rowid]; ok { // re-embedded: replace in place
		for d := range dims {
			ix.cols[d][s] = at(d) * scale
		}
		return nil
	}
	ix.slots[rowid] = int32(len(ix.rowids))
	ix.rowids = append(ix.rowids, rowid)
	for d := range dims {
		ix.cols[d] = append(ix.cols[d], at(d)*scale)
	}
	return nil
}

// remove drops a chunk's vector, moving the last one into its slot. Caller holds ix.mu.
func (ix *Index) remove(rowid int64) {
	s, ok := ix.slots[rowid]
	if !ok {
		return
	}
	last := int32(len(ix.rowids) - 1)
	moved := ix.rowids[last]
	ix.rowids[s] = moved
	ix.slots[moved] = s
	ix.rowids = ix.rowids[:last]
	for d, c := range ix.cols {
		c[s] = c[last]
		ix.cols[d] = c[:last]
	}
	delete(ix.slots, rowid)
}

// normScale is what multiplies v to unit length (cosine becomes a dot product); a zero vector
// stays zero and is similar to nothing.
func normScale(v []float32) float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return 0
	}
	return float32(1 / math.Sqrt(sum))
}

// Sync applies what other writers (this process or others) added or deleted since the last
// sync. It is cheap when nothing changed: two indexed max() lookups.
func (ix *Index) Sync(ctx context.Context) error {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	adds, dels, err := store.VectorWatermarks(ctx, ix.db.Reader())
	if err != nil {
		return err
	}
	if dels > ix.deleteWM {
		gone, last, err := store.DeletesSince(ctx, ix.db.Reader(), ix.deleteWM)
		if err != nil {
			return err
		}
		ix.mu.Lock()
		for _, id := range gone {
			ix.remove(id)
		}
		ix.mu.Unlock()
		ix.deleteWM = last
	}
	if adds > ix.addsWM {
		return ix.tailAdds(ctx, 0)
	}
	return nil
}

// Rows scored per block: the block's partial scores (8 KiB) stay in the L1 cache while the
// query's components are added in.
const vectorBlock = 2048

// Nearest returns the k chunks nearest to vec (cosine), best first, ties by rowid.
func (ix *Index) Nearest(ctx context.Context, vec []float32, k int) ([]VectorHit, error) {
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n := len(ix.rowids)
	if n == 0 || k <= 0 {
		return nil, nil
	}
	if len(vec) != ix.dims {
		return nil, fmt.Errorf("vector query: %d dimensions, the index has %d", len(vec), ix.dims)
	}
	k = min(k, n)
	scale := normScale(vec)
	var dims []int
	var q []float32
	for d, x := range vec {
		if x != 0 {
			dims, q = append(dims, d), append(q, x*scale)
		}
	}
	// Split the rows between the cores, in whole blocks; each part keeps its own best k.
	parts := min(runtime.GOMAXPROCS(0), (n+8*vectorBlock-1)/(8*vectorBlock))
	blocks := (n + vectorBlock - 1) / vectorBlock
	per := (blocks + parts - 1) / parts * vectorBlock
	results := make([][]VectorHit, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[p], errs[p] = ix.scan(ctx, dims, q, p*per, min(n, (p+1)*per), k)
		}()
	}
	wg.Wait()
	var out []VectorHit
	for p := range parts {
		if errs[p] != nil {
			return nil, errs[p]
		}
		out = append(out, results[p]...)
	}
	sortHits(out)
	return out[:min(k, len(out))], nil
}

// scan scores rows lo..hi-1 and returns their best k, unordered.
func (ix *Index) scan(ctx context.Context, dims []int, q []float32, lo, hi, k int) ([]VectorHit, error) {
	var acc [vectorBlock]float32
	top := hitHeap(make([]VectorHit, 0, k))
	for b := lo; b < hi; b += vectorBlock {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("vector query: %w", err)
		}
		m := min(vectorBlock, hi-b)
		s := acc[:m]
		clear(s)
		// Four components at a time: fewer passes over the partial scores. The sum's order is
		// fixed (by component), so a row's score does not depend on the block it falls in.
		i := 0
		for ; i+4 <= len(dims); i += 4 {
			q0, q1, q2, q3 := q[i], q[i+1], q[i+2], q[i+3]
			c0 := ix.cols[dims[i]][b : b+m]
			c1 := ix.cols[dims[i+1]][b : b+m]
			c2 := ix.cols[dims[i+2]][b : b+m]
			c3 := ix.cols[dims[i+3]][b : b+m]
			c0, c1, c2, c3 = c0[:len(s)], c1[:len(s)], c2[:len(s)], c3[:len(s)] // no bounds checks below
			for r := range s {
				s[r] += q0*c0[r] + q1*c1[r] + q2*c2[r] + q3*c3[r]
			}
		}
		for ; i < len(dims); i++ {
			qi, c := q[i], ix.cols[dims[i]][b:b+m]
			c = c[:len(s)]
			for r := range s {
				s[r] += qi * c[r]
			}
		}
		for r, score := range s {
			h := VectorHit{RowID: ix.rowids[b+r], Score: float64(score)}
			if len(top) < k {
				top.push(h)
			} else if betterHit(h, top[0]) {
				top[0] = h
				top.down(0)
			}
		}
	}
	return top, nil
}

// betterHit orders hits best first: higher similarity, then lower rowid.
func betterHit(a, b VectorHit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.RowID < b.RowID
}

// hitHeap keeps the best k hits seen, the worst of them on top.
type hitHeap []VectorHit

func (h *hitHeap) push(x VectorHit) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !betterHit(s[p], s[i]) {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h hitHeap) down(i int) {
	for {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && betterHit(h[worst], h[l]) {
			worst = l
		}
		if r < len(h) && betterHit(h[worst], h[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

func sortHits(h []VectorHit) {
	sort.Slice(h, func(i, j int) bool { return betterHit(h[i], h[j]) })
}

// Space is an index with the embedder of its space: the Vectors half of a Searcher.
type Space struct {
	Index    *Index
	Embedder QueryEmbedder
	IsSemant bool
}

// Search embeds the query and finds its nearest chunks.
func (s *Space) Search(ctx context.Context, query string, k int) ([]VectorHit, error) {
	vec, err := s.Embedder.EmbedQuery(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("embed query: %w", err)
	}
	return s.Index.Nearest(ctx, vec, k)
}

// Semantic reports whether this space is semantic.
func (s *Space) Semantic() bool { return s.IsSemant }
