package enrich

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/internal/testvec"
)

func TestSimilarSettings(t *testing.T) {
	x := &EmbeddingSimilarity{}
	if err := x.Configure(map[string]any{"spaces": map[string]any{"static": map[string]any{"similar_min": 0.65}}}); err != nil {
		t.Fatal(err)
	}
	st := x.settings.thresholds("static/strata-hash-v1/256")
	if st.SimilarMin != 0.65 || st.DuplicateMinCosine != 0.80 || st.ContainedMin != 0.90 || st.SimilarMaxSizeRatio != 10 {
		t.Fatalf("an override names only what it changes; the rest stays: %+v", st)
	}
	if ot := x.settings.thresholds("ollama/nomic-embed-text/768"); ot.SimilarMin != 0.80 || ot.DuplicateMinCosine != 0.95 {
		t.Fatalf("an unmeasured space takes the conservative defaults: %+v", ot)
	}
	if x.settings.TopK != 5 {
		t.Fatalf("top_k default: %d", x.settings.TopK)
	}
	for _, bad := range []map[string]any{
		{"top_kk": 3},
		{"top_k": 0},
		{"spaces": map[string]any{"static": map[string]any{"similar_minimum": 0.6}}},
		{"spaces": map[string]any{"static": map[string]any{"similar_min": 1.5}}},
		{"spaces": map[string]any{"static": map[string]any{"contained_min": 0.3}}},
		{"spaces": map[string]any{"ollama": map[string]any{"similar_max_size_ratio": 0.5}}},
	} {
		err := (&EmbeddingSimilarity{}).Configure(bad)
		var pe *ParamError
		if !errors.As(err, &pe) {
			t.Errorf("%v must be refused with the parameter named, got %v", bad, err)
		}
	}
}

func TestSimilarQuoteAndMean(t *testing.T) {
	q := simQuote("Ownership   is a set of\nrules that govern how a Rust program manages memory. "+strings.Repeat("é ", 200), 80)
	if len(q) > 80+len("…") || !strings.HasPrefix(q, "Ownership is a set of rules") || !strings.HasSuffix(q, "…") {
		t.Fatalf("quote: %q", q)
	}
	m := simMean([][]float32{{1, 0}, {0, 1}})
	if math.Abs(float64(m[0])-math.Sqrt2/2) > 1e-6 || m[0] != m[1] {
		t.Fatalf("mean: %v", m)
	}
	if simMean(nil) != nil || simMean([][]float32{{1, 0}, {-1, 0}}) != nil {
		t.Fatal("no vectors, or vectors that cancel out, give no document vector")
	}
}

// simTestSpace is the vector space of the tests that write document vectors.
const simTestSpace = "static/test/2"

// simVectorStore is a store in a temporary folder and put, which writes a document's vector in
// simTestSpace (nil: a tombstone) inside a transaction.
func simVectorStore(t *testing.T) (*store.DB, func(tx store.Q, doc string, v []float32)) {
	t.Helper()
	db := openStore(t)
	return db, func(tx store.Q, doc string, v []float32) {
		t.Helper()
		if _, err := store.PutDocVector(context.Background(), tx, simTestSpace, doc, v, 10); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSimilarIndexTails: the in-memory copy follows doc_vectors by seq, sees tombstones, and
// when a transaction it had tailed was rolled back (the seqs it saw are reused) it says so and
// puts back what that transaction had changed: a new document leaves, a moved one returns.
func TestSimilarIndexTails(t *testing.T) {
	ctx := context.Background()
	db, put := simVectorStore(t)
	const space = simTestSpace
	ix := newSimIndex(space)
	if err := db.WriteTx(ctx, func(tx *store.Tx) error {
		put(tx, "a", []float32{1, 0})
		put(tx, "b", []float32{0, 1})
		_, err := ix.tail(ctx, tx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := ix.scan([]float32{1, 0}, "", -1); len(got) != 2 || got[0].doc != "a" {
		t.Fatalf("after two rows: %+v", got)
	}
	// A batch that tails its own write and then fails: the write is gone.
	boom := errors.New("boom")
	if err := db.WriteTx(ctx, func(tx *store.Tx) error {
		put(tx, "ghost", []float32{1, 0})
		put(tx, "a", []float32{0, 1}) // a moves, in the same transaction
		if _, err := ix.tail(ctx, tx); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if err := db.WriteTx(ctx, func(tx *store.Tx) error {
		put(tx, "c", []float32{0.6, 0.8}) // reuses the rolled-back seq
		put(tx, "b", nil)                 // b leaves
		rolledBack, err := ix.tail(ctx, tx)
		if !rolledBack && err == nil {
			t.Error("the rollback was not reported")
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, n := range ix.scan([]float32{1, 0}, "", -1) {
		docs = append(docs, fmt.Sprintf("%s %.1f", n.doc, n.cos))
	}
	if strings.Join(docs, ",") != "a 1.0,c 0.6" {
		t.Fatalf("the copy must hold exactly what the table holds (a at 1,0 and c), not %v", docs)
	}
	// The same, checked against a copy read whole from the table.
	fresh := newSimIndex(space)
	if err := db.WriteTx(ctx, func(tx *store.Tx) error { _, err := fresh.tail(ctx, tx); return err }); err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{"a", "b", "c", "ghost"} {
		if !slices.Equal(ix.vector(doc), fresh.vector(doc)) {
			t.Errorf("%s: the reverted copy has %v, the table %v", doc, ix.vector(doc), fresh.vector(doc))
		}
	}
}

// A link between two long documents cites the passages they share: with 2,000 chunks each, the
// evidence is looked for among the chunks closest to the other document's mean (bounded work
// inside the write transaction), and still finds the passage both contain.
func TestBestPairOfLongDocumentsFindsTheSharedPassage(t *testing.T) {
	const dims = 32
	vec := func(seed int) []float32 {
		v := make([]float32, dims)
		x := uint32(seed*2654435761 + 1)
		for i := range v {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			v[i] = float32(x%2000)/1000 - 1
		}
		return simMean([][]float32{v})
	}
	topic := vec(7)
	// Two documents similar enough to be linked: every passage leans to their common topic.
	doc := func(prefix string, n, seed int) []store.ChunkVector {
		out := make([]store.ChunkVector, n)
		for i := range out {
			out[i] = store.ChunkVector{ChunkID: fmt.Sprintf("%s%04d", prefix, i), Vector: simMean([][]float32{topic, vec(seed + i), vec(seed + i + 7919)})}
		}
		return out
	}
	a, b := doc("a", 2000, 1000), doc("b", 1500, 50000)
	// Both documents say the same thing once, near their shared topic.
	shared := simMean([][]float32{topic, topic, topic, vec(99)})
	a[1234].Vector, b[321].Vector = shared, shared
	ia, ib := bestPairCandidates(a, b), bestPairCandidates(b, a)
	if len(ia) > maxPairSide || len(ib) > maxPairSide {
		t.Fatalf("%d × %d candidates, want at most %d each", len(ia), len(ib), maxPairSide)
	}
	if !slices.Contains(ia, 1234) || !slices.Contains(ib, 321) {
		t.Fatalf("the shared passage is not among the candidates: a %v, b %v", ia, ib)
	}
	small := doc("s", 10, 7)
	if got := bestPairCandidates(small, small[:5]); len(got) != 10 {
		t.Fatalf("small documents are compared whole: got %d of 10", len(got))
	}
}

// TestSimilarNeighbourListsStayExact: a neighbour list served from the cache and brought up to
// date with the rows changed since (documents added, moved, removed) is exactly what a scan of
// the whole index gives, cosines and order alike; so is one whose changes are too many to
// remember, or that include its own document.
func TestSimilarNeighbourListsStayExact(t *testing.T) {
	const dims, floor = 8, 0.3
	rng := rand.New(rand.NewSource(7))
	vec := func() []float32 { return testvec.Unit(rng, dims) }
	ix := newSimIndex("s")
	seq := int64(0)
	put := func(doc string, v []float32) {
		seq++
		if err := ix.apply(store.DocVector{Seq: seq, Space: "s", DocumentID: doc, Vector: v}, false); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 200 {
		put(fmt.Sprintf("d%03d", i), vec())
	}
	served, caughtUp := 0, 0
	for round := range 300 {
		// Lists are asked for (and cached), then the index changes, then they are asked again.
		for k := range 5 {
			doc := fmt.Sprintf("d%03d", rng.Intn(220))
			before := ix.lists[doc].at
			got := ix.neighbours(doc, floor)
			i, ok := ix.slot[doc]
			var want []simNeighbour
			if ok && ix.docs[i].live {
				want = ix.scan(ix.vecs[i*dims:(i+1)*dims], doc, floor)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, ask %d: %s's list %v, a scan gives %v", round, k, doc, got, want)
			}
			if got != nil {
				served++
				if before != 0 && before != ix.gen {
					caughtUp++
				}
			}
		}
		switch n := rng.Intn(10); {
		case n < 5:
			put(fmt.Sprintf("d%03d", 200+rng.Intn(20)), vec()) // new or moved
		case n < 8:
			put(fmt.Sprintf("d%03d", rng.Intn(200)), vec())
		case n < 9:
			put(fmt.Sprintf("d%03d", rng.Intn(220)), nil) // removed
		default:
			for range simMaxChanged + 1 { // more changes than are remembered
				put(fmt.Sprintf("d%03d", rng.Intn(220)), vec())
			}
		}
	}
	if caughtUp < 100 {
		t.Fatalf("only %d of %d lists were brought up to date from the cache: the test does not test that", caughtUp, served)
	}
}

// TestSimilarForgetsWhatARollbackTookAway: after a rollback the seqs it took are handed out
// again, so the pair relations, shingle sets and evidence chunks kept by (document, seq) may
// describe content that is gone: they are dropped, and a later run works them out again.
func TestSimilarForgetsWhatARollbackTookAway(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	x := &EmbeddingSimilarity{}
	if err := x.Configure(nil); err != nil {
		t.Fatal(err)
	}
	const space = "static/test/2"
	ix := newSimIndex(space)
	write := func(fail bool) error {
		return db.WriteTx(ctx, func(tx *store.Tx) error {
			if _, err := store.PutDocVector(ctx, tx, space, "x", []float32{1, 0}, 10); err != nil {
				return err
			}
			if err := x.tail(ctx, ix, tx); err != nil {
				return err
			}
			// What a run keeps of x at this seq.
			e, _ := ix.entry("x")
			x.rels[simPairKey{a: "b", b: "x", seqA: 1, seqB: e.seq}] = simRel{kind: simDuplicate}
			x.shingles.put("x", e.seq, []uint64{1, 2, 3})
			x.chunkCache = append(x.chunkCache, simChunks{doc: "x", seq: e.seq})
			if fail {
				return errors.New("preempted")
			}
			return nil
		})
	}
	if err := write(true); err == nil {
		t.Fatal("the transaction was meant to fail")
	}
	err := db.WriteTx(ctx, func(tx *store.Tx) error {
		if _, err := store.PutDocVector(ctx, tx, space, "y", []float32{0, 1}, 10); err != nil { // takes x's seq
			return err
		}
		return x.tail(ctx, ix, tx)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(x.rels) != 0 || len(x.chunkCache) != 0 || len(x.shingles.sets) != 0 {
		t.Fatalf("kept after the rollback: %d relations, %d evidence documents, %d shingle sets", len(x.rels), len(x.chunkCache), len(x.shingles.sets))
	}
}

// TestSimilarScanInPartsIsOnePass: a large index is scanned in parts side by side; the list is
// the one a single pass gives, in the same order (ties by document ID).
func TestSimilarScanInPartsIsOnePass(t *testing.T) {
	const dims = 4
	rng := rand.New(rand.NewSource(3))
	ix := newSimIndex("s")
	n := simParallelScan*2 + 17
	for i := range n {
		v := []float32{float32(rng.Intn(3)), float32(rng.Intn(3)), 1, 0} // many equal cosines: ties
		if err := ix.apply(store.DocVector{Seq: int64(i + 1), DocumentID: fmt.Sprintf("d%05d", n-i), Vector: v}, false); err != nil {
			t.Fatal(err)
		}
	}
	q := []float32{1, 1, 1, 0}
	var want []simNeighbour
	for i, e := range ix.docs {
		if c := float64(simDot(q, ix.vecs[i*dims:(i+1)*dims])); c >= 2 && e.id != "d00001" {
			want = append(want, simNeighbour{doc: e.id, cos: c})
		}
	}
	slices.SortFunc(want, simNeighbourOrder)
	got := ix.scan(q, "d00001", 2)
	if len(want) < 1000 || !slices.Equal(got, want) {
		t.Fatalf("%d neighbours from the parts, %d from one pass (first %v / %v)", len(got), len(want), got[:min(3, len(got))], want[:min(3, len(want))])
	}
}

// TestSimilarIndexAfterAnotherProcessTookTheSeqs: our transaction writes and is rolled back;
// another process is then handed the same seqs, and rewrites one of its documents (its row at
// our old watermark is gone, the table's end is past it: nothing shows a rollback). The copy
// still ends as the table is, because a transaction's own rows are read back when the next
// begins; so it does when reading them back is interrupted once.
func TestSimilarIndexAfterAnotherProcessTookTheSeqs(t *testing.T) {
	ctx := context.Background()
	db, put := simVectorStore(t)
	const space = simTestSpace
	ix := newSimIndex(space)
	tail := func(fn func(tx *store.Tx)) error {
		return db.WriteTx(ctx, func(tx *store.Tx) error {
			if _, err := ix.tail(ctx, tx); err != nil {
				return err
			}
			fn(tx)
			_, err := ix.tail(ctx, tx)
			return err
		})
	}
	if err := tail(func(tx *store.Tx) { put(tx, "a", []float32{1, 0}) }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("preempted")
	err := db.WriteTx(ctx, func(tx *store.Tx) error {
		if _, err := ix.tail(ctx, tx); err != nil {
			return err
		}
		put(tx, "b", []float32{0, 1})
		put(tx, "d", []float32{0.6, 0.8})
		if _, err := ix.tail(ctx, tx); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	// Another process, not tailing: x and y take the seqs b and d had, then y moves.
	if err := db.WriteTx(ctx, func(tx *store.Tx) error {
		put(tx, "x", []float32{1, 0})
		put(tx, "y", []float32{0, 1})
		put(tx, "y", []float32{0.8, 0.6})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Our next transaction: its first read back is interrupted (a saved file preempts it).
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_ = db.WriteTx(ctx, func(tx *store.Tx) error { _, err := ix.tail(cancelled, tx); return err })
	if err := tail(func(*store.Tx) {}); err != nil {
		t.Fatal(err)
	}
	fresh := newSimIndex(space)
	if err := db.WriteTx(ctx, func(tx *store.Tx) error { _, err := fresh.tail(ctx, tx); return err }); err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{"a", "b", "d", "x", "y"} {
		if !slices.Equal(ix.vector(doc), fresh.vector(doc)) {
			t.Errorf("%s: the copy has %v, the table %v", doc, ix.vector(doc), fresh.vector(doc))
		}
	}
}

// TestSimilarIndexKeepsItsListsAcrossCommits: a transaction's own rows, read back when the next
// one begins, are the rows the copy holds when it committed: nothing changes, and the neighbour
// lists cached before stay exact without being worked out again.
func TestSimilarIndexKeepsItsListsAcrossCommits(t *testing.T) {
	ctx := context.Background()
	db, put := simVectorStore(t)
	ix := newSimIndex(simTestSpace)
	for _, doc := range []string{"a", "b", "c"} {
		err := db.WriteTx(ctx, func(tx *store.Tx) error {
			if _, err := ix.tail(ctx, tx); err != nil {
				return err
			}
			put(tx, doc, []float32{1, float32(len(doc))})
			_, err := ix.tail(ctx, tx)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ix.neighbours("a", 0)
	gen := ix.gen
	if err := db.WriteTx(ctx, func(tx *store.Tx) error { _, err := ix.tail(ctx, tx); return err }); err != nil {
		t.Fatal(err)
	}
	if ix.gen != gen || ix.lists["a"].at != ix.gen {
		t.Fatalf("reading back the committed rows changed the copy (gen %d → %d): its lists are worked out again", gen, ix.gen)
	}
}

// TestSimilarWarmLoadsTheIndex: Warm reads the space's document vectors into the index (what a
// document's run would otherwise do under its budget), and a run after it has nothing to load.
func TestSimilarWarmLoadsTheIndex(t *testing.T) {
	ctx := context.Background()
	db, put := simVectorStore(t)
	x := &EmbeddingSimilarity{}
	if err := x.Configure(nil); err != nil {
		t.Fatal(err)
	}
	err := db.WriteTx(ctx, func(tx *store.Tx) error {
		for i := range 50 {
			put(tx, fmt.Sprintf("d%02d", i), []float32{float32(i), 1})
		}
		return x.Warm(ctx, tx, simTestSpace)
	})
	if err != nil {
		t.Fatal(err)
	}
	ix := x.indexes[simTestSpace]
	if ix == nil || !ix.loaded || len(ix.slot) != 50 {
		t.Fatalf("after Warm the index holds %v", ix)
	}
	if err := x.Warm(ctx, db.Reader(), ""); err != nil {
		t.Fatalf("no space (no embedder): %v", err)
	}
}
