package answer

import (
	"math"
	"strings"

	"github.com/strata-app/strata/backend/search"
)

// Query is a question as sentences are scored against it: its terms, each weighed by how rare
// it is in the index (search.Term), so a sentence is judged by the same words that found its
// passage, compared as the index compares them: folded and Porter-stemmed (search.Stems).
//
// The weight is BM25's IDF without FTS5's floor: log(1 + (N − df + ½) / (df + ½)). FTS5 weighs
// a word held by more than half the chunks at a millionth, which in a small store (a folder
// about tomatoes) makes every word of a question on its topic weigh nothing, and the question's
// one word the store does not hold weigh everything: no sentence could reach the floor, and a
// filed answer, holding the question's words, tipped the words of the next ask over the half.
type Query struct {
	terms     []qterm // the typed words and phrases
	compounds []qcompound
	mass      float64 // Σ IDF of terms
	known     int     // terms the index holds
	unknown   []string
}

type qterm struct {
	toks []string
	idf  float64
}

// qcompound is two typed words that the index holds written as one ("hostname" for "host
// name"): a sentence holding the joined word holds both.
type qcompound struct {
	tok string
	of  []int // indexes in terms
}

// NewQuery builds the query of a question from the terms keyword search weighed it by. Without
// them (the keyword half did not run, or the index was empty) every content word of the
// question weighs the same.
func NewQuery(question string, terms []search.Term) Query {
	var q Query
	if len(terms) == 0 {
		// Nothing says which words the index holds: take them all as known.
		seen := map[string]bool{}
		for _, w := range search.Words(question) {
			if search.IsStopWord(w) {
				continue
			}
			for _, s := range search.Stems(w) {
				if !seen[s] {
					seen[s] = true
					terms = append(terms, search.Term{Tokens: []string{s}, IDF: 1, DF: 1})
				}
			}
		}
	}
	byKey := map[string]int{}
	var known []bool
	for _, t := range terms {
		if t.Compound || len(t.Tokens) == 0 {
			continue
		}
		key := strings.Join(t.Tokens, " ")
		if _, ok := byKey[key]; ok {
			continue
		}
		byKey[key] = len(q.terms)
		w := weight(t)
		q.terms = append(q.terms, qterm{toks: t.Tokens, idf: w})
		q.mass += w
		known = append(known, t.DF > 0)
	}
	for _, t := range terms {
		if !t.Compound || len(t.Tokens) != 1 {
			continue
		}
		c := qcompound{tok: t.Tokens[0]}
		for _, part := range t.Of {
			if i, ok := byKey[part]; ok {
				c.of = append(c.of, i)
				// A typed word the index holds only joined with its neighbour ("host name" as
				// "hostname") is known through the joined word.
				known[i] = known[i] || t.DF > 0
			}
		}
		if len(c.of) > 0 {
			q.compounds = append(q.compounds, c)
		}
	}
	for i, k := range known {
		if k {
			q.known++
		} else {
			q.unknown = append(q.unknown, strings.Join(q.terms[i].toks, " "))
		}
	}
	return q
}

// Unknown are the question's terms (stemmed, as search.Stems gives them) that no chunk of the
// index holds: an answer can say nothing about them, and the asker should know.
func (q Query) Unknown() []string { return q.unknown }

// weight is a term's weight (see Query): from its document frequency where the search gave
// the index's size, else its IDF as given.
func weight(t search.Term) float64 {
	if t.N <= 0 {
		return t.IDF
	}
	return math.Log(1 + (t.N-t.DF+0.5)/(t.DF+0.5))
}

// Empty reports whether the question has no word to score by.
func (q Query) Empty() bool { return q.mass <= 0 }

// Share is the share of the question's IDF mass that the stemmed tokens hold (each term
// counted once, however often it occurs: a sentence either says it or does not), and how many
// of the question's terms they hold.
func (q Query) Share(stems []string) (share float64, matched int) {
	if q.mass <= 0 {
		return 0, 0
	}
	has := make(map[string]bool, len(stems))
	for _, s := range stems {
		has[s] = true
	}
	found := make([]bool, len(q.terms))
	for i, t := range q.terms {
		switch {
		case len(t.toks) == 1:
			found[i] = has[t.toks[0]]
		default:
			found[i] = hasPhrase(stems, t.toks)
		}
	}
	for _, c := range q.compounds {
		if has[c.tok] {
			for _, i := range c.of {
				found[i] = true
			}
		}
	}
	var m float64
	for i, ok := range found {
		if ok {
			m += q.terms[i].idf
			matched++
		}
	}
	return m / q.mass, matched
}

// Terms is how many terms the question has.
func (q Query) Terms() int { return len(q.terms) }

// Known is the share of the question's terms that the index holds (1 without terms): a
// question most of whose words the store has never seen ("the airspeed of an unladen
// swallow") is not answered by a sentence that happens to hold its one known word.
func (q Query) Known() float64 {
	if len(q.terms) == 0 {
		return 1
	}
	return float64(q.known) / float64(len(q.terms))
}

func hasPhrase(stems, toks []string) bool {
	for i := 0; i+len(toks) <= len(stems); i++ {
		ok := true
		for j, t := range toks {
			if stems[i+j] != t {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// UnknownWords are the words of the question, as typed, that no chunk of the index holds
// (Unknown), leaving out words that say nothing of what is asked ("much", "way": the generic
// words of KeyTerms): an answer made of the question's other words ("Which hash functions does
// nettle provide?" in a store without nettle's manual, answered from Rust's HashMap) says that
// it says nothing of these.
func UnknownWords(question string, q Query) []string {
	stems := map[string]bool{}
	for _, s := range q.Unknown() {
		stems[s] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, w := range search.Words(question) {
		if genericWords[w] || seen[w] {
			continue
		}
		if st := search.Stems(w); len(st) == 1 && stems[st[0]] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
