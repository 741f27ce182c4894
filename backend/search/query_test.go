package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/store"
)

func TestMatchExpr(t *testing.T) {
	cases := map[string]string{
		"invoice acme":             `"invoice" OR "acme"*`,
		"can I sell the software?": `"sell" OR "software"*`,
		"what is it":               `"what" OR "is" OR "it"*`,
		"invoice acme ":            `"invoice" OR "acme"`,
		`"due date" acme`:          `"due date" OR "acme"*`,
		`NEAR(a b) AND x* -y ^z:`:  `"near" OR "b" OR "x" OR "y" OR "z"`,
		`unbalanced "quote`:        `"unbalanced" OR "quote"*`,
		"   ":                      "",
		"€ — !!":                   "",
		"Ünïcode café":             `"ünïcode" OR "café"*`,
		`col:value OR {x} "" ''`:   `"col" OR "value" OR "x"`,
		// API names that are English function words stay in the query.
		"EventEmitter once":           `"eventemitter" OR "once"*`,
		"how do I turn off the timer": `"turn" OR "off" OR "timer"*`,
	}
	for in, want := range cases {
		if got := MatchExpr(in); got != want {
			t.Errorf("MatchExpr(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestQueryCompounds: adjacent words written as one, as a text may write them; not across
// punctuation or a quoted phrase, not from common words other than a verb's particle.
func TestQueryCompounds(t *testing.T) {
	cases := map[string][]string{
		"Look up the IP address for a host name": {"lookup", "ipaddress", "hostname"},
		"time-out, set up":                       {"timeout", "setup"},
		"(host name) e-mail, file name.":         {"hostname", "email", "filename"},
		`set "up time" out`:                      nil, // no pair across or inside quotes
		`"data base" web site`:                   {"website"},
		"user's name, don't end":                 nil, // no pieces of words ("sname", "tend")
		"a way in to the data base":              {"wayin", "database"},
		"size of the file may be useless":        {"filemay"}, // not "sizeof", "maybe"
		"text/plain mime type":                   {"mimetype"},
		"host name host name":                    {"hostname", "namehost"},
	}
	for in, want := range cases {
		var got []string
		for _, c := range queryCompounds(in) {
			got = append(got, c.word)
		}
		if !slices.Equal(got, want) {
			t.Errorf("queryCompounds(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCompoundAsAlternative: "host name" finds a chunk that writes "hostname", and a chunk
// scores the better of the two spellings, not both.
func TestCompoundAsAlternative(t *testing.T) {
	chunks := []testChunk{
		{"one", "", "the hostname of the machine"},
		{"two", "", "the host name of the machine"},
		{"both", "", "the host name, or hostname, of the machine"},
	}
	for i := range 40 { // so that the words are not in half the chunks (BM25's IDF floor)
		chunks = append(chunks, testChunk{"filler", "", "unrelated words about gardening " + strings.Repeat("x ", i%5)})
	}
	db := openTestDB(t, chunks)
	hits, st, err := keywordSearch(context.Background(), db.Reader(), "host name", store.SearchFilter{}, 10, defaultKeywordBudget)
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	for _, h := range hits {
		score[h.DocumentID] = h.Score
	}
	if score["one"] == 0 || score["two"] == 0 {
		t.Fatalf("hits %v", score)
	}
	// "both" holds each spelling once: the better of them, with its length, not their sum.
	if score["both"] >= score["one"]+score["two"] {
		t.Errorf("both spellings add up: %v", score)
	}
	if _, ok := st.idf["hostnam"]; !ok {
		t.Errorf("compound not among the query's terms: %v", st.idf)
	}
	typed := bm25IDF(2, float64(len(chunks))) * 2 // host and name are each in two chunks
	if math.Abs(st.mass-typed) > 1e-9 {
		t.Errorf("mass %f counts the compound: typed words weigh %f", st.mass, typed)
	}
	if st.known != 1 {
		t.Errorf("known %f", st.known)
	}
}
