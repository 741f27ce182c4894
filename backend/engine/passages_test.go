package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/store"
)

// visitsNote is a Markdown note of n visits, each a section holding the same words (so their
// chunks tie on keyword score, and which are named is decided by chunk ID), between sections
// that do not mention herons at all.
func visitsNote(n int) string {
	var b strings.Builder
	b.WriteString("# Survey notes\n\n")
	for i := range n {
		fmt.Fprintf(&b, "## Visit %d\n\nThe grey heron colony by the river was counted again on this visit. Volunteers walked the bank, noted each nest with its tree, and compared the figures with the earlier visits of the season.\n\n", i+1)
		fmt.Fprintf(&b, "## Business %d\n\nThe hedge along the lane was cut and the gate mended. The committee discussed the budget for bird food, the new benches and the noticeboard by the car park.\n\n", i+1)
	}
	return b.String()
}

// TestOtherPassages: a result is a document cited by its best passage, with the document's
// other passages that the query found: counted (OtherPassagesCount), the best few listed
// (maxPassages, 5), ties by chunk ID, in the document's order, each with its own lines and a
// snippet that shows the query's words. A document that answers once has none. The same query
// gives the same answer every time.
func TestOtherPassages(t *testing.T) {
	e := open(t, withStaticEmbedder)
	ctx := context.Background()
	dir := t.TempDir()
	long, short := filepath.Join(dir, "visits.md"), filepath.Join(dir, "once.md")
	if err := os.WriteFile(long, []byte(visitsNote(8)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(short, []byte("# Once\n\nA grey heron colony was seen from the train, once.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.IngestPathsAndWait(ctx, local, []string{long, short}, nil); err != nil {
		t.Fatal(err)
	}
	detail := func(path string) *engine.DocumentDetail {
		t.Helper()
		p, err := e.ListDocuments(ctx, "", path, 1, 0)
		if err != nil || len(p.Documents) != 1 {
			t.Fatalf("%s: %v %v", path, p, err)
		}
		d, err := e.GetDocument(ctx, p.Documents[0].DocumentID)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	doc := detail(long)
	var visits []store.Chunk // the chunks that hold the query's words
	for _, c := range doc.Chunks {
		if strings.Contains(c.Text, "heron colony") {
			visits = append(visits, c)
		}
	}
	if len(visits) != 8 {
		t.Fatalf("the note was cut into %d chunks, %d of them about the colony: want each visit in its own chunk", len(doc.Chunks), len(visits))
	}
	byID := slices.Clone(visits)
	slices.SortFunc(byID, func(a, b store.Chunk) int { return strings.Compare(a.ChunkID, b.ChunkID) })

	resp, err := e.Search(ctx, engine.SearchRequest{Query: "heron colony", Mode: "keyword", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var got, once *engine.SearchResult
	for i := range resp.Results {
		switch resp.Results[i].Path {
		case long:
			got = &resp.Results[i]
		case short:
			once = &resp.Results[i]
		}
	}
	if got == nil || once == nil {
		t.Fatalf("results %+v", resp.Results)
	}
	// Eight passages tie: the first by chunk ID is cited, the next five are named, in the
	// document's order, and all seven others are counted.
	if got.ChunkID != byID[0].ChunkID {
		t.Errorf("cited %s, want the first of the tied chunks by ID, %s", got.ChunkID, byID[0].ChunkID)
	}
	if got.OtherPassagesCount != 7 || len(got.OtherPassages) != 5 {
		t.Fatalf("%d other passages counted, %d listed; want 7 and 5: %+v", got.OtherPassagesCount, len(got.OtherPassages), got.OtherPassages)
	}
	want := slices.Clone(byID[1:6])
	slices.SortFunc(want, func(a, b store.Chunk) int { return a.LineStart - b.LineStart })
	for i, p := range got.OtherPassages {
		if p.ChunkID != want[i].ChunkID || p.LineStart != want[i].LineStart || p.LineEnd != want[i].LineEnd {
			t.Errorf("passage %d: %s lines %d–%d, want %s lines %d–%d", i, p.ChunkID, p.LineStart, p.LineEnd, want[i].ChunkID, want[i].LineStart, want[i].LineEnd)
		}
		if len(p.Highlights) == 0 || !strings.Contains(p.Snippet, "heron colony") {
			t.Errorf("passage %d: snippet %q highlights %v", i, p.Snippet, p.Highlights)
		}
		if p.Heading != fmt.Sprintf("Survey notes > Visit %d", (p.LineStart-3)/8+1) {
			t.Errorf("passage %d at line %d: heading %q", i, p.LineStart, p.Heading)
		}
	}
	if once.OtherPassagesCount != 0 || once.OtherPassages != nil {
		t.Errorf("a document that answers once names other passages: %+v", once)
	}
	// Added to the wire, nothing taken away: a result without other passages has no such keys.
	b, _ := json.Marshal(once)
	if strings.Contains(string(b), "other_passages") {
		t.Errorf("a result without other passages says so on the wire: %s", b)
	}
	b, _ = json.Marshal(got)
	var wire map[string]any
	if err := json.Unmarshal(b, &wire); err != nil || wire["other_passages_count"] != float64(7) || len(wire["other_passages"].([]any)) != 5 {
		t.Errorf("wire: %s", b)
	}

	// Hybrid: the sections about something else are near the query too (static vectors), but
	// a passage must show the query's words to be named.
	for _, mode := range []string{"hybrid", "semantic"} {
		first, err := e.Search(ctx, engine.SearchRequest{Query: "heron colony", Mode: mode, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range first.Results {
			for _, p := range r.OtherPassages {
				if strings.Contains(p.Snippet, "hedge") {
					t.Errorf("%s: %s names %q, which does not mention the colony", mode, r.Path, p.Snippet)
				}
			}
			if r.Path == long && (r.OtherPassagesCount < 7 || r.OtherPassagesCount > 8) {
				t.Errorf("%s: %d other passages; want the 7 other visits (and the title, which names herons)", mode, r.OtherPassagesCount)
			}
		}
		for range 3 {
			again, err := e.Search(ctx, engine.SearchRequest{Query: "heron colony", Mode: mode, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			first.TookMS, again.TookMS = 0, 0
			if !reflect.DeepEqual(first.Results, again.Results) {
				t.Fatalf("%s: answers differ", mode)
			}
		}
	}
}
