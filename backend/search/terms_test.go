package search

import (
	"context"
	"slices"
	"testing"
)

// TestResponseTermsAndNext: a search says which terms it weighed the query by (rarer words
// weigh more, a compound stands for its words) and, per result, the cited document's further
// matching chunks, best first — what ask scores sentences with and reads as more passages.
func TestResponseTermsAndNext(t *testing.T) {
	var chunks []testChunk
	for i := 0; i < 20; i++ {
		chunks = append(chunks, testChunk{doc: "doc_other", text: "The common word is everywhere in these chunks, filler text."})
	}
	chunks = append(chunks,
		testChunk{doc: "doc_a", text: "A hostname names a machine; the common word appears here too."},
		testChunk{doc: "doc_a", text: "Looking up a hostname goes through the resolver."},
		testChunk{doc: "doc_a", text: "Nothing to see."},
	)
	db := openTestDB(t, chunks)
	s := &Searcher{DB: db}
	resp, err := s.Search(context.Background(), Query{Text: "common host name ", Mode: ModeKeyword, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	idf := map[string]float64{}
	var compound *Term
	for i, term := range resp.Terms {
		if term.Compound {
			compound = &resp.Terms[i]
			continue
		}
		idf[term.Tokens[0]] = term.IDF
	}
	// "host" is not in the index (only within "hostname"); the other terms are.
	for _, term := range resp.Terms {
		if known := term.DF > 0; known != (term.Tokens[0] != "host") {
			t.Errorf("%v: df %v", term.Tokens, term.DF)
		}
	}
	if len(idf) != 3 || idf["host"] <= idf["common"] {
		t.Fatalf("terms: %+v (the rare word must weigh more than the common one)", resp.Terms)
	}
	if compound == nil || !slices.Equal(compound.Tokens, []string{"hostnam"}) || !slices.Equal(compound.Of, []string{"host", "name"}) {
		t.Fatalf("compound: %+v", compound)
	}
	var a *Result
	for i := range resp.Results {
		if resp.Results[i].DocumentID == "doc_a" {
			a = &resp.Results[i]
		}
	}
	if a == nil || len(a.Next) != 1 || a.Next[0] == a.ChunkID {
		t.Fatalf("doc_a: %+v", a)
	}
}

func TestStemsAndStopWords(t *testing.T) {
	if got := Stems("Reading files, asynchronously"); !slices.Equal(got, []string{"read", "file", "asynchron"}) {
		t.Fatalf("stems: %v", got)
	}
	if !IsStopWord("the") || IsStopWord("file") {
		t.Fatal("stop words")
	}
}
