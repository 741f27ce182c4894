package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
)

func searchFixture(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	dir := t.TempDir()
	e := open(t)
	files := map[string]string{
		"invoices/acme.md":   "# Invoice INV-7\n\nBill to: Globex. Amount due: €1,500.00 by 2025-03-14. Vendor: Acme Corp. #finance\n",
		"invoices/other.md":  "# Invoice INV-8\n\nBill to: Initech. Amount due: $200.00. Vendor: Umbrella.\n",
		"notes/meeting.md":   "# Weekly sync\n\nAttendees: Ada, Bob\n\nAction items: call Acme about the renewal.\n",
		"notes/gardening.md": "# Tomatoes\n\nWater the tomatoes every morning; prune the side shoots.\n",
	}
	var paths []string
	for name, text := range files {
		paths = append(paths, write(t, filepath.Join(dir, name), text))
	}
	res, err := e.IngestPaths(context.Background(), local, []string{dir})
	if err != nil || len(res) != len(files) {
		t.Fatal(res, err)
	}
	var ids []string
	for _, r := range res {
		ids = append(ids, r.Result.DocumentID)
	}
	settle(t, e, ids...)
	return e, dir
}

func TestKeywordSearch(t *testing.T) {
	e, dir := searchFixture(t)
	ctx := context.Background()
	search := func(r engine.SearchRequest) *engine.SearchResponse {
		t.Helper()
		resp, err := e.Search(ctx, r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		return resp
	}
	r := search(engine.SearchRequest{Query: "tomatoes", Mode: "keyword"})
	if len(r.Results) != 1 || filepath.Base(r.Results[0].Path) != "gardening.md" || r.Results[0].LineStart != 1 ||
		r.Results[0].Snippet == "" || r.Results[0].Modes["keyword"] <= 0 {
		t.Fatalf("exact term: %+v", r.Results)
	}
	// Prefix while typing, and a phrase.
	if r := search(engine.SearchRequest{Query: "tomat", Mode: "keyword"}); len(r.Results) != 1 {
		t.Fatalf("prefix: %+v", r.Results)
	}
	if r := search(engine.SearchRequest{Query: `"amount due"`, Mode: "keyword"}); len(r.Results) != 2 {
		t.Fatalf("phrase: %+v", r.Results)
	}
	// User text never breaks MATCH.
	for _, q := range []string{`"`, `acme"`, `NEAR(`, `a AND`, `*`, `-acme`, `col:x`, `^`, `{}`, `'; DROP TABLE chunks; --`, `€`, "\x00"} {
		if _, err := e.Search(ctx, engine.SearchRequest{Query: q, Mode: "keyword"}); err != nil && errs.CodeOf(err) != errs.Validation {
			t.Errorf("query %q: %v", q, err)
		}
	}
	// Filters.
	if r := search(engine.SearchRequest{Query: "acme", Mode: "keyword", Path: filepath.Join(dir, "notes")}); len(r.Results) != 1 || filepath.Base(r.Results[0].Path) != "meeting.md" {
		t.Errorf("path filter: %+v", r.Results)
	}
	if r := search(engine.SearchRequest{Query: "acme", Mode: "keyword", Type: "invoice"}); len(r.Results) != 1 || filepath.Base(r.Results[0].Path) != "acme.md" {
		t.Errorf("type filter: %+v", r.Results)
	}
	if r := search(engine.SearchRequest{Query: "amount", Mode: "keyword", Tag: "#finance"}); len(r.Results) != 1 {
		t.Errorf("tag filter: %+v", r.Results)
	}
	if r := search(engine.SearchRequest{Query: "amount", Mode: "keyword", From: "2999-01-01"}); len(r.Results) != 0 {
		t.Errorf("date filter: %+v", r.Results)
	}
	if r := search(engine.SearchRequest{Query: "invoice amount bill", Mode: "keyword", PerDocument: true}); len(r.Results) != 2 {
		t.Errorf("per document: %+v", r.Results)
	}
	// Determinism: same query, same order.
	a, b := search(engine.SearchRequest{Query: "invoice acme due", Mode: "hybrid"}), search(engine.SearchRequest{Query: "invoice acme due", Mode: "hybrid"})
	if !reflect.DeepEqual(ids(a), ids(b)) {
		t.Error("same query, different order")
	}
	// A removed file leaves the index.
	os.Remove(filepath.Join(dir, "notes", "gardening.md"))
	e.Reconcile(ctx, local, dir)
	if r := search(engine.SearchRequest{Query: "tomatoes", Mode: "keyword"}); len(r.Results) != 0 {
		t.Errorf("removed document still found: %+v", r.Results)
	}
	// Bad requests.
	// A query of punctuation alone has no words to match: refused, not answered with "0 results,
	// 44 weaker results left out".
	for _, bad := range []engine.SearchRequest{{Query: "  "}, {Query: `"`}, {Query: "* -- ?"}, {Query: "x", Mode: "fuzzy"}, {Query: "x", Limit: 1000}, {Query: "x", From: "March"}} {
		_, err := e.Search(ctx, bad)
		wantCode(t, err, errs.Validation)
	}
}

func ids(r *engine.SearchResponse) []string {
	var out []string
	for _, x := range r.Results {
		out = append(out, x.ChunkID)
	}
	return out
}
