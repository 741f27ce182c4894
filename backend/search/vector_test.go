package search

import (
	"context"
	"math"
	"math/rand"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/internal/testvec"
)

// randVec is a random unit vector (testvec.Unit).
var randVec = testvec.Unit

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

// TestNearestBreaksTiesByRowID: identical vectors (the chunks of copied files) tie; the k kept
// are the lowest rowids every time, whatever order chromem-go's workers finish in.
func TestNearestBreaksTiesByRowID(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := rand.New(rand.NewSource(3))
	same := randVec(r, 16)
	var list []store.Embedding
	for i := int64(1); i <= 400; i++ {
		v := randVec(r, 16)
		if i%4 == 0 {
			v = same // 100 identical vectors spread over the rowids
		}
		list = append(list, store.Embedding{ChunkRowID: i, Vector: v})
	}
	if err := db.WriteTx(ctx, func(tx *store.Tx) error { return store.InsertEmbeddings(ctx, tx, "static/test/16", list) }); err != nil {
		t.Fatal(err)
	}
	ix, err := OpenIndex(ctx, db, "static/test/16")
	if err != nil {
		t.Fatal(err)
	}
	for run := 0; run < 20; run++ {
		hits, err := ix.Nearest(ctx, same, 10)
		if err != nil || len(hits) != 10 {
			t.Fatalf("%v %v", hits, err)
		}
		for i, h := range hits {
			if want := int64(4 * (i + 1)); h.RowID != want {
				t.Fatalf("run %d: hit %d is rowid %d, want %d (ties by rowid)", run, i, h.RowID, want)
			}
		}
	}
}
