package search

import (
	"context"
	"math"
	"math/rand"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"testing"

	"github.com/strata-app/strata/backend/store"
)

func randVec(r *rand.Rand, d int) []float32 {
	v := make([]float32, d)
	var n float64
	for i := range v {
		v[i] = float32(r.NormFloat64())
		n += float64(v[i] * v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

func TestIndexRebuildAndTail(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "strata.db")
	a, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(ctx, path) // a second "process" on the same folder
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := rand.New(rand.NewSource(1))
	vecs := map[int64][]float32{}
	var first []store.Embedding
	for i := int64(1); i <= 300; i++ {
		vecs[i] = randVec(r, 16)
		first = append(first, store.Embedding{ChunkRowID: i, Vector: vecs[i]})
	}
	write := func(db *store.DB, space string, list []store.Embedding) {
		if err := db.WriteTx(ctx, func(tx *store.Tx) error { return store.InsertEmbeddings(ctx, tx, space, list) }); err != nil {
			t.Fatal(err)
		}
	}
	write(a, "static/test/16", first)
	write(a, "other/space/16", first[:10]) // another space never leaks in
	ix, err := OpenIndex(ctx, a, "static/test/16")
	if err != nil {
		t.Fatal(err)
	}
	if ix.Len() != 300 {
		t.Fatalf("rebuilt %d vectors, want 300", ix.Len())
	}
	hits, err := ix.Nearest(ctx, vecs[42], 5)
	if err != nil || hits[0].RowID != 42 || math.Abs(hits[0].Score-1) > 1e-4 {
		t.Fatalf("nearest to itself: %+v %v", hits, err)
	}
	if hits, _ := ix.Nearest(ctx, vecs[1], 10_000); len(hits) != 300 {
		t.Fatalf("k is clamped to the collection size: %d", len(hits))
	}

	// The other handle adds 20 vectors, replaces one, and deletes chunk 42.
	var more []store.Embedding
	for i := int64(301); i <= 320; i++ {
		vecs[i] = randVec(r, 16)
		more = append(more, store.Embedding{ChunkRowID: i, Vector: vecs[i]})
	}
	vecs[7] = randVec(r, 16)
	more = append(more, store.Embedding{ChunkRowID: 7, Vector: vecs[7]})
	write(b, "static/test/16", more)
	err = b.WriteTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM embeddings WHERE chunk_rowid = 42`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO embedding_deletes(chunk_rowid) VALUES (42)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	hits, _ = ix.Nearest(ctx, vecs[310], 1)
	if ix.Len() != 319 || hits[0].RowID != 310 {
		t.Fatalf("tail: len %d, nearest %+v", ix.Len(), hits)
	}
	if hits, _ := ix.Nearest(ctx, vecs[7], 1); hits[0].RowID != 7 || hits[0].Score < 0.999 {
		t.Fatalf("a replaced vector must be the new one: %+v", hits)
	}
	// A fresh rebuild equals the tailed index.
	fresh, err := OpenIndex(ctx, b, "static/test/16")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []int64{1, 7, 100, 315} {
		x, _ := ix.Nearest(ctx, vecs[q], 20)
		y, _ := fresh.Nearest(ctx, vecs[q], 20)
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("rebuild differs from tailed index for %d:\n%v\n%v", q, x, y)
		}
	}
}

// TestNearestIsExact compares the index with a brute-force scan over enough vectors for the
// scan to be split between cores: the same chunks with the same similarities, duplicates
// (equal similarity) in rowid order, and the same answer however many cores take part.
func TestNearestIsExact(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := rand.New(rand.NewSource(7))
	const n, dims = 40_000, 32
	vecs := make([][]float32, n+1)
	var list []store.Embedding
	for i := int64(1); i <= n; i++ {
		if i > 1 && i%1000 == 0 {
			vecs[i] = vecs[i-1] // a duplicate: a tie to break by rowid
		} else {
			vecs[i] = randVec(r, dims)
			for d := range vecs[i] {
				if r.Intn(4) == 0 {
					vecs[i][d] = 0 // sparse, like a static embedding
				}
			}
		}
		list = append(list, store.Embedding{ChunkRowID: i, Vector: vecs[i]})
	}
	if err := db.WriteTx(ctx, func(tx *store.Tx) error { return store.InsertEmbeddings(ctx, tx, "static/test/32", list) }); err != nil {
		t.Fatal(err)
	}
	ix, err := OpenIndex(ctx, db, "static/test/32")
	if err != nil {
		t.Fatal(err)
	}
	cos := func(a, b []float32) float64 {
		var ab, aa, bb float64
		for i := range a {
			ab += float64(a[i]) * float64(b[i])
			aa += float64(a[i]) * float64(a[i])
			bb += float64(b[i]) * float64(b[i])
		}
		if aa == 0 || bb == 0 {
			return 0
		}
		return ab / math.Sqrt(aa*bb)
	}
	for _, qi := range []int64{999, 1000, 5, 31_337} {
		q := append([]float32(nil), vecs[qi]...)
		for d := range q {
			q[d] *= 3 // the query need not be unit length
		}
		const k = 100
		got, err := ix.Nearest(ctx, q, k)
		if err != nil || len(got) != k {
			t.Fatalf("%d hits, %v", len(got), err)
		}
		// Brute force, in float64.
		type sc struct {
			id int64
			s  float64
		}
		all := make([]sc, 0, n)
		for i := int64(1); i <= n; i++ {
			all = append(all, sc{i, cos(q, vecs[i])})
		}
		sort.Slice(all, func(i, j int) bool {
			if all[i].s != all[j].s {
				return all[i].s > all[j].s
			}
			return all[i].id < all[j].id
		})
		kth := all[k-1].s
		for i, h := range got {
			if want := cos(q, vecs[h.RowID]); math.Abs(h.Score-want) > 1e-5 || h.Score < kth-1e-5 {
				t.Fatalf("query %d: hit %d is chunk %d at %f (exact %f, k-th best %f)", qi, i, h.RowID, h.Score, want, kth)
			}
			if i > 0 && betterHit(h, got[i-1]) {
				t.Fatalf("query %d: hits out of order at %d", qi, i)
			}
		}
		if qi%1000 != 999 && qi%1000 != 0 && got[0].RowID != qi {
			t.Fatalf("query %d: nearest is %d", qi, got[0].RowID)
		}
		if qi%1000 == 0 && (got[0].RowID != qi-1 || got[1].RowID != qi) {
			t.Fatalf("duplicates %d and %d tie and go by rowid: %v", qi-1, qi, got[:2])
		}
		prev := runtime.GOMAXPROCS(1)
		one, err := ix.Nearest(ctx, q, k)
		runtime.GOMAXPROCS(prev)
		if err != nil || !reflect.DeepEqual(one, got) {
			t.Fatalf("query %d: one core answers differently", qi)
		}
	}
	if _, err := ix.Nearest(ctx, make([]float32, 5), 3); err == nil {
		t.Fatal("a query of the wrong dimension is an error")
	}
}
