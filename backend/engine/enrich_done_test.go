package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/search/quality"
)

// enrichCorpus copies real documents (none written here) and a few notes into a folder: Rust
// book chapters that cite each other, the whole book on one page, a copy of one chapter,
// Node.js API pages with an HTML export, two licences; and three notes that spell one tag
// three ways. It returns the folder and the files in a fixed order.
func enrichCorpus(t testing.TB) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	src := quality.CorpusDir()
	files := []string{
		"rust-book/ch04-01-what-is-ownership.html", "rust-book/ch04-02-references-and-borrowing.html",
		"rust-book/ch04-03-slices.html", "rust-book/ch15-04-rc.html", "rust-book/ch15-05-interior-mutability.html",
		"rust-book/ch16-01-threads.html", "rust-book/ch16-02-message-passing.html", "rust-book/print.html",
		"nodejs-api/fs.md", "nodejs-api/stream.md", "nodejs-api/path.md", "nodejs-api-html/path.html",
		"license-gpl-3.txt", "license-bsd.txt",
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, f)
		mkfile(t, p, string(b))
		out = append(out, p)
		if f == "rust-book/ch04-01-what-is-ownership.html" {
			// The backup copy is made a day later: of identical files the older is the
			// original, whatever order they arrive in.
			c := filepath.Join(dir, "backup", "ownership-copy.html")
			mkfile(t, c, string(b))
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(c, st.ModTime().Add(24*time.Hour), st.ModTime().Add(24*time.Hour)); err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
	}
	notes := map[string]string{
		"notes/a.md": "---\ntitle: Reading list\ntags: [machine learning]\n---\n# Reading list\n\nPapers on gradient descent to read this month.\n",
		"notes/b.md": "# Model review\n\nThe model overfits on the small set; we add dropout next week. #MachineLearning\n",
		"notes/c.md": "---\ntags: [Machine-Learning]\n---\n# Course notes\n\nLecture four covered backpropagation and the chain rule.\n",
	}
	for _, name := range []string{"notes/a.md", "notes/b.md", "notes/c.md"} {
		p := filepath.Join(dir, name)
		mkfile(t, p, notes[name])
		out = append(out, p)
	}
	return dir, out
}

// TestEnrichmentsOnRealDocuments is the list of known answers, with every enrichment
// running together: the copy is DUPLICATE_OF its original; chapters that cite each other are
// SIMILAR_TO, and no Rust chapter is similar to a licence or a Node page; a tag spelled three
// ways is one concept; two stores built in different orders are identical; enriching again
// changes nothing; a removed document leaves no derived link behind.
func TestEnrichmentsOnRealDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests real documents twice")
	}
	ctx := context.Background()
	dir, files := enrichCorpus(t)

	e1 := open(t)
	ingestEnriched(t, e1, dir) // the folder at once
	e2 := open(t)
	rev := slices.Clone(files)
	slices.Reverse(rev)
	for _, f := range rev { // one file at a time, the other way round
		ingestEnriched(t, e2, f)
	}
	rows1, rows2 := derivedRows(t, e1), derivedRows(t, e2)
	if len(rows1) == 0 {
		t.Fatal("nothing was derived")
	}
	if strings.Join(rows1, "\n") != strings.Join(rows2, "\n") {
		t.Fatalf("two build orders, different derived links (%d and %d rows):\n%s", len(rows1), len(rows2), rowDiff(rows1, rows2))
	}

	dups := linksOfType(t, e1, "DUPLICATE_OF")
	want := filepath.Join(dir, "backup", "ownership-copy.html") + " → " + filepath.Join(dir, "rust-book", "ch04-01-what-is-ownership.html")
	if !slices.ContainsFunc(dups, func(s string) bool { return strings.HasPrefix(s, want) }) {
		t.Errorf("the copy is not DUPLICATE_OF its original; DUPLICATE_OF links:\n%s", strings.Join(dups, "\n"))
	}
	similar := linksOfType(t, e1, "SIMILAR_TO")
	has := func(a, b string) bool {
		return slices.ContainsFunc(similar, func(s string) bool {
			return (strings.Contains(s, a) && strings.Contains(s, b))
		})
	}
	if !has("ch04-01-what-is-ownership", "ch04-02-references-and-borrowing") {
		t.Errorf("ch04-01 and ch04-02 (which cite each other) are not SIMILAR_TO; SIMILAR_TO links:\n%s", strings.Join(similar, "\n"))
	}
	for _, s := range similar {
		rust := strings.Contains(s, "rust-book")
		other := strings.Contains(s, "license-") || strings.Contains(s, "nodejs-api")
		if rust && other {
			t.Errorf("a Rust chapter is SIMILAR_TO something unrelated: %s", s)
		}
	}
	var concepts int
	if err := e1.DB().Reader().QueryRowContext(ctx, `SELECT count(DISTINCT target_entity_id) FROM derived_links l
		JOIN entities c ON c.entity_id = l.target_entity_id
		WHERE l.relationship_type = 'REFERS_TO' AND c.entity_type = 'concept' AND c.canonical_name LIKE 'machine%learning'`).Scan(&concepts); err != nil {
		t.Fatal(err)
	}
	if concepts != 1 {
		t.Errorf("the tag spelled three ways is %d concepts, want 1", concepts)
	}
	refs := linksOfType(t, e1, "REFERS_TO")
	n := 0
	for _, r := range refs {
		if strings.Contains(r, "/notes/") && strings.Contains(strings.ToLower(r), "learning") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d notes refer to the machine-learning concept, want 3:\n%s", n, strings.Join(refs, "\n"))
	}

	// Everything again: nothing changes.
	if res, err := e1.RunEnrichment(ctx, ""); err != nil {
		t.Fatal(err)
	} else if res.Documents == 0 {
		t.Fatal("RunEnrichment queued nothing")
	}
	if again := derivedRows(t, e1); strings.Join(again, "\n") != strings.Join(rows1, "\n") {
		t.Fatalf("a second run changed the derived links:\n%s", strings.Join(again, "\n"))
	}
	for _, name := range []string{"TagConceptBridger", "CoOccurrence", "EmbeddingSimilarity", "DiscoveryGap", "TemporalProximity"} {
		res, err := e1.RunEnrichment(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if res.Changed != 0 {
			t.Errorf("running %s again changed %d rows", name, res.Changed)
		}
	}

	// Remove the original chapter: nothing derived rests on it any more.
	orig := filepath.Join(dir, "rust-book", "ch04-01-what-is-ownership.html")
	doc := docAt(t, e1, orig)
	if err := os.Remove(orig); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e1.Reconcile(ctx, local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, e1)
	var left int
	if err := e1.DB().Reader().QueryRowContext(ctx, `SELECT
			(SELECT count(*) FROM derived_links WHERE source_entity_id = ?1 OR target_entity_id = ?1) +
			(SELECT count(*) FROM derived_evidence WHERE document_id = ?2) +
			(SELECT count(*) FROM suggestions WHERE state = 'open' AND (source_entity_id = ?1 OR target_entity_id = ?1))`,
		doc.EntityID, doc.DocumentID).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Fatalf("the removed document still has %d derived links, evidence rows or suggestions", left)
	}
}

// docAt is the document registered at path.
func docAt(t testing.TB, e *engine.Engine, path string) engine.Document {
	t.Helper()
	page, err := e.ListDocuments(context.Background(), "", path, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range page.Documents {
		if d.Path == path {
			return d
		}
	}
	t.Fatalf("no document at %s", path)
	return engine.Document{}
}

// rowDiff lists the rows only one side has, marked - (first) and + (second), at most 40.
func rowDiff(a, b []string) string {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range list {
			m[s] = true
		}
		return m
	}
	ina, inb := in(a), in(b)
	var out []string
	for _, s := range a {
		if !inb[s] {
			out = append(out, "- "+s)
		}
	}
	for _, s := range b {
		if !ina[s] {
			out = append(out, "+ "+s)
		}
	}
	if len(out) > 40 {
		out = append(out[:40], fmt.Sprintf("… %d more", len(out)-40))
	}
	return strings.Join(out, "\n")
}
