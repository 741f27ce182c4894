package search

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/search/quality"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/internal/benchdata"
)

const partSpace = "static/test/16"

// partOpts partitions from 200 vectors, and probes every partition: the answer must then be
// exactly the exhaustive one, so any vector the bookkeeping loses or keeps too long shows.
var partOpts = IndexOptions{MinPartitioned: 200, Probes: 1 << 20}

// exact is the brute-force top k of vecs (best first, ties by rowid): the truth to compare to.
func exact(vecs map[int64][]float32, q []float32, k int) []int64 {
	type s struct {
		id int64
		v  float32
	}
	var all []s
	for id, v := range vecs {
		all = append(all, s{id, dot(q, v)})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].v != all[j].v {
			return all[i].v > all[j].v
		}
		return all[i].id < all[j].id
	})
	var out []int64
	for _, x := range all[:min(k, len(all))] {
		out = append(out, x.id)
	}
	return out
}

func ids(h []VectorHit) []int64 {
	out := make([]int64, len(h))
	for i, x := range h {
		out[i] = x.RowID
	}
	return out
}

func writeVecs(t *testing.T, db *store.DB, space string, vecs map[int64][]float32, from, to int64, r *rand.Rand) {
	t.Helper()
	var list []store.Embedding
	for i := from; i <= to; i++ {
		vecs[i] = randVec(r, 16)
		list = append(list, store.Embedding{ChunkRowID: i, Vector: vecs[i]})
	}
	if err := db.WriteTx(context.Background(), func(tx *store.Tx) error { return store.InsertEmbeddings(context.Background(), tx, space, list) }); err != nil {
		t.Fatal(err)
	}
}

func deleteVecs(t *testing.T, db *store.DB, vecs map[int64][]float32, list ...int64) {
	t.Helper()
	ctx := context.Background()
	err := db.WriteTx(ctx, func(tx *store.Tx) error {
		for _, id := range list {
			delete(vecs, id)
			if _, err := tx.ExecContext(ctx, `DELETE FROM embeddings WHERE chunk_rowid = ?`, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO embedding_deletes(chunk_rowid) VALUES (?)`, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func checkExact(t *testing.T, what string, ix *Index, vecs map[int64][]float32, r *rand.Rand) {
	t.Helper()
	for q := 0; q < 20; q++ {
		v := randVec(r, 16)
		got, err := ix.Nearest(context.Background(), v, 15)
		if err != nil {
			t.Fatal(err)
		}
		if want := exact(vecs, v, 15); !reflect.DeepEqual(ids(got), want) {
			t.Fatalf("%s: query %d:\n got %v\nwant %v", what, q, ids(got), want)
		}
	}
	if ix.Len() != len(vecs) {
		t.Fatalf("%s: %d vectors held, want %d", what, ix.Len(), len(vecs))
	}
}

// TestPartitionedFollowsWrites: the partitioned index trains and saves a layout, and follows
// adds, re-embeds and deletes made by another handle — tailed into the live index, and into a
// fresh index opened from the saved layout while its blocks load — and re-trains once the space
// has doubled.
func TestPartitionedFollowsWrites(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "strata.db")
	a, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(ctx, path) // another process on the same folder
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := rand.New(rand.NewSource(5))
	vecs := map[int64][]float32{}
	writeVecs(t, a, partSpace, vecs, 1, 1000, r)
	writeVecs(t, a, "other/space/16", map[int64][]float32{}, 1, 50, r) // another space never leaks in

	ix, err := OpenIndexWith(ctx, a, partSpace, partOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	checkExact(t, "exhaustive before training", ix, vecs, r)
	if err := ix.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	if p := ix.Partitions(); p != 32 { // round(√1000)
		t.Fatalf("%d partitions after training, want 32", p)
	}
	l, err := store.ReadVectorLayout(ctx, a.Reader(), partSpace)
	if err != nil || l == nil || len(l.Centroids) != 32 {
		t.Fatalf("saved layout: %+v %v", l, err)
	}
	checkExact(t, "trained", ix, vecs, r)

	// The other handle adds 60, re-embeds 7 and deletes 9 (some re-embedded ones among them).
	writeVecs(t, b, partSpace, vecs, 1001, 1060, r)
	writeVecs(t, b, partSpace, vecs, 100, 106, r)
	deleteVecs(t, b, vecs, 1, 2, 3, 104, 105, 500, 700, 1001, 1060)
	checkExact(t, "after writes", ix, vecs, r)

	// A fresh process opens the saved layout (exact at its watermarks) and tails the rest; its
	// first queries run while blocks still load.
	fresh, err := OpenIndexWith(ctx, b, partSpace, partOpts)
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, "fresh from the saved layout", fresh, vecs, r)
	if err := fresh.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	checkExact(t, "fresh, loaded", fresh, vecs, r)
	fresh.Close()

	// Doubled: re-trained (more partitions) while queries go on, and still exact.
	writeVecs(t, b, partSpace, vecs, 2000, 3200, r)
	checkExact(t, "doubled", ix, vecs, r)
	if err := ix.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	if p := ix.Partitions(); p <= 32 {
		t.Fatalf("%d partitions after the space doubled: not re-trained", p)
	}
	checkExact(t, "re-trained", ix, vecs, r)
}

// TestPartitionedConcurrentQueriesWhileLoading: queries from many goroutines on an index whose
// blocks are still loading, with writes going on, are all exact (run with -race).
func TestPartitionedConcurrentQueriesWhileLoading(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := rand.New(rand.NewSource(9))
	vecs := map[int64][]float32{}
	writeVecs(t, db, partSpace, vecs, 1, 3000, r)
	first, err := OpenIndexWith(ctx, db, partSpace, partOpts)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	first.Close()
	for round := 0; round < 3; round++ {
		ix, err := OpenIndexWith(ctx, db, partSpace, partOpts)
		if err != nil {
			t.Fatal(err)
		}
		queries := make([][]float32, 8)
		for i := range queries {
			queries[i] = randVec(r, 16)
		}
		var wg sync.WaitGroup
		errc := make(chan error, len(queries))
		for _, q := range queries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := ix.Nearest(ctx, q, 10)
				if err == nil && !reflect.DeepEqual(ids(got), exact(vecs, q, 10)) {
					err = fmt.Errorf("got %v want %v", ids(got), exact(vecs, q, 10))
				}
				errc <- err
			}()
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		ix.Close() // may stop a load half-way: Close waits for it
	}
}

// TestPartitionsDeterministic: the same vectors give the same centroids and partitions in two
// stores, whatever order they were written in.
func TestPartitionsDeterministic(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(11))
	var list []store.Embedding
	for i := int64(1); i <= 800; i++ {
		list = append(list, store.Embedding{ChunkRowID: i, Vector: randVec(r, 16)})
	}
	var layouts []*store.VectorLayout
	for run := 0; run < 2; run++ {
		db, err := store.Open(ctx, filepath.Join(t.TempDir(), "strata.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		order := append([]store.Embedding(nil), list...)
		if run == 1 {
			rand.New(rand.NewSource(2)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		if err := db.WriteTx(ctx, func(tx *store.Tx) error { return store.InsertEmbeddings(ctx, tx, partSpace, order) }); err != nil {
			t.Fatal(err)
		}
		ix, err := OpenIndexWith(ctx, db, partSpace, partOpts)
		if err != nil {
			t.Fatal(err)
		}
		if err := ix.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		ix.Close()
		l, err := store.ReadVectorLayout(ctx, db.Reader(), partSpace)
		if err != nil || l == nil {
			t.Fatalf("layout: %v", err)
		}
		l.AddsWM, l.DeletesWM = 0, 0
		layouts = append(layouts, l)
	}
	if !reflect.DeepEqual(layouts[0], layouts[1]) {
		t.Fatalf("same vectors, different layouts: sizes %v vs %v", layouts[0].Sizes, layouts[1].Sizes)
	}
}

// TestPartitionedRecallOnRealVectors: on 6k chunks of real prose with the static embedder, the
// production probe share keeps ≥ 0.95 of the exhaustive top 10 for the quality questions (the
// space is partitioned from 1,000 vectors here; in production from 20,000).
func TestPartitionedRecallOnRealVectors(t *testing.T) {
	if testing.Short() {
		t.Skip("fills 6k chunks")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := benchdata.Fill(ctx, db, 6000); err != nil {
		t.Fatal(err)
	}
	key := embed.NewStatic().Info().Key
	ex, err := OpenIndexWith(ctx, db, key, IndexOptions{MinPartitioned: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ix, err := OpenIndexWith(ctx, db, key, IndexOptions{MinPartitioned: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	if ix.Partitions() < 50 {
		t.Fatalf("%d partitions: not partitioned", ix.Partitions())
	}
	qs, err := quality.LoadQuestions(quality.QuestionsFile())
	if err != nil {
		t.Fatal(err)
	}
	st := embed.NewStatic()
	var qv [][]float32
	for _, q := range qs {
		qv = append(qv, st.EmbedOne(q.Question))
	}
	if rec := recallAt10(t, ex, ix, qv); rec < 0.95 {
		t.Fatalf("recall@10 against the exhaustive index %.3f < 0.95 (%d questions)", rec, len(qs))
	}
}
