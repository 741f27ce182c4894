package store

import (
	"strings"
	"testing"
)

// TestDocumentSortsUseIndexes: every order of a listing, both ways and under every filter the
// Library has, reads its page by walking its own index, never by sorting the matches (a sort
// of every analysed document took 1.2 s a page at 100k: migration 0017). The plan is what
// SQLite says it will do (EXPLAIN QUERY PLAN), so a key expression that drifts from its index
// fails here.
func TestDocumentSortsUseIndexes(t *testing.T) {
	db := openTest(t)
	filters := []DocumentFilter{{}, {Status: "failed"}, {DocType: "invoice"}, {DocType: "other"}, {PathPrefix: "/home/ada/"},
		{Status: "analyzed", DocType: "invoice", PathPrefix: "/home/ada/"}}
	for name, s := range documentSorts {
		if s.index == "" {
			continue
		}
		for _, f := range filters {
			for _, desc := range []bool{false, true} {
				f.Sort, f.Desc, f.Limit, f.Offset = name, desc, 100, 500
				page, args := documentPage(f)
				p := queryPlan(t, db, page, args...)
				if !strings.Contains(p, "USING INDEX "+s.index) || strings.Contains(p, "TEMP B-TREE") {
					t.Errorf("%s desc=%v %+v: plan %q, want a walk of %s without a sort", name, desc, f, p, s.index)
				}
			}
		}
	}
}
