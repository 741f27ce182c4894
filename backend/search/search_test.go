package search

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/store"
)

// indexedCorpus is the quality corpus as chunks with static vectors, and its vector index.
func indexedCorpus(t *testing.T) (*store.DB, *Space) {
	t.Helper()
	chunks := corpusChunks(t)
	db := openTestDB(t, chunks)
	ctx := context.Background()
	st := embed.NewStatic()
	texts := make([]string, len(chunks))
	ids := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i], ids[i] = c.text, fmt.Sprintf("chk_%05d", i)
	}
	vecs, err := st.Embed(ctx, texts, embed.Document)
	if err != nil {
		t.Fatal(err)
	}
	err = db.WriteTx(ctx, func(tx *store.Tx) error {
		rowids, err := store.ChunkRowIDs(ctx, tx, ids)
		if err != nil {
			return err
		}
		list := make([]store.Embedding, len(ids))
		for i, id := range ids {
			list[i] = store.Embedding{ChunkRowID: rowids[id], Vector: vecs[i]}
		}
		return store.InsertEmbeddings(ctx, tx, st.Info().Key, list)
	})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := OpenIndex(ctx, db, st.Info().Key)
	if err != nil {
		t.Fatal(err)
	}
	return db, &Space{Index: ix, Embedder: staticQ{st}}
}

// TestSearchHybridIsDeterministic: the halves run side by side, and the answer is the same
// every time, each result saying which halves found it.
func TestSearchHybridIsDeterministic(t *testing.T) {
	db, space := indexedCorpus(t)
	s := &Searcher{DB: db, Vectors: space}
	ctx := context.Background()
	for _, q := range []string{"how do I compress a file with xz?", "copyleft license obligations ", "gzip"} {
		first, err := s.Search(ctx, Query{Text: q, Mode: ModeHybrid, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(first.Results) < 3 { // one per document, weak ones dropped (the floor)
			t.Fatalf("%q: %d results", q, len(first.Results))
		}
		both := 0
		for _, r := range first.Results {
			if len(r.Modes) == 2 {
				both++
			}
		}
		if both == 0 {
			t.Errorf("%q: no result was found by both halves: %+v", q, first.Results)
		}
		for range 5 {
			again, err := s.Search(ctx, Query{Text: q, Mode: ModeHybrid, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			first.TookMS, again.TookMS = 0, 0
			if !reflect.DeepEqual(first, again) {
				t.Fatalf("%q: answers differ", q)
			}
		}
	}
}

type failingVectors struct{}

func (failingVectors) Search(ctx context.Context, query string, k int) ([]VectorHit, error) {
	return nil, errors.New("index gone")
}
func (failingVectors) Semantic() bool { return false }

// TestSearchVectorFailure: a failing half fails the search, with its own error, not the
// cancellation it caused in the other half.
func TestSearchVectorFailure(t *testing.T) {
	db := openTestDB(t, corpusChunks(t))
	s := &Searcher{DB: db, Vectors: failingVectors{}}
	_, err := s.Search(context.Background(), Query{Text: "shell variable expansion", Mode: ModeHybrid, Limit: 10})
	if err == nil || !strings.Contains(err.Error(), "vector search: index gone") {
		t.Fatalf("got %v", err)
	}
	if resp, err := s.Search(context.Background(), Query{Text: "shell variable expansion", Mode: ModeKeyword, Limit: 10}); err != nil || len(resp.Results) == 0 {
		t.Fatalf("keyword mode does not touch vectors: %v", err)
	}
}
