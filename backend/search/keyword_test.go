package search

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"reflect"
	"sort"
	"sync/atomic"
	"testing"

	"github.com/strata-app/strata/backend/search/quality"
	"github.com/strata-app/strata/backend/store"
)

// ftsRanked is FTS5's own ranking of every chunk matching match: rowid → -bm25.
func ftsRanked(t *testing.T, db *store.DB, match string) map[int64]float64 {
	t.Helper()
	rows, err := db.Reader().QueryContext(context.Background(), `SELECT rowid, -rank FROM chunks_fts WHERE chunks_fts MATCH ?`, match)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]float64{}
	for rows.Next() {
		var id int64
		var s float64
		if err := rows.Scan(&id, &s); err != nil {
			t.Fatal(err)
		}
		out[id] = s
	}
	return out
}

var bm25Queries = []string{
	"can I sell software that includes GPL code?",
	"gzip compression level ",
	`"due date" invoice due `,
	`"general public license" copyleft license `,
	"shell shell variable expansion ",
	"Ünïcode café naïve résumé ",
	"the ",
}

// TestBM25MatchesFTS5 scores every chunk that matches each query with the Go BM25 and compares
// with FTS5's bm25() on the same index: same tokens, totals and formula, so the same numbers.
func TestBM25MatchesFTS5(t *testing.T) {
	db := openTestDB(t, corpusChunks(t))
	ctx := context.Background()
	totals, err := store.ReadFTSTotals(ctx, db.Reader())
	if err != nil || totals.Rows != int64(len(corpusChunks(t))) || totals.Tokens == 0 {
		t.Fatalf("totals %+v %v", totals, err)
	}
	n := float64(totals.Rows)
	for _, qtext := range bm25Queries {
		terms := queryTerms(qtext)
		want := ftsRanked(t, db, joinTerms(terms))
		if len(want) == 0 {
			continue
		}
		// The phrases with their true document frequencies (prefixes as FTS5 expands them).
		var phrases []*kwPhrase
		var occ []int
		nbits := 0
		for _, term := range terms {
			p := &kwPhrase{toks: ftsTokens(term.text), prefix: term.prefix}
			for range p.toks {
				p.bits = append(p.bits, nbits)
				nbits++
			}
			ids, err := store.MatchRowIDs(ctx, db.Reader(), term.expr(), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			p.df = float64(len(ids))
			occ = append(occ, len(phrases))
			phrases = append(phrases, p)
		}
		sc := newBM25(phrases, occ, n, float64(totals.Tokens)/n)
		var ids []int64
		for id := range want {
			ids = append(ids, id)
		}
		bodies, err := store.ChunkBodies(ctx, db.Reader(), ids)
		if err != nil || len(bodies) != len(ids) {
			t.Fatalf("bodies: %d of %d, %v", len(bodies), len(ids), err)
		}
		for _, b := range bodies {
			got := sc.score(b.Text, b.Heading)
			if math.Abs(got-want[b.RowID]) > 1e-9*math.Max(1, math.Abs(got)) {
				t.Fatalf("%q: chunk %d scores %.12f here, %.12f in FTS5", qtext, b.RowID, got, want[b.RowID])
			}
		}
		t.Logf("%q: %d chunks agree", qtext, len(bodies))
	}
}

func hitIDs(h []store.SearchHit) []string {
	out := make([]string, len(h))
	for i, x := range h {
		out[i] = x.ChunkID
	}
	return out
}

// TestKeywordTwoStageExactWhenUnbounded: with budgets too large to cut anything, the two-stage
// search is FTS5's ranking, filters and as-you-type prefixes included.
func TestKeywordTwoStageExactWhenUnbounded(t *testing.T) {
	db := openTestDB(t, corpusChunks(t))
	ctx := context.Background()
	unbounded := keywordBudget{exact: 0, probe: 1 << 20, postings: 1 << 30, candidates: 1 << 20}
	for _, qtext := range append(bm25Queries, "gzip compr", "licen", "bash posix mo") {
		for _, f := range []store.SearchFilter{{}, {PathPrefix: "/t/license"}} {
			got, _, err := keywordSearch(ctx, db.Reader(), qtext, f, 20, unbounded)
			if err != nil {
				t.Fatal(err)
			}
			// The truth: FTS5's ranking of every match, filtered, ties by chunk ID.
			all := ftsRanked(t, db, MatchExpr(qtext))
			var ids []int64
			for id := range all {
				ids = append(ids, id)
			}
			pass, err := store.HitsByRowID(ctx, db.Reader(), ids, f)
			if err != nil {
				t.Fatal(err)
			}
			var want []store.SearchHit
			for id, h := range pass {
				h.Score = all[id]
				want = append(want, h)
			}
			sort.Slice(want, func(i, j int) bool {
				if want[i].Score != want[j].Score {
					return want[i].Score > want[j].Score
				}
				return want[i].ChunkID < want[j].ChunkID
			})
			want = want[:min(len(want), 20)]
			if !reflect.DeepEqual(hitIDs(got), hitIDs(want)) {
				t.Fatalf("%q %+v:\n got %v\nwant %v", qtext, f, hitIDs(got), hitIDs(want))
			}
			for i := range got {
				if math.Abs(got[i].Score-want[i].Score) > 1e-9*want[i].Score {
					t.Fatalf("%q: score %d is %f, FTS5 %f", qtext, i, got[i].Score, want[i].Score)
				}
			}
		}
	}
}

// TestKeywordTwoStageKeepsTheBest: with the default budget, forced to two stages on the quality
// corpus (5,200 chunks), the quality questions keep most of FTS5's exact top 10, and the same
// query always gives the same answer.
func TestKeywordTwoStageKeepsTheBest(t *testing.T) {
	db := openTestDB(t, corpusChunks(t))
	ctx := context.Background()
	qs, err := quality.LoadQuestions(quality.QuestionsFile())
	if err != nil {
		t.Fatal(err)
	}
	bud := defaultKeywordBudget
	bud.exact = 0
	bud.candidates = 100 // a 5k-chunk index needs a smaller pool to make the test bite
	bud.postings = 2000
	var kept float64
	for _, q := range qs {
		got, _, err := keywordSearch(ctx, db.Reader(), q.Question, store.SearchFilter{}, 10, bud)
		if err != nil {
			t.Fatal(err)
		}
		again, _, _ := keywordSearch(ctx, db.Reader(), q.Question, store.SearchFilter{}, 10, bud)
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("%q: two runs differ", q.Question)
		}
		want, err := store.KeywordSearch(ctx, db.Reader(), MatchExpr(q.Question), store.SearchFilter{}, 10)
		if err != nil {
			t.Fatal(err)
		}
		in := map[string]bool{}
		for _, h := range got {
			in[h.ChunkID] = true
		}
		n := 0
		for _, h := range want {
			if in[h.ChunkID] {
				n++
			}
		}
		if len(want) > 0 {
			kept += float64(n) / float64(len(want))
		}
	}
	kept /= float64(len(qs))
	t.Logf("two-stage keeps %.3f of FTS5's top 10", kept)
	if kept < 0.8 {
		t.Fatalf("two-stage keeps only %.3f of the exact top 10", kept)
	}
}

func TestEstimateDF(t *testing.T) {
	p := &kwPhrase{rowids: []int64{5, 10, 20, 40}, complete: true}
	if got := estimateDF(p, 1000, 1, 1000); got != 4 {
		t.Errorf("complete: %v", got)
	}
	p.complete = false // 4 matches in the first 40 of 1000 rowids: about 100
	if got := estimateDF(p, 1000, 1, 1000); got != 100 {
		t.Errorf("estimate: %v", got)
	}
	p.rowids = []int64{1, 2, 3, 4}
	if got := estimateDF(p, 500, 1, 1000); got != 500 {
		t.Errorf("capped at the row count: %v", got)
	}
}

func TestReadFTSTotalsEmpty(t *testing.T) {
	db := openTestDB(t, nil)
	got, err := store.ReadFTSTotals(context.Background(), db.Reader())
	if err != nil || got != (store.FTSTotals{}) {
		t.Fatalf("%+v %v", got, err)
	}
	hits, _, err := keywordSearch(context.Background(), db.Reader(), "anything at all", store.SearchFilter{}, 10, keywordBudget{probe: 1, postings: 1, candidates: 1})
	if err != nil || len(hits) != 0 {
		t.Fatalf("%v %v", hits, err)
	}
}

func TestSelectBest(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, n := range []int{1, 2, 7, 100, 5000} {
		c := make([]candidate, n)
		for i := range c {
			c[i] = candidate{rowid: int64(i + 1), score: float64(r.Intn(20))} // many ties
		}
		want := append([]candidate(nil), c...)
		sort.Slice(want, func(i, j int) bool { return want[i].better(want[j]) })
		for _, k := range []int{0, 1, n / 3, n - 1, n} {
			got := append([]candidate(nil), c...)
			r.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
			selectBest(got, k)
			top := got[:k]
			sort.Slice(top, func(i, j int) bool { return top[i].better(top[j]) })
			if !reflect.DeepEqual(top, want[:k]) {
				t.Fatalf("n=%d k=%d: the first k are not the best k", n, k)
			}
		}
	}
}

func TestMergeScores(t *testing.T) {
	acc := mergeScores(nil, []int64{2, 5, 9}, 1, nil)
	acc = mergeScores(acc, []int64{1, 5, 9, 12}, 0.5, nil)
	want := []candidate{{1, 0.5}, {2, 1}, {5, 1.5}, {9, 1.5}, {12, 0.5}}
	if !reflect.DeepEqual(acc, want) {
		t.Fatalf("%v", acc)
	}
}

func TestInParallel(t *testing.T) {
	ctx := context.Background()
	var done [50]atomic.Bool
	if err := inParallel(ctx, len(done), func(i int) error { done[i].Store(true); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range done {
		if !done[i].Load() {
			t.Fatalf("item %d not run", i)
		}
	}
	boom := errors.New("boom")
	if err := inParallel(ctx, 50, func(i int) error {
		if i == 7 {
			return boom
		}
		return nil
	}); !errors.Is(err, boom) {
		t.Fatalf("error lost: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := inParallel(cctx, 50, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancellation lost: %v", err)
	}
}
