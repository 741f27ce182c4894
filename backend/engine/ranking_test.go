package engine_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/search/quality"
)

// Tests of issue 13's failure modes on the quality corpus's real documents (one ingest shared by
// the tests of this binary, see qualitySetup).

func corpusRel(t *testing.T, p string) string {
	t.Helper()
	rel, err := filepath.Rel(quality.CorpusDir(), p)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(rel)
}

func searchCorpus(t *testing.T, r engine.SearchRequest) *engine.SearchResponse {
	t.Helper()
	resp, err := qualitySetup(t).Search(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// paths are the results' documents, relative to the corpus.
func paths(t *testing.T, resp *engine.SearchResponse) []string {
	var out []string
	for _, r := range resp.Results {
		out = append(out, corpusRel(t, r.Path))
	}
	return out
}

// Failure mode 1: a passage held by several documents (a chapter, the whole book on one page, a
// copy of the chapter; a text and its PDF; a Markdown page and its HTML export) is one result
// that cites the most specific document and names the others.
func TestSamePassageIsOneResult(t *testing.T) {
	for _, tc := range []struct {
		query, cited string
		others       []string
		twin         string // a byte-identical copy of cited: as specific, either may be cited
	}{
		{"what happens to a value when its owner goes out of scope", "rust-book/ch04-01-what-is-ownership.html",
			[]string{"rust-book/print.html", "copies/backup/ch04-01-what-is-ownership.html"}, "copies/backup/ch04-01-what-is-ownership.html"},
		{"fontconfig configuration file font matching", "fontconfig-user.txt", []string{"pdf/fontconfig-user.pdf"}, ""},
		{"join path segments with the platform separator", "nodejs-api/path.md", []string{"nodejs-api-html/path.html"}, ""},
	} {
		for _, mode := range []string{"hybrid", "keyword"} {
			resp := searchCorpus(t, engine.SearchRequest{Query: tc.query, Mode: mode})
			got := paths(t, resp)
			cited, others := tc.cited, tc.others
			i := slices.Index(got, cited)
			if j := slices.Index(got, tc.twin); tc.twin != "" && i < 0 && j >= 0 {
				// The copy is cited (registered first: the store keeps the first of identical
				// files as the original): then the chapter must be named with it.
				i, cited = j, tc.twin
				others = append([]string{tc.cited}, slices.DeleteFunc(slices.Clone(others), func(o string) bool { return o == tc.twin })...)
			}
			if i < 0 {
				t.Errorf("%s %q: %s not among %v", mode, tc.query, tc.cited, got)
				continue
			}
			for _, o := range others {
				if slices.Contains(got, o) {
					t.Errorf("%s %q: %s is a result of its own besides %s: %v", mode, tc.query, o, tc.cited, got)
				}
			}
			r := resp.Results[i]
			var also []string
			for _, a := range r.AlsoIn {
				also = append(also, corpusRel(t, a.Path))
				if a.LineStart <= 0 && a.Page <= 0 {
					t.Errorf("%s %q: also_in %s has no place: %+v", mode, tc.query, a.Path, a)
				}
			}
			for _, o := range others {
				if !slices.Contains(also, o) {
					t.Errorf("%s %q: %s also_in %v lacks %s", mode, tc.query, cited, also, o)
				}
			}
			if r.AlsoInCount < len(others) || r.AlsoInCount < len(r.AlsoIn) {
				t.Errorf("%s %q: also_in_count %d, also_in %v", mode, tc.query, r.AlsoInCount, also)
			}
		}
	}
}

// Failure mode 2: the document that is about the question gains on documents with one lucky
// chunk (the issue's own example: "look up the IP address for a host name" is answered by the DNS
// page; the net and https references have one chunk about a lookup). Document-level evidence
// lifts the DNS page (ranking by chunks alone puts it lower), and the query's compounds ("look
// up" → "lookup", "host name" → "hostname", the words the DNS page uses) put it first among the
// Node pages.
func TestDocumentLevelEvidence(t *testing.T) {
	const q = "Look up the IP address for a host name"
	chunksOnly := search.DefaultWeights(false)
	chunksOnly.Context, chunksOnly.Coverage, chunksOnly.Document, chunksOnly.Title = 0, 0, 0, 0
	rank := func(w *search.Weights) (int, []string) {
		got := paths(t, searchCorpus(t, engine.SearchRequest{Query: q, Ranking: w}))
		dns, net := slices.Index(got, "nodejs-dns.md"), slices.Index(got, "nodejs-api/net.md")
		if dns < 0 {
			t.Fatalf("nodejs-dns.md not found: %v", got)
		}
		return dns - net, got // how far the DNS page is behind net.md (negative: ahead)
	}
	with, gotWith := rank(nil)
	without, gotWithout := rank(&chunksOnly)
	if with >= without {
		t.Errorf("document evidence does not lift nodejs-dns.md against net.md: %v (chunks only: %v)", gotWith, gotWithout)
	}
	if https := slices.Index(gotWith, "nodejs-api/https.md"); https >= 0 && https < slices.Index(gotWith, "nodejs-dns.md") {
		t.Errorf("https.md ranks above nodejs-dns.md: %v", gotWith)
	}
	for _, mode := range []string{"hybrid", "keyword"} {
		got := paths(t, searchCorpus(t, engine.SearchRequest{Query: q, Mode: mode}))
		first := slices.IndexFunc(got, func(p string) bool { return strings.HasPrefix(p, "nodejs") })
		if first < 0 || got[first] != "nodejs-dns.md" {
			t.Errorf("%s: nodejs-dns.md is not the first Node page: %v", mode, got)
		}
	}
}

// Failure mode 4: gibberish returns nothing, and says what it left out. (Unrelated questions that
// share words with the corpus are measured, not tested: TestFitFusion counts their results.)
func TestFloorOfEvidence(t *testing.T) {
	for _, q := range []string{"zzzzqqq", "qwxv zzkj"} {
		for _, mode := range []string{"hybrid", "keyword", "semantic"} {
			resp := searchCorpus(t, engine.SearchRequest{Query: q, Mode: mode})
			if len(resp.Results) > 0 {
				t.Errorf("%s %q: filler results %v", mode, q, paths(t, resp))
			}
			if resp.Dropped > 0 && !strings.Contains(resp.Notice, "weaker result") {
				t.Errorf("%s %q: dropped %d without a notice: %q", mode, q, resp.Dropped, resp.Notice)
			}
		}
	}
	// A real question keeps its answer.
	resp := searchCorpus(t, engine.SearchRequest{Query: "what happens to a value when its owner goes out of scope"})
	if len(resp.Results) == 0 {
		t.Fatal("the floor dropped a real answer")
	}
}

// Failure mode 5: a query past the limits is refused with the limit named; the largest accepted
// query answers quickly.
func TestLongQuery(t *testing.T) {
	e := qualitySetup(t)
	_, err := e.Search(context.Background(), engine.SearchRequest{Query: strings.Repeat("ownership ", 20000)})
	ee := wantCode(t, err, errs.Validation)
	if ee.Details["field"] != "query" || ee.Details["limit"] != search.MaxQueryChars || ee.Hint == "" {
		t.Errorf("long query: %+v", ee)
	}
	var many []string
	for i := range search.MaxQueryTerms + 1 {
		many = append(many, "w"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	_, err = e.Search(context.Background(), engine.SearchRequest{Query: strings.Join(many, " ")})
	if ee := wantCode(t, err, errs.Validation); ee.Details["limit"] != search.MaxQueryTerms {
		t.Errorf("many terms: %+v", ee)
	}
	// The largest accepted query: MaxQueryChars characters of MaxQueryTerms distinct words of the
	// corpus (common ones, the costly case), repeated.
	q := maximalQuery()
	if n := search.QueryTerms(q); n != search.MaxQueryTerms {
		t.Fatalf("maximal query has %d terms", n)
	}
	for _, mode := range []string{"hybrid", "keyword", "semantic"} {
		start := time.Now()
		if _, err := e.Search(context.Background(), engine.SearchRequest{Query: q, Mode: mode}); err != nil {
			t.Fatal(err)
		}
		// 100 ms is the target (BenchmarkMaximalQuery); the bound is generous for a shared machine.
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: the maximal query took %v", mode, d)
		}
	}
}

// maximalQuery is as long and as varied as a query may be, of words common in the corpus.
func maximalQuery() string {
	ws := strings.Fields(`value owner scope function variable string file name option command line
		default error return type data memory reference module stream buffer event process signal
		license software program source code copy work user system path directory archive compress
		key server client host address network packet socket port time date format output input
		list table field record entry number size length byte character encoding font match pattern
		rule branch commit`)[:search.MaxQueryTerms]
	var b strings.Builder
	for i := 0; ; i++ {
		w := ws[i%len(ws)]
		if b.Len()+len(w)+1 > search.MaxQueryChars {
			return strings.TrimSpace(b.String())
		}
		b.WriteString(w + " ")
	}
}

// BenchmarkMaximalQuery measures the largest accepted query on the quality corpus (hybrid).
func BenchmarkMaximalQuery(b *testing.B) {
	e, err := qualityEngine()
	if err != nil {
		b.Fatal(err)
	}
	q := maximalQuery()
	for b.Loop() {
		if _, err := e.Search(context.Background(), engine.SearchRequest{Query: q}); err != nil {
			b.Fatal(err)
		}
	}
}

// Results do not depend on the limit: the first five of limit 5 are the first five of limit 50.
func TestRankingIndependentOfLimit(t *testing.T) {
	qs, err := quality.LoadQuestions(quality.QuestionsFile())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs[:20] {
		for _, mode := range []string{"hybrid", "keyword"} {
			five := paths(t, searchCorpus(t, engine.SearchRequest{Query: q.Question, Mode: mode, Limit: 5}))
			fifty := paths(t, searchCorpus(t, engine.SearchRequest{Query: q.Question, Mode: mode, Limit: 50}))
			if !slices.Equal(five, fifty[:min(5, len(fifty))]) {
				t.Errorf("%s %s: limit 5 %v, limit 50 %v", mode, q.ID, five, fifty[:min(5, len(fifty))])
			}
		}
	}
}
