package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// statusRank is the status order the Library sorts by: failed first (what needs a person),
// then waiting, analysed, understood, and removed last.
var statusRank = map[string]int{"failed": 0, "registered": 1, "analyzed": 2, "semantic": 3, "removed": 4}

// foldASCII is SQLite's NOCASE: ASCII letters only.
func foldASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// expectedOrder sorts docs as the Library's order s says, ties by ID, reversed whole for desc.
func expectedOrder(docs []store.Document, s engine.DocumentSort, desc bool) []string {
	cmpKey := func(a, b store.Document) int {
		switch s {
		case engine.SortAdded:
			return strings.Compare(a.ChangedAt, b.ChangedAt)
		case engine.SortName:
			return strings.Compare(foldASCII(a.Title), foldASCII(b.Title))
		case engine.SortSize:
			return int(a.Size - b.Size)
		case engine.SortStatus:
			return statusRank[a.Status] - statusRank[b.Status]
		}
		panic("no such order " + s)
	}
	sorted := slices.Clone(docs)
	slices.SortFunc(sorted, func(a, b store.Document) int {
		if c := cmpKey(a, b); c != 0 {
			return c
		}
		return strings.Compare(a.DocumentID, b.DocumentID)
	})
	ids := make([]string, len(sorted))
	for i, d := range sorted {
		ids[i] = d.DocumentID
	}
	if desc {
		slices.Reverse(ids)
	}
	return ids
}

// readAll pages through q with an odd page size, as the Library's list does while scrolling,
// and checks each page's total.
func readAll(t *testing.T, e *engine.Engine, q engine.DocumentQuery, page int) []store.Document {
	t.Helper()
	var out []store.Document
	q.Limit = engine.Limit(page)
	for q.Offset = 0; ; q.Offset += page {
		p, err := e.QueryDocuments(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Documents...)
		if q.Offset+page >= p.Total {
			if len(out) != p.Total {
				t.Fatalf("%+v: read %d documents in pages, the total says %d", q, len(out), p.Total)
			}
			return out
		}
	}
}

func idsOf(docs []store.Document) []string {
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.DocumentID
	}
	return ids
}

// TestDocumentSorts: every order of the Library, both ways, alone and with each filter, read in
// pages of 37, is the order its definition gives (checked against a sort in Go of every row):
// ties (many titles, sizes, times and statuses repeat in fillLibrary) broken by document ID in
// the order's direction, so that descending is ascending read backwards, and no page boundary
// repeats or skips a document.
func TestDocumentSorts(t *testing.T) {
	e := open(t, withStaticEmbedder)
	fillLibrary(t, e, 1200)
	all := readAll(t, e, engine.DocumentQuery{}, 500)
	if len(all) != 1200 {
		t.Fatalf("%d documents", len(all))
	}
	ties := map[string]int{}
	for _, d := range all {
		if d.ChangedAt < d.CreatedAt {
			t.Fatalf("%s changed %s before it was added %s", d.DocumentID, d.ChangedAt, d.CreatedAt)
		}
		ties[d.ChangedAt]++
	}
	if len(ties) > 600 {
		t.Fatalf("the fixture has %d distinct times for 1200 documents: too few ties to test them", len(ties))
	}
	filters := []struct {
		name string
		q    engine.DocumentQuery
		keep func(store.Document) bool
	}{
		{"all", engine.DocumentQuery{}, func(store.Document) bool { return true }},
		{"failed", engine.DocumentQuery{Status: "failed"}, func(d store.Document) bool { return d.Status == "failed" }},
		{"invoices", engine.DocumentQuery{Type: "invoice"}, func(d store.Document) bool { return d.DocType == "invoice" }},
		{"no type", engine.DocumentQuery{Type: "other"}, func(d store.Document) bool { return d.DocType == "" && d.Status != "registered" }},
		{"pending", engine.DocumentQuery{Type: "pending"}, func(d store.Document) bool { return d.DocType == "" && d.Status == "registered" }},
		{"folder", engine.DocumentQuery{Path: "/library/folder-07/"}, func(d store.Document) bool { return strings.HasPrefix(d.Path, "/library/folder-07/") }},
		{"analyzed in a folder", engine.DocumentQuery{Status: "analyzed", Path: "/library/folder-1"},
			func(d store.Document) bool {
				return d.Status == "analyzed" && strings.HasPrefix(d.Path, "/library/folder-1")
			}},
	}
	for _, f := range filters {
		var sub []store.Document
		for _, d := range all {
			if f.keep(d) {
				sub = append(sub, d)
			}
		}
		if len(sub) == 0 {
			t.Fatalf("%s: the fixture has no such documents", f.name)
		}
		for _, s := range []engine.DocumentSort{engine.SortAdded, engine.SortName, engine.SortSize, engine.SortStatus} {
			for _, desc := range []bool{false, true} {
				q := f.q
				q.Sort, q.Desc = s, desc
				got := idsOf(readAll(t, e, q, 37))
				want := expectedOrder(sub, s, desc)
				if !slices.Equal(got, want) {
					i := 0
					for i < min(len(got), len(want)) && got[i] == want[i] {
						i++
					}
					t.Fatalf("%s by %s desc=%v: %d documents, first difference at %d (got %v, want %v)", f.name, s, desc, len(got), i,
						got[i:min(len(got), i+3)], want[i:min(len(want), i+3)])
				}
			}
		}
	}
}

// TestDocumentSortRefused: an order that does not exist is a validation error naming the field.
func TestDocumentSortRefused(t *testing.T) {
	e := open(t, withStaticEmbedder)
	_, err := e.QueryDocuments(context.Background(), engine.DocumentQuery{Sort: "size; DROP TABLE documents"})
	var ee *errs.Error
	if !errors.As(err, &ee) || ee.Code != errs.Validation || ee.Details["field"] != "sort" {
		t.Fatalf("got %v", err)
	}
}

// TestNewestIsWhenTheContentArrived: "newest first" orders by when Strata got a document's
// current content. Analysis moves updated_at but not that; a file whose content changes moves
// to the top; touching a file without changing it does not.
func TestNewestIsWhenTheContentArrived(t *testing.T) {
	e := open(t, withStaticEmbedder)
	ctx := context.Background()
	dir := t.TempDir()
	for _, n := range []string{"a.md", "b.md", "c.md"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("# "+n+"\n\nThe text of "+n+".\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.IngestPathsAndWait(ctx, local, []string{filepath.Join(dir, n)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	newest := func() []string {
		t.Helper()
		p, err := e.QueryDocuments(ctx, engine.DocumentQuery{Sort: engine.SortAdded, Desc: true})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, d := range p.Documents {
			if d.ChangedAt == d.UpdatedAt && d.PhaseAnalyze == "done" {
				t.Errorf("%s: analysis moved changed_at to %s", d.Path, d.ChangedAt)
			}
			names = append(names, filepath.Base(d.Path))
		}
		return names
	}
	if got := newest(); !slices.Equal(got, []string{"c.md", "b.md", "a.md"}) {
		t.Fatalf("newest first: %v", got)
	}
	// a.md changes: it is the newest now.
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# a.md\n\nNew words in a.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.IngestPathsAndWait(ctx, local, []string{filepath.Join(dir, "a.md")}, nil); err != nil {
		t.Fatal(err)
	}
	if got := newest(); !slices.Equal(got, []string{"a.md", "c.md", "b.md"}) {
		t.Fatalf("after a.md changed: %v", got)
	}
	// b.md is touched (same bytes, a new mtime): it stays where it was.
	if err := os.Chtimes(filepath.Join(dir, "b.md"), timeIn(2030), timeIn(2030)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.IngestPathsAndWait(ctx, local, []string{filepath.Join(dir, "b.md")}, nil); err != nil {
		t.Fatal(err)
	}
	if got := newest(); !slices.Equal(got, []string{"a.md", "c.md", "b.md"}) {
		t.Fatalf("after b.md was touched: %v", got)
	}
}

func timeIn(year int) time.Time { return time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC) }

// TestFolderFilterMeansTheFolder: a path filter that names an existing folder lists that
// folder's documents, in the Library and in search, not those of a sibling whose name it begins
// ("notes" is not "notes2" nor "notes-old.md"); a filter that is part of a name stays a prefix.
func TestFolderFilterMeansTheFolder(t *testing.T) {
	e := open(t, withStaticEmbedder)
	ctx := context.Background()
	root := t.TempDir()
	files := map[string]string{
		"notes/heron.md":  "# Heron\n\nThe heron colony by the river.\n",
		"notes2/heron.md": "# Heron again\n\nA second heron colony upstream.\n",
		"notes-old.md":    "# Old heron notes\n\nThe heron colony as it was.\n",
	}
	var all []string
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
	}
	if _, _, err := e.IngestPathsAndWait(ctx, local, all, nil); err != nil {
		t.Fatal(err)
	}
	rels := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, err := filepath.Rel(root, p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		filter string
		want   []string
	}{
		{filepath.Join(root, "notes"), []string{"notes/heron.md"}},
		{filepath.Join(root, "notes") + string(filepath.Separator), []string{"notes/heron.md"}},
		{filepath.Join(root, "note"), []string{"notes-old.md", "notes/heron.md", "notes2/heron.md"}}, // not a folder: a prefix
	} {
		page, err := e.QueryDocuments(ctx, engine.DocumentQuery{Path: tc.filter})
		if err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, d := range page.Documents {
			listed = append(listed, d.Path)
		}
		if got := rels(listed); !slices.Equal(got, tc.want) {
			t.Errorf("library %s: %v, want %v", tc.filter, got, tc.want)
		}
		resp, err := e.Search(ctx, engine.SearchRequest{Query: "heron colony", Mode: "keyword", Path: tc.filter})
		if err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, r := range resp.Results {
			found = append(found, r.Path)
			for _, a := range r.AlsoIn {
				found = append(found, a.Path)
			}
		}
		if got := rels(found); !slices.Equal(got, tc.want) {
			t.Errorf("search %s: %v, want %v", tc.filter, got, tc.want)
		}
	}
}
