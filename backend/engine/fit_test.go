package engine_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"sync"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/search/quality"
)

var fit = flag.Bool("fit", false, "TestFitFusion: grid-search the ranking weights and the floor of evidence over the quality questions")

// qualityEngine ingests the quality corpus once per test binary (3 MB of real documents).
var qualityEngine = sync.OnceValues(func() (*engine.Engine, error) {
	dir, err := os.MkdirTemp("", "strata-quality-")
	if err != nil {
		return nil, err
	}
	cfg := config(dir, func(c *engine.Config) { c.Now = nil })
	e, err := engine.Open(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	res, err := e.IngestPaths(context.Background(), local, []string{quality.CorpusDir()})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range res {
		if r.Result == nil {
			return nil, fmt.Errorf("%s: %v", r.Path, r.Error)
		}
		ids = append(ids, r.Result.DocumentID)
	}
	if _, err := e.WaitDocuments(context.Background(), ids, nil); err != nil {
		return nil, err
	}
	return e, nil
})

func qualitySetup(t *testing.T) *engine.Engine {
	t.Helper()
	if testing.Short() {
		t.Skip("ingests a 3 MB corpus")
	}
	e, err := qualityEngine()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// questionSets are the quality corpus's question files: the first 71, and the mixed set when
// it is there.
func questionSets(t *testing.T) map[string][]quality.Question {
	sets := map[string][]quality.Question{}
	for name, file := range map[string]string{"old": quality.QuestionsFile(), "mixed": quality.MixedQuestionsFile()} {
		if _, err := os.Stat(file); err != nil {
			continue
		}
		qs, err := quality.LoadQuestions(file)
		if err != nil {
			t.Fatal(err)
		}
		sets[name] = qs
	}
	return sets
}

// scoreWith evaluates one mode with the given weights and floor (nil: the defaults).
func scoreWith(t *testing.T, e *engine.Engine, qs []quality.Question, mode string, w *search.Weights, f *search.Floor) quality.Score {
	t.Helper()
	rank := func(ctx context.Context, q string, k int) ([]string, error) {
		resp, err := e.Search(ctx, engine.SearchRequest{Query: q, Mode: mode, Limit: 10, Ranking: w, Floor: f})
		if err != nil {
			return nil, err
		}
		var out []string
		for _, r := range resp.Results {
			out = append(out, r.Path)
		}
		return out, nil
	}
	s, err := quality.Evaluate(context.Background(), mode, qs, rank)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fillerQueries are queries the corpus has no answer to: gibberish, and questions about other
// things. Whatever they return is filler.
var fillerQueries = []string{"zzzzqqq", "qwxv zzkj", "xyzzy plugh frobnicate", "recipe for a chocolate cake with strawberries",
	"who won the football world cup", "best hiking trails in the alps", "symptoms of the common cold in toddlers",
	"how to train a puppy to sit"}

// TestFitFusion fits the ranking's weights by a grid search (objective: hybrid MRR@10 +
// recall@5), cross-validated: fitted on the odd questions and measured on the even ones, and
// the other way round. It then calibrates the floor of evidence: the highest floors that lose
// no relevant result on the questions, against how many results filler queries still get.
// Run with -fit; it prints figures, the constants are set by hand in search.go from them.
func TestFitFusion(t *testing.T) {
	if !*fit {
		t.Skip("run with -fit")
	}
	e := qualitySetup(t)
	var all []quality.Question
	sets := questionSets(t)
	for _, name := range []string{"old", "mixed"} {
		all = append(all, sets[name]...)
	}
	var halves [2][]quality.Question
	for i, q := range all {
		halves[i%2] = append(halves[i%2], q)
	}
	noFloor := &search.Floor{}
	var grid []search.Weights
	for _, k := range []float64{0.6, 0.8, 1} {
		for _, c := range []float64{0, 0.25} {
			for _, cov := range []float64{0, 0.5} {
				for _, doc := range []float64{0, 0.5, 1} {
					grid = append(grid, search.Weights{Keyword: k, Vector: 1 - k, Context: c, Title: 0.3, Coverage: cov, Document: doc})
				}
			}
		}
	}
	objective := func(s quality.Score) float64 { return s.MRRAt10 + s.RecallAt5 + s.NDCGAt10 }
	best := func(qs []quality.Question) (search.Weights, quality.Score) {
		type r struct {
			w search.Weights
			s quality.Score
		}
		var rs []r
		for _, w := range grid {
			rs = append(rs, r{w, scoreWith(t, e, qs, "hybrid", &w, noFloor)})
		}
		sort.SliceStable(rs, func(i, j int) bool { return objective(rs[i].s) > objective(rs[j].s) })
		for _, x := range rs[:5] {
			t.Logf("  %+v  %s", x.w, x.s)
		}
		return rs[0].w, rs[0].s
	}
	for i := range 2 {
		w, s := best(halves[i])
		held := scoreWith(t, e, halves[1-i], "hybrid", &w, noFloor)
		kw := scoreWith(t, e, halves[1-i], "keyword", &w, noFloor)
		t.Logf("fit on half %d: %+v: fitted %s; held-out half: hybrid %s, keyword %s", i, w, s, held, kw)
	}
	w, s := best(all)
	t.Logf("fit on all %d questions: %+v: %s", len(all), w, s)

	// The floor: for each candidate, what relevant answers are lost and what filler is left.
	for _, kf := range []float64{0, 0.2, 0.3} {
		for _, vf := range []float64{0, 0.3, 1.01} {
			f := &search.Floor{KeywordShare: kf, Vector: vf, Known: 0.5}
			q := scoreWith(t, e, all, "hybrid", &w, f)
			filler := 0
			for _, fq := range fillerQueries {
				resp, err := e.Search(context.Background(), engine.SearchRequest{Query: fq, Limit: 10, Ranking: &w, Floor: f})
				if err != nil {
					t.Fatal(err)
				}
				filler += len(resp.Results)
			}
			t.Logf("floor keyword %.2f vector %.2f: %s, filler results %d of %d queries", kf, vf, q, filler, len(fillerQueries))
		}
	}
}
