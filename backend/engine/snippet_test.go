package engine_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/search"
)

// markup is what a snippet of a Markdown source must not show: HTML comments (the Node docs'
// "<!-- YAML added: v0.11.4 -->"), reference links "[text][]", reference definitions
// "[label]: https://…", inline links "](url)", and the old in-text markers.
var markup = regexp.MustCompile(`<!--|-->|\[[^\[\]]+\]\[|\]:\s*(https?:|#)|\]\(|«|»`)

// TestSnippetsShowProse searches the Node.js API documentation (Markdown as shipped in
// /usr/share/doc/nodejs/api, copied into testdata; nobody here wrote it) for words that occur in
// its prose, its YAML comments and its reference definitions, and checks every result: the
// snippet is prose without markup, and each highlight is a word of the query.
func TestSnippetsShowProse(t *testing.T) {
	ctx := context.Background()
	e := open(t)
	src, err := filepath.Abs("testdata/nodeapi")
	if err != nil {
		t.Fatal(err)
	}
	_, docs, err := e.IngestPathsAndWait(ctx, local, []string{src}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 5 {
		t.Fatalf("%d documents", len(docs))
	}
	// The corpus does hold chunks that are only markup, so the test covers them.
	markupOnly := 0
	chunks := map[string]string{} // chunk ID → its stored text
	for _, d := range docs {
		if d.Status != "analyzed" {
			t.Fatalf("%s: %s", d.Path, d.Status)
		}
		detail, err := e.GetDocument(ctx, d.DocumentID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range detail.Chunks {
			chunks[c.ChunkID] = c.Text
			if strings.TrimSpace(search.Prose(c.Text)) == "" {
				markupOnly++
			}
		}
	}
	if markupOnly == 0 {
		t.Fatal("no chunk of the Node docs is only markup: the test no longer covers reference-definition blocks")
	}
	queries := []string{
		"certificate object", "added", "secure context", "tls connect", "resolve hostname",
		"decoder", "escape", "punycode", "cipher list format", "forward secrecy", "changes version",
		"lookup", "https", "wikipedia", "openssl",
	}
	results := 0
	for _, q := range queries {
		for _, mode := range []string{"keyword", "hybrid"} {
			resp, err := e.Search(ctx, engine.SearchRequest{Query: q, Mode: mode, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range resp.Results {
				results++
				checkSnippet(t, q, mode, r)
				if mode == "keyword" && len(r.Highlights) == 0 {
					// Found by keyword but nothing highlighted: the words must not be ones that
					// only the markup holds (a YAML comment, a link's address).
					raw := strings.ToLower(chunks[r.ChunkID])
					prose := strings.ToLower(search.Prose(chunks[r.ChunkID]))
					for _, w := range strings.Fields(strings.ToLower(q)) {
						if strings.Contains(raw, w) && !strings.Contains(prose, w) {
							t.Errorf("%s (keyword) %s: found only by %q in its markup: %q", q, r.ChunkID, w, r.Snippet)
						}
					}
				}
			}
		}
	}
	if results < 40 { // results are one per document (issue 13): 15 queries × 2 modes over 4 Node documents
		t.Errorf("only %d results checked", results)
	}
}

func checkSnippet(t *testing.T, q, mode string, r engine.SearchResult) {
	t.Helper()
	where := q + " (" + mode + ") " + filepath.Base(r.Path) + ":" + strconv.Itoa(r.LineStart)
	if strings.TrimSpace(r.Snippet) == "" {
		t.Errorf("%s: empty snippet", where)
	}
	if m := markup.FindString(r.Snippet); m != "" {
		t.Errorf("%s: snippet shows markup %q: %q", where, m, r.Snippet)
	}
	if strings.Contains(r.Heading, "`") || markup.MatchString(r.Heading) {
		t.Errorf("%s: heading shows markup: %q", where, r.Heading)
	}
	if r.Highlights == nil {
		t.Errorf("%s: highlights is null, not []", where)
	}
	u := utf16.Encode([]rune(r.Snippet))
	end := 0
	for _, h := range r.Highlights {
		if h.Start < end || h.End <= h.Start || h.End > len(u) {
			t.Fatalf("%s: highlight %+v out of order or range in %q", where, h, r.Snippet)
		}
		end = h.End
		w := strings.ToLower(string(utf16.Decode(u[h.Start:h.End])))
		ok := false
		for _, term := range strings.Fields(strings.ToLower(q)) {
			if strings.HasPrefix(w, term[:min(len(term), 4)]) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: highlight %q is not a query word, in %q", where, w, r.Snippet)
		}
	}
}
