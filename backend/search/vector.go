package search

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"

	chromem "github.com/philippgille/chromem-go"

	"github.com/strata-app/strata/backend/store"
)

// QueryEmbedder turns a query into a vector of the index's space.
type QueryEmbedder interface {
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
}

// Index holds one embedding space's vectors in memory for nearest-neighbour search. SQLite is
// the truth (DESIGN.md invariant 1): the index is rebuilt from the embeddings table when it is
// opened, and before each query it tails rows added or deleted since (by any process) using
// their sequence numbers. Only chunk rowids are kept in chromem-go, not text; its own
// persistence is not used (its file names are 32-bit hashes and collide).
type Index struct {
	db    *store.DB
	space string

	mu       sync.Mutex
	coll     *chromem.Collection
	ids      map[int64]bool
	addsWM   int64 // newest embeddings.seq applied
	deleteWM int64 // newest embedding_deletes.seq applied
}

// OpenIndex builds the index of space from SQLite.
func OpenIndex(ctx context.Context, db *store.DB, space string) (*Index, error) {
	ix := &Index{db: db, space: space, ids: map[int64]bool{}}
	coll, err := chromem.NewDB().CreateCollection(space, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("vector index %s: %w", space, err)
	}
	ix.coll = coll
	// Deletions logged before this point concern rows already gone from the table.
	_, del, err := store.VectorWatermarks(ctx, db.Reader())
	if err != nil {
		return nil, err
	}
	ix.deleteWM = del
	if err := ix.tailAdds(ctx); err != nil {
		return nil, err
	}
	return ix, nil
}

// Space is the index's embedding space key.
func (ix *Index) Space() string { return ix.space }

// Len is the number of vectors held.
func (ix *Index) Len() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return len(ix.ids)
}

func (ix *Index) tailAdds(ctx context.Context) error {
	var batch []chromem.Document
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := ix.coll.AddDocuments(ctx, batch, 2); err != nil {
			return fmt.Errorf("vector index add: %w", err)
		}
		batch = batch[:0]
		return nil
	}
	err := store.EmbeddingsSince(ctx, ix.db.Reader(), ix.space, ix.addsWM, func(e store.Embedding) error {
		id := strconv.FormatInt(e.ChunkRowID, 10)
		if ix.ids[e.ChunkRowID] { // re-embedded: replace
			if err := ix.coll.Delete(ctx, nil, nil, id); err != nil {
				return fmt.Errorf("vector index replace: %w", err)
			}
		}
		ix.ids[e.ChunkRowID] = true
		batch = append(batch, chromem.Document{ID: id, Embedding: e.Vector})
		ix.addsWM = e.Seq
		if len(batch) == 1000 {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
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
		var ids []string
		for _, id := range gone {
			if ix.ids[id] {
				delete(ix.ids, id)
				ids = append(ids, strconv.FormatInt(id, 10))
			}
		}
		if len(ids) > 0 {
			if err := ix.coll.Delete(ctx, nil, nil, ids...); err != nil {
				return fmt.Errorf("vector index delete: %w", err)
			}
		}
		ix.deleteWM = last
	}
	if adds > ix.addsWM {
		return ix.tailAdds(ctx)
	}
	return nil
}

// Nearest returns the k chunks nearest to vec (cosine), best first, ties by rowid.
func (ix *Index) Nearest(ctx context.Context, vec []float32, k int) ([]VectorHit, error) {
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	ix.mu.Lock()
	n := len(ix.ids)
	ix.mu.Unlock()
	if n == 0 || k <= 0 {
		return nil, nil
	}
	// chromem-go scores in parallel and keeps the top k as they come, so among vectors tied at
	// the k-th place (identical chunks in copied files have identical vectors) which ones it
	// keeps varies from run to run; hybrid MRR on the quality corpus moved between 0.636 and
	// 0.647. Ask for more, and more again while the tie at the k-th place reaches the last
	// vector fetched; then order by (score, rowid) and cut here, so ties are broken by ID.
	want := min(k, n)
	fetch := min(n, k+max(16, k/2)) // chromem-go errors when asked for more results than it holds
	for {
		res, err := ix.coll.QueryEmbedding(ctx, vec, fetch, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("vector query: %w", err)
		}
		out := make([]VectorHit, 0, len(res))
		for _, r := range res {
			id, err := strconv.ParseInt(r.ID, 10, 64)
			if err != nil {
				continue
			}
			out = append(out, VectorHit{RowID: id, Score: float64(r.Similarity)})
		}
		sortHits(out)
		if fetch < n && len(out) > want && out[len(out)-1].Score >= out[want-1].Score {
			fetch = min(n, fetch*2) // the tie may go on beyond what was fetched
			continue
		}
		if len(out) > want {
			out = out[:want]
		}
		return out, nil
	}
}

// sortHits orders hits best first, equal similarities by rowid (determinism).
func sortHits(h []VectorHit) {
	sort.Slice(h, func(i, j int) bool {
		if h[i].Score != h[j].Score {
			return h[i].Score > h[j].Score
		}
		return h[i].RowID < h[j].RowID
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
