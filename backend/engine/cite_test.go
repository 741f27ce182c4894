package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

// TestSearchCitesTheFilesOwnLine ingests a real chapter of the Rust book (mdBook HTML, whose
// extracted text has a third of the file's lines) and checks that a search result and the
// document view cite the line of the file where the words are, so "Open file" at that line
// lands on them.
func TestSearchCitesTheFilesOwnLine(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "cite", "ch09-02-recoverable-errors-with-result.html"))
	if err != nil {
		t.Fatal(err)
	}
	e := open(t)
	ctx := context.Background()
	p := write(t, filepath.Join(t.TempDir(), "ch09-02.html"), string(src))
	d := settle(t, e, ingestFile(t, e, p).DocumentID)[0]
	if d.Status != "analyzed" {
		t.Fatalf("document: %+v", d)
	}
	fileLines := strings.Split(string(src), "\n")
	const phrase = "closure" // FTS matches "closures" too; the file's lines hold one of them
	res, err := e.Search(ctx, engine.SearchRequest{Query: phrase, Mode: "keyword", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 {
		t.Fatal("no result")
	}
	for _, r := range res.Results {
		cited := strings.Join(fileLines[r.LineStart-1:r.LineEnd], "\n")
		if !strings.Contains(strings.ToLower(cited), phrase) {
			t.Errorf("result cites lines %d–%d of the file, which do not hold %q", r.LineStart, r.LineEnd, phrase)
		}
	}
	detail, err := e.GetDocument(ctx, d.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range detail.Chunks {
		if len(c.Lines) != strings.Count(c.Text, "\n")+1 {
			t.Fatalf("chunk %d: %d line numbers for its text", c.Ordinal, len(c.Lines))
		}
		// Each numbered line of the document view shows a line of text whose first word is on
		// the file line beside it (words of code are not tag-free in the file, so prose only).
		for i, l := range strings.Split(c.Text, "\n") {
			f := strings.Fields(l)
			if len(f) < 4 || strings.ContainsAny(l, "`#<>&\"'") {
				continue
			}
			checked++
			if !strings.Contains(fileLines[c.Lines[i]-1], f[0]) {
				t.Errorf("chunk %d line %d is numbered %d, but the file's line %d is %q", c.Ordinal, i, c.Lines[i], c.Lines[i], fileLines[c.Lines[i]-1])
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d lines checked", checked)
	}
}
