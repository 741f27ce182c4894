package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/search/quality"
)

// TestRetrievalQuality ingests the quality corpus (real documents) and scores keyword-only,
// vector-only (static embedder) and hybrid search on questions phrased in other words than the
// text: recall@5 and MRR@10. Hybrid must beat keyword-only.
func TestRetrievalQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests a 3 MB corpus")
	}
	ctx := context.Background()
	e := open(t, func(c *engine.Config) { c.Now = nil })
	res, err := e.IngestPaths(ctx, local, []string{quality.CorpusDir()})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range res {
		if r.Result == nil {
			t.Fatalf("%s: %v", r.Path, r.Error)
		}
		ids = append(ids, r.Result.DocumentID)
	}
	settle(t, e, ids...)
	qs, err := quality.LoadQuestions(quality.QuestionsFile())
	if err != nil {
		t.Fatal(err)
	}
	scores := map[string]quality.Score{}
	for _, mode := range []string{"keyword", "semantic", "hybrid"} {
		rank := func(ctx context.Context, q string, k int) ([]string, error) {
			resp, err := e.Search(ctx, engine.SearchRequest{Query: q, Mode: mode, Limit: 10, PerDocument: true})
			if err != nil {
				return nil, err
			}
			var out []string
			for _, r := range resp.Results {
				out = append(out, r.Path)
			}
			return out, nil
		}
		s, err := quality.Evaluate(ctx, mode, qs, rank)
		if err != nil {
			t.Fatal(err)
		}
		scores[mode] = s
		t.Log(s.String())
	}
	if os.Getenv("STRATA_QUALITY_OUT") != "" {
		f, _ := os.Create(filepath.Clean(os.Getenv("STRATA_QUALITY_OUT")))
		for _, m := range []string{"keyword", "semantic", "hybrid"} {
			f.WriteString(scores[m].String() + "\n")
		}
		f.Close()
	}
	// Hybrid beats keyword-only: no worse on either measure, better on at least one.
	if h, k := scores["hybrid"], scores["keyword"]; h.RecallAt5 < k.RecallAt5 || h.MRRAt10 < k.MRRAt10 ||
		(h.RecallAt5 == k.RecallAt5 && h.MRRAt10 == k.MRRAt10) {
		t.Errorf("hybrid must beat keyword-only: %v vs %v", h, k)
	}
}
