package search

import "strings"

// Term is one distinct term of a query as keyword search weighed it: its stemmed tokens (one
// for a word, several for a quoted phrase) and its IDF in the index. A compound (two typed words
// that the index holds written as one, "host name" → "hostname") stands for the words in Of and
// is not one of the typed words. Asking (backend/answer) scores sentences with the same words
// and weights that ranked the passages, so a sentence is judged by what found it.
type Term struct {
	Tokens   []string `json:"tokens"`
	IDF      float64  `json:"idf"`
	DF       float64  `json:"df"` // chunks holding it (estimated for the commonest words): 0 for a word the index has never seen
	N        float64  `json:"n"`  // chunks in the index
	Compound bool     `json:"compound,omitempty"`
	Of       []string `json:"of,omitempty"` // a compound's words (stemmed), which it replaces where it is the better
}

// termsOf lists the query's terms with their IDF, in query order.
func termsOf(phrases []*kwPhrase, n float64) []Term {
	out := make([]Term, 0, len(phrases))
	for _, p := range phrases {
		t := Term{Tokens: p.toks, IDF: bm25IDF(p.df, n), DF: p.df, N: n, Compound: p.compound}
		for _, k := range p.parts {
			t.Of = append(t.Of, strings.Join(phrases[k].toks, " "))
		}
		out = append(out, t)
	}
	return out
}

// Stems returns the stemmed tokens of text as the full-text index holds them (folded case and
// diacritics, Porter stems), in order: what a sentence must share with a query to match it.
func Stems(text string) []string { return ftsTokens(text) }

// Words splits text into lower-case words of letters and digits, as queries are split.
func Words(text string) []string { return words(text) }

// IsStopWord reports whether w (lower case) is one of the common words keyword search leaves
// out of a query ("the", "can", "what"): they say nothing about what a text is about.
func IsStopWord(w string) bool { return stopWords[w] }
