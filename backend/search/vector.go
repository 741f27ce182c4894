package search

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	chromem "github.com/philippgille/chromem-go"

	"github.com/strata-app/strata/backend/store"
)

// QueryEmbedder turns a query into a vector of the index's space.
type QueryEmbedder interface {
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
}

// IndexOptions tune the partitioning. The zero value is the production setting; tests shrink
// MinPartitioned to partition small spaces.
type IndexOptions struct {
	// MinPartitioned is the size from which the space is partitioned (default 20,000). Below
	// it one exhaustive collection is as fast (at 10k vectors: 5.6 ms against 6.9 ms for the 48
	// of 100 partitions that keep the recall), and exact, so a small folder's ranking does not
	// change when a background training finishes.
	MinPartitioned int
	// Probes is how many partitions a query searches (default: DefaultProbeShare of them).
	Probes int
	// PartsScale sets the number of partitions to PartsScale·√N (default 1).
	PartsScale float64
	// Report receives what fails in the background (training, saving the layout); the index
	// keeps answering from its current layout and tries again a minute later. Nil: dropped
	// (tests read it from Settle).
	Report func(error)
}

// DefaultProbeShare is the share of the partitions a query searches. Chosen from the recall
// curve of the top 10 against chromem-go's exhaustive top 10, the quality questions as queries,
// on the static embedder's vectors of 10k and 100k chunks of real prose (BENCHMARKS.md,
// "Vector index"): 48 of 100 partitions kept 0.956 at 10k, 160 of 316 kept 0.945 at 100k, 128
// of 316 only 0.925. The static embedder's scores are flat (for a typical question the 10th
// best chunk scores 0.29, the 100th 0.22), so the exhaustive top 10 sits in many partitions and
// a small share cannot keep it; a semantic space clusters better, but that is not measured here.
const DefaultProbeShare = 0.55

func (o IndexOptions) withDefaults() IndexOptions {
	if o.MinPartitioned <= 0 {
		o.MinPartitioned = 20_000
	}
	if o.PartsScale <= 0 {
		o.PartsScale = 1
	}
	return o
}

// partsFor is the number of partitions for n vectors.
func (o IndexOptions) partsFor(n int) int {
	if n < o.MinPartitioned {
		return 1
	}
	return max(2, int(math.Round(o.PartsScale*math.Sqrt(float64(n)))))
}

// Index holds one embedding space's vectors in memory for nearest-neighbour search, in
// chromem-go collections partitioned by a coarse quantizer (kmeans.go): a query scores the
// centroids and searches only the nearest partitions (DefaultProbeShare of them: about half of
// the vectors with the static embedder, whose flat scores need that many to keep the exhaustive
// top 10; a first open of a saved layout needs only those blocks). Only chunk rowids and vectors are kept in chromem-go, not text; its
// own persistence is not used (its file names are 32-bit hashes and collide).
//
// SQLite is the truth (DESIGN.md invariant 1). The layout (centroids, and each partition's
// vectors as one block) is derived data saved in vector_layouts/vector_blocks, exact at two
// watermarks; everything after them is tailed from the embeddings table and its deletion log
// before each query, by sequence number, so writes by any process are seen. A process opening
// a saved layout reads only the centroids at first: the blocks load in the background, and a
// query waits only for the blocks of the partitions it probes (they are loaded first).
// Without a saved layout the index opens exhaustive (one collection), answers from it, and
// trains and saves a layout in the background; it trains again once the space has doubled or
// halved since, and re-saves when the tail after the saved watermark grows past a quarter
// (a save rewrites every block: 100 MB at 100k vectors; the tail is read at open, in seq order).
type Index struct {
	db    *store.DB
	space string
	opt   IndexOptions

	bg   context.Context // background work: cancelled by Close
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu       sync.Mutex
	lay      *layout
	vecs     map[int64]placed // every vector held: rowid → partition and vector
	dropped  map[int64]bool   // deleted after the blocks' watermark while blocks still load
	addsWM   int64            // newest embeddings.seq applied
	deleteWM int64            // newest embedding_deletes.seq applied
	savedWM  int64            // adds watermark of the saved layout (-1: none saved)
	maint    bool             // a training or save runs
	err      error            // loading blocks failed: the index cannot answer completely
	bgErr    error            // the last training or save failed (Settle reports it)
	quiet    time.Time        // no training or save before this (after a failure)

	want     chan int      // partitions a query waits for: the loader takes them first
	loadDone chan struct{} // closed when every block is in (or loading failed)
}

type placed struct {
	part int32
	vec  []float32
}

// layout is one partitioning of the space. It is replaced whole when re-trained.
type layout struct {
	cents    [][]float32 // nil: one exhaustive partition
	parts    []*part
	trainedN int
}

type part struct {
	coll    *chromem.Collection
	n       int  // vectors held (under Index.mu)
	pending int  // vectors still in the unloaded block
	loaded  bool // under Index.mu
	ready   chan struct{}
}

func newLayout(space string, cents [][]float32, trainedN int, loaded bool) (*layout, error) {
	db := chromem.NewDB()
	l := &layout{cents: cents, trainedN: trainedN}
	for i := range max(1, len(cents)) {
		coll, err := db.CreateCollection(space+"#"+strconv.Itoa(i), nil, nil)
		if err != nil {
			return nil, fmt.Errorf("vector index %s: %w", space, err)
		}
		p := &part{coll: coll, ready: make(chan struct{}), loaded: loaded}
		if loaded {
			close(p.ready)
		}
		l.parts = append(l.parts, p)
	}
	return l, nil
}

// partOf is the partition a vector belongs to.
func (l *layout) partOf(v []float32) int32 {
	if l.cents == nil {
		return 0
	}
	return int32(nearestCentroid(l.cents, v))
}

// OpenIndex opens the index of space with the production options.
func OpenIndex(ctx context.Context, db *store.DB, space string) (*Index, error) {
	return OpenIndexWith(ctx, db, space, IndexOptions{})
}

// OpenIndexWith opens the index of space: from its saved layout when there is one (blocks load
// in the background), else from every vector of the space.
func OpenIndexWith(ctx context.Context, db *store.DB, space string, opt IndexOptions) (*Index, error) {
	ix := &Index{db: db, space: space, opt: opt.withDefaults(), vecs: map[int64]placed{}, savedWM: -1,
		want: make(chan int, 256), loadDone: make(chan struct{})}
	ix.bg, ix.stop = context.WithCancel(context.Background())
	ok, err := ix.openSaved(ctx)
	if err != nil {
		ix.Close()
		return nil, err
	}
	if !ok {
		close(ix.loadDone)
		if ix.lay, err = newLayout(space, nil, 0, true); err != nil {
			ix.Close()
			return nil, err
		}
		// Deletions logged before this point concern rows already gone from the table.
		if _, ix.deleteWM, err = store.VectorWatermarks(ctx, db.Reader()); err != nil {
			ix.Close()
			return nil, err
		}
	}
	if err := ix.Sync(ctx); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// openSaved opens the saved layout, if any, and starts loading its blocks. The layout and every
// block are read in one read transaction, so they are one consistent snapshot even while
// another process saves a new layout.
func (ix *Index) openSaved(ctx context.Context) (bool, error) {
	tx, err := ix.db.ReadDB().BeginTx(ix.bg, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return false, fmt.Errorf("vector layout: %w", err)
	}
	l, err := store.ReadVectorLayout(ctx, tx, ix.space)
	if err != nil || l == nil || len(l.Centroids) == 0 {
		_ = tx.Rollback() // read-only: nothing to undo
		return false, err
	}
	lay, err := newLayout(ix.space, l.Centroids, l.TrainedN, false)
	if err != nil {
		_ = tx.Rollback()
		return false, err
	}
	for i, p := range lay.parts {
		if i < len(l.Sizes) {
			p.pending = l.Sizes[i]
		}
	}
	ix.lay, ix.addsWM, ix.deleteWM, ix.savedWM = lay, l.AddsWM, l.DeletesWM, l.AddsWM
	ix.dropped = map[int64]bool{}
	ix.wg.Add(1)
	go ix.loadBlocks(tx, lay, l.Dims)
	return true, nil
}

// loadBlocks reads the saved partitions' blocks into the layout: those a query waits for
// first, then the rest in order. A vector tailed or deleted after the blocks' watermark is
// newer than the block's copy, which is then skipped.
func (ix *Index) loadBlocks(tx *sql.Tx, lay *layout, dims int) {
	defer ix.wg.Done()
	defer close(ix.loadDone)
	defer func() { _ = tx.Rollback() }() // read-only: ends the snapshot
	// Each block is read once: keeping its pages in this connection's page cache (32 MiB, see
	// store's dsn) would only hold the serving process's memory up after the load. The previous
	// size is put back for the pool's next user.
	var cache int64
	if err := tx.QueryRowContext(ix.bg, `PRAGMA cache_size`).Scan(&cache); err == nil {
		if _, err := tx.ExecContext(ix.bg, `PRAGMA cache_size = -256`); err == nil {
			// a failed restore leaves this pooled connection a smaller cache: slower, never wrong
			defer func() { _, _ = tx.ExecContext(context.Background(), fmt.Sprintf(`PRAGMA cache_size = %d`, cache)) }()
		}
	}
	next := 0
	for {
		p := -1
		select {
		case p = <-ix.want:
		default:
		}
		ix.mu.Lock()
		if p < 0 || lay.parts[p].loaded {
			for next < len(lay.parts) && lay.parts[next].loaded {
				next++
			}
			p = next
		}
		ix.mu.Unlock()
		if p >= len(lay.parts) {
			ix.mu.Lock()
			ix.dropped = nil
			ix.mu.Unlock()
			return
		}
		blk, err := store.ReadVectorBlock(ix.bg, tx, ix.space, p, dims)
		ix.mu.Lock()
		if err != nil {
			ix.err = fmt.Errorf("vector index %s: %w", ix.space, err)
			ix.mu.Unlock()
			return
		}
		pt := lay.parts[p]
		for i, id := range blk.RowIDs {
			if _, newer := ix.vecs[id]; newer || ix.dropped[id] {
				continue
			}
			if err := pt.coll.AddDocument(ix.bg, chromem.Document{ID: strconv.FormatInt(id, 10), Embedding: blk.Vectors[i]}); err != nil {
				ix.err = fmt.Errorf("vector index add: %w", err)
				ix.mu.Unlock()
				return
			}
			ix.vecs[id] = placed{int32(p), blk.Vectors[i]}
			pt.n++
		}
		pt.pending, pt.loaded = 0, true
		close(pt.ready)
		ix.mu.Unlock()
	}
}

// Space is the index's embedding space key.
func (ix *Index) Space() string { return ix.space }

// Len is the number of vectors held, counting those of blocks still loading.
func (ix *Index) Len() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.lenLocked()
}

func (ix *Index) lenLocked() int {
	n := len(ix.vecs)
	for _, p := range ix.lay.parts {
		n += p.pending // blocks still loading (less what was deleted since: an upper bound)
	}
	return n
}

// Partitions is the number of partitions (1 while the index is exhaustive).
func (ix *Index) Partitions() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return len(ix.lay.parts)
}

// Err is the failure that keeps the index from answering completely (a block could not be
// read), or nil. The owner then opens the index again.
func (ix *Index) Err() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.err
}

// Close stops background loading, training and saving, and waits for them.
func (ix *Index) Close() {
	ix.stop()
	ix.wg.Wait()
}

// Settle waits until blocks are loaded and no training or save runs (tests and benchmarks).
func (ix *Index) Settle(ctx context.Context) error {
	select {
	case <-ix.loadDone:
	case <-ctx.Done():
		return ctx.Err()
	}
	for {
		ix.maintain()
		ix.wg.Wait()
		ix.mu.Lock()
		idle, err := !ix.maint, errors.Join(ix.err, ix.bgErr)
		ix.mu.Unlock()
		if err != nil || idle && !ix.due() {
			return err
		}
	}
}

// place adds one vector under ix.mu, replacing the chunk's earlier vector (re-embedded).
func (ix *Index) place(ctx context.Context, id int64, v []float32) error {
	sid := strconv.FormatInt(id, 10)
	if old, ok := ix.vecs[id]; ok {
		op := ix.lay.parts[old.part]
		if err := op.coll.Delete(ctx, nil, nil, sid); err != nil {
			return fmt.Errorf("vector index replace: %w", err)
		}
		op.n--
	}
	p := ix.lay.partOf(v)
	if err := ix.lay.parts[p].coll.AddDocument(ctx, chromem.Document{ID: sid, Embedding: v}); err != nil {
		return fmt.Errorf("vector index add: %w", err)
	}
	ix.lay.parts[p].n++
	ix.vecs[id] = placed{p, v}
	return nil
}

func (ix *Index) tailAdds(ctx context.Context) error {
	return store.EmbeddingsSince(ctx, ix.db.Reader(), ix.space, ix.addsWM, func(e store.Embedding) error {
		if err := ix.place(ctx, e.ChunkRowID, e.Vector); err != nil {
			return err
		}
		ix.addsWM = e.Seq
		return nil
	})
}

// Sync applies what other writers (this process or others) added or deleted since the last
// sync. It is cheap when nothing changed: two indexed max() lookups.
func (ix *Index) Sync(ctx context.Context) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	adds, dels, err := store.VectorWatermarks(ctx, ix.db.Reader())
	if err != nil {
		return err
	}
	if dels > ix.deleteWM {
		gone, last, err := store.DeletesSince(ctx, ix.db.Reader(), ix.deleteWM)
		if err != nil {
			return err
		}
		for _, id := range gone {
			if ix.dropped != nil {
				ix.dropped[id] = true // its block, if not loaded yet, must not bring it back
			}
			old, ok := ix.vecs[id]
			if !ok {
				continue
			}
			op := ix.lay.parts[old.part]
			if err := op.coll.Delete(ctx, nil, nil, strconv.FormatInt(id, 10)); err != nil {
				return fmt.Errorf("vector index delete: %w", err)
			}
			op.n--
			delete(ix.vecs, id)
		}
		ix.deleteWM = last
	}
	if adds > ix.addsWM {
		if err := ix.tailAdds(ctx); err != nil {
			return err
		}
	}
	ix.maintainLocked()
	return nil
}

// maintain starts a training or a save in the background if one is due.
func (ix *Index) maintain() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.maintainLocked()
}

// maintainLocked (under ix.mu) starts one owned background job when the layout no longer fits
// the data: training when the space crossed MinPartitioned, doubled or halved since the
// centroids were trained; saving when no layout is saved or the tail after it exceeds a quarter
// of the space. Nothing starts while blocks still load.
func (ix *Index) maintainLocked() {
	if ix.maint || ix.bg.Err() != nil || time.Now().Before(ix.quiet) {
		return
	}
	train, save := ix.dueLocked()
	if !train && !save {
		return
	}
	ix.maint = true
	ix.wg.Add(1)
	go ix.rebuild(train)
}

// due reports whether a training or save is due.
func (ix *Index) due() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	train, save := ix.dueLocked()
	return train || save
}

func (ix *Index) dueLocked() (train, save bool) {
	select {
	case <-ix.loadDone:
	default:
		return false, false
	}
	n := len(ix.vecs)
	want := ix.opt.partsFor(n)
	tn := ix.lay.trainedN
	train = (want > 1) != (ix.lay.cents != nil) || (want > 1 && (n >= 2*tn || 2*n <= tn))
	tail := ix.addsWM - max(ix.savedWM, 0)
	save = ix.lay.cents != nil && (ix.savedWM < 0 || tail > int64(max(1000, n/4)))
	return train, save
}

// rebuild trains a new layout (train) or keeps the current one, then saves it. It works on a
// copy taken under the lock and swaps the new layout in under the lock, replaying what changed
// meanwhile, so queries wait only for that swap.
func (ix *Index) rebuild(train bool) {
	defer ix.wg.Done()
	defer func() {
		ix.mu.Lock()
		ix.maint = false
		ix.mu.Unlock()
	}()
	ix.mu.Lock()
	ids := make([]int64, 0, len(ix.vecs))
	for id := range ix.vecs {
		ids = append(ids, id)
	}
	snap := make(map[int64]placed, len(ix.vecs))
	for id, p := range ix.vecs {
		snap[id] = p
	}
	lay := ix.lay
	ix.mu.Unlock()
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	vecs := make([][]float32, len(ids))
	for i, id := range ids {
		vecs[i] = snap[id].vec
	}
	if train {
		k := ix.opt.partsFor(len(ids))
		var cents [][]float32
		if k > 1 {
			cents = trainCentroids(vecs, k, 40*k, 10)
		}
		if ix.bg.Err() != nil {
			return
		}
		assign := make([]int32, len(vecs))
		if cents != nil {
			assign = assignAll(cents, vecs)
		}
		nl, err := newLayout(ix.space, cents, len(ids), true)
		if err != nil {
			ix.fail(err)
			return
		}
		for i, id := range ids {
			p := nl.parts[assign[i]]
			if err := p.coll.AddDocument(ix.bg, chromem.Document{ID: strconv.FormatInt(id, 10), Embedding: vecs[i]}); err != nil {
				ix.fail(err)
				return
			}
			p.n++
			snap[id] = placed{assign[i], vecs[i]}
		}
		if ix.bg.Err() != nil {
			return
		}
		if err := ix.swap(nl, snap); err != nil {
			ix.fail(err)
			return
		}
		lay = nl
	}
	if lay.cents != nil {
		if err := ix.save(lay); err != nil {
			ix.fail(err)
			return
		}
	}
	ix.mu.Lock()
	ix.bgErr = nil
	ix.mu.Unlock()
}

// fail records a training or save failure: the index keeps answering from its current layout,
// reports the error, and waits a minute before it tries again (a save that fails for want of
// disk must not be retried by every query).
func (ix *Index) fail(err error) {
	if ix.bg.Err() != nil {
		return // closed: the failure is the cancellation
	}
	err = fmt.Errorf("vector index %s: %w", ix.space, err)
	ix.mu.Lock()
	ix.bgErr, ix.quiet = err, time.Now().Add(time.Minute)
	ix.mu.Unlock()
	if ix.opt.Report != nil {
		ix.opt.Report(err)
	}
}

// swap installs the trained layout nl, built from snap, after applying the changes made since
// snap was taken (vectors added, replaced or deleted by Sync in between).
func (ix *Index) swap(nl *layout, snap map[int64]placed) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	old := ix.vecs
	ix.lay, ix.vecs = nl, snap
	for id, p := range snap {
		if cur, ok := old[id]; !ok {
			q := nl.parts[p.part]
			if err := q.coll.Delete(ix.bg, nil, nil, strconv.FormatInt(id, 10)); err != nil {
				return err
			}
			q.n--
			delete(ix.vecs, id)
		} else if &cur.vec[0] != &p.vec[0] {
			if err := ix.place(ix.bg, id, cur.vec); err != nil {
				return err
			}
		}
	}
	for id, cur := range old {
		if _, ok := snap[id]; !ok {
			if err := ix.place(ix.bg, id, cur.vec); err != nil {
				return err
			}
		}
	}
	return nil
}

// save writes the layout's centroids and blocks, exact at the watermarks copied with them.
func (ix *Index) save(lay *layout) error {
	ix.mu.Lock()
	if ix.lay != lay {
		ix.mu.Unlock()
		return nil // replaced meanwhile: the next maintenance saves the new one
	}
	blocks := make([]store.VectorBlock, len(lay.parts))
	for i := range blocks {
		blocks[i].Part = i
	}
	for id, p := range ix.vecs {
		b := &blocks[p.part]
		b.RowIDs = append(b.RowIDs, id)
		b.Vectors = append(b.Vectors, p.vec)
	}
	l := store.VectorLayout{Space: ix.space, Dims: len(lay.cents[0]), TrainedN: lay.trainedN,
		AddsWM: ix.addsWM, DeletesWM: ix.deleteWM, Centroids: lay.cents, Sizes: make([]int, len(lay.parts))}
	ix.mu.Unlock()
	for i := range blocks {
		b := &blocks[i]
		sort.Sort(byRowID(*b))
		l.Sizes[i] = len(b.RowIDs)
	}
	err := ix.db.WriteTx(ix.bg, func(tx *store.Tx) error { return store.SaveVectorLayout(ix.bg, tx, l, blocks) })
	if err != nil {
		return err
	}
	ix.mu.Lock()
	ix.savedWM = l.AddsWM
	ix.mu.Unlock()
	return nil
}

type byRowID store.VectorBlock

func (b byRowID) Len() int           { return len(b.RowIDs) }
func (b byRowID) Less(i, j int) bool { return b.RowIDs[i] < b.RowIDs[j] }
func (b byRowID) Swap(i, j int) {
	b.RowIDs[i], b.RowIDs[j] = b.RowIDs[j], b.RowIDs[i]
	b.Vectors[i], b.Vectors[j] = b.Vectors[j], b.Vectors[i]
}

// probe (under ix.mu) returns the partitions a query searches, with their indexes: the
// nearest centroids (Probes, or DefaultProbeShare of them), and more while they hold fewer than 4k vectors (a deep k must not come
// from a handful of vectors).
func (ix *Index) probe(lay *layout, vec []float32, k int) ([]*part, []int) {
	if lay.cents == nil {
		return lay.parts, []int{0}
	}
	order := topCentroids(lay.cents, vec)
	probes := ix.opt.Probes
	if probes <= 0 {
		probes = int(math.Ceil(DefaultProbeShare * float64(len(order))))
	}
	var out []*part
	var idx []int
	held := 0
	for _, i := range order {
		if len(out) >= probes && held >= 4*k {
			break
		}
		p := lay.parts[i]
		out, idx = append(out, p), append(idx, i)
		held += p.n + p.pending
	}
	return out, idx
}

// Nearest returns the k chunks nearest to vec (cosine), best first, ties by rowid, from the
// partitions nearest to vec. It waits for a probed partition whose block is still loading, never
// for the others.
func (ix *Index) Nearest(ctx context.Context, vec []float32, k int) ([]VectorHit, error) {
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	ix.mu.Lock()
	if ix.err != nil {
		err := ix.err
		ix.mu.Unlock()
		return nil, err
	}
	if ix.lenLocked() == 0 || k <= 0 {
		ix.mu.Unlock()
		return nil, nil
	}
	parts, idx := ix.probe(ix.lay, vec, k)
	ix.mu.Unlock()
	for i, p := range parts {
		select {
		case <-p.ready:
			continue
		default:
		}
		select {
		case ix.want <- idx[i]: // load it next
		default: // the queue is full: the loader reaches it in order
		}
		select {
		case <-p.ready:
		case <-ix.loadDone:
			select {
			case <-p.ready:
			default:
				ix.mu.Lock()
				err := ix.err
				ix.mu.Unlock()
				if err == nil {
					err = fmt.Errorf("vector index %s: closed", ix.space)
				}
				return nil, err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	// Each partition is asked for a few results first, and again for more only while its last
	// result still reaches the k-th place overall: a partition whose f-th result scores below
	// the k-th best of all cannot hold more of the top k (everything it did not return scores
	// at most that). Most probed partitions hold none or one of the top k, so this returns a
	// few thousand results instead of k from each of ~170 partitions (26k results to parse and
	// sort at 100k), with the same answer. A result tying the k-th place also asks for more:
	// chromem-go scores in parallel and keeps the top f as they come, so among vectors tied
	// there (identical chunks in copied files have identical vectors) which ones it keeps
	// varies from run to run; ordering by (score, rowid) over everything a tie could reach
	// keeps ties broken by ID.
	type answer struct {
		hits []VectorHit
		f, n int
	}
	answers := make([]answer, len(parts))
	first := max(8, 2*k/max(1, len(parts)))
	for i, p := range parts {
		answers[i] = answer{f: first, n: p.coll.Count()}
	}
	ask := func(i int) error {
		a := &answers[i]
		a.hits = a.hits[:0]
		if a.n == 0 {
			return nil
		}
		res, err := parts[i].coll.QueryEmbedding(ctx, vec, min(a.f, a.n), nil, nil) // chromem-go errors past its count
		if err != nil {
			return fmt.Errorf("vector query: %w", err)
		}
		for _, r := range res {
			id, err := strconv.ParseInt(r.ID, 10, 64)
			if err != nil {
				continue
			}
			a.hits = append(a.hits, VectorHit{RowID: id, Score: float64(r.Similarity)})
		}
		return nil
	}
	// The partitions are asked on two goroutines (each chromem-go call on a few hundred vectors
	// barely uses the second core by itself), both awaited here.
	if err := askAll(len(parts), ask); err != nil {
		return nil, err
	}
	for {
		var out []VectorHit
		for _, a := range answers {
			out = append(out, a.hits...)
		}
		sortHits(out)
		want := min(k, len(out))
		again := false
		for i := range answers {
			a := &answers[i]
			if a.f >= a.n || len(a.hits) == 0 {
				continue // it returned everything it holds
			}
			if want < k || a.hits[len(a.hits)-1].Score >= out[want-1].Score {
				a.f *= 4
				if err := ask(i); err != nil {
					return nil, err
				}
				again = true
			}
		}
		if !again {
			return out[:want], nil
		}
	}
}

// askAll runs ask(0..n-1) on two goroutines, each taking every other index, and returns the
// first error; both are awaited before it returns.
func askAll(n int, ask func(int) error) error {
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 2 {
				if errs[w] = ask(i); errs[w] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// sortHits orders hits best first, equal similarities by rowid (determinism).
func sortHits(h []VectorHit) {
	slices.SortFunc(h, func(a, b VectorHit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.RowID, b.RowID)
	})
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
