// Package search answers queries over the store: keyword (FTS5 BM25) and vector (chromem-go,
// cosine) side by side, fused, with every result citing document, path, lines or page.
package search

import (
	"strings"
	"unicode"
)

// MatchExpr turns what a person typed into a safe FTS5 expression: words become quoted terms
// joined by OR (BM25 ranks chunks with more of them higher), text in double quotes stays a
// phrase, and the last word is a prefix when the query does not end in a space (as-you-type).
// No character the user types can reach FTS5's query syntax unquoted. It returns "" when the
// query has no searchable word.
func MatchExpr(q string) string {
	return joinTerms(queryTerms(q))
}

// queryTerm is one ORed part of a keyword query: a word or a quoted phrase, lower-cased, whose
// last word may match as a prefix.
type queryTerm struct {
	text   string // words joined by single spaces
	prefix bool
}

// expr is the term as a quoted FTS5 string (a phrase if it has several words).
func (t queryTerm) expr() string {
	e := `"` + strings.ReplaceAll(t.text, `"`, `""`) + `"`
	if t.prefix {
		e += "*"
	}
	return e
}

func joinTerms(terms []queryTerm) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = t.expr()
	}
	return strings.Join(parts, " OR ")
}

// queryTerms splits a query into its distinct terms, common words left out unless nothing else
// is left. A repeated term counts once: a pasted paragraph that says "error" five times is not
// five times more about errors, and 20,000 repetitions of a word made every chunk's score loop
// over 20,000 terms (0.8–8 s).
func queryTerms(q string) []queryTerm {
	t := splitTerms(q, true)
	if len(t) == 0 {
		t = splitTerms(q, false) // a query of nothing but common words still searches for them
	}
	seen := make(map[string]int, len(t)) // term → its place in out
	out := t[:0]
	for _, term := range t {
		if i, ok := seen[term.text]; ok {
			out[i].prefix = out[i].prefix || term.prefix // a prefix matches the word itself too
			continue
		}
		seen[term.text] = len(out)
		out = append(out, term)
	}
	return out
}

// stopWords are left out of keyword queries: in a question such as "can I sell software that
// includes GPL code?" they match nearly every chunk, which made BM25 score the whole index
// (~100 ms at 10k chunks) while adding nothing to the ranking. "once" and "off" are not among
// them: they name APIs (Node's emitter.once() and emitter.off(), "EventEmitter once" found the
// class and never the method) and say what is asked ("run a callback only once", "turn off").
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about after all also am an and any are as at be because been before being
		between both but by can could did do does doing down during each few for from further had has have having he her
		here hers him his how i if in into is it its itself just me more most my no nor not now of on only or
		other our ours out over own same she should so some such than that the their theirs them then there these they
		this those through to too under until up very was we were what when where which while who whom why will with
		would you your yours`) {
		stopWords[w] = true
	}
}

func splitTerms(q string, dropStop bool) []queryTerm {
	var terms []queryTerm
	segs := strings.Split(q, `"`)
	for i, seg := range segs {
		words := words(seg)
		if len(words) == 0 {
			continue
		}
		if i%2 == 1 && i < len(segs)-1 { // inside a closed pair of quotes: a phrase
			terms = append(terms, queryTerm{text: strings.Join(words, " ")})
			continue
		}
		for j, w := range words {
			if dropStop && stopWords[w] {
				continue
			}
			last := i == len(segs)-1 && j == len(words)-1
			terms = append(terms, queryTerm{text: w, prefix: last && !strings.HasSuffix(q, " ") && len([]rune(w)) >= 2})
		}
	}
	return terms
}

// queryCompounds are the words a query's adjacent pairs make when written as one ("look up" →
// "lookup", "host name" → "hostname", "time-out" → "timeout"): a text often writes as one word
// what a person types as two, and then shares neither word with the question. A pair is joined
// only where two whole words stand next to each other in the query (a space or a hyphen between
// them, no punctuation between them or inside either: "don't end" is no "tend", "user's name" no
// "sname", "name, server" no "nameserver"),
// outside quoted phrases and never across a quote, and only when the first word is not a common
// word ("a way" is no "away", "in put" no "input"), the second is not one unless it is a particle
// ("look up"), and the joined word is not one either. Keyword search keeps those the index
// holds (keywordSearch); the others cost one lookup each. Distinct, in query order.
func queryCompounds(q string) []compound {
	var out []compound
	seen := map[string]bool{}
	segs := strings.Split(q, `"`)
	for i, seg := range segs {
		if i%2 == 1 && i < len(segs)-1 {
			continue // a phrase: searched as typed
		}
		prev := "" // the previous field, if it is one whole word
		for _, f := range strings.FieldsFunc(strings.ToLower(seg), func(r rune) bool { return unicode.IsSpace(r) || r == '-' }) {
			ws := words(f)
			if len(ws) != 1 { // punctuation inside ("user's", "text/plain"): its words stand apart
				prev = ""
				continue
			}
			w := ws[0]
			if c := prev + w; prev != "" && strings.HasPrefix(f, w) && !stopWords[prev] && (!stopWords[w] || particles[w]) && !stopWords[c] && !seen[c] {
				seen[c] = true
				out = append(out, compound{c, prev, w})
			}
			prev = ""
			if strings.HasSuffix(f, w) { // nothing after it ("name," stands apart from what follows)
				prev = w
			}
		}
	}
	return out
}

// compound is two adjacent query words written as one.
type compound struct{ word, first, second string }

// particles are the common words that join the word before them into one: a verb and its
// particle become a noun ("look up" → "lookup", "log in" → "login", "time out" → "timeout",
// "shut down" → "shutdown"). Other common words do not ("size of" is no "sizeof", "may be" no
// "maybe").
var particles = map[string]bool{"up": true, "down": true, "in": true, "out": true, "on": true, "off": true, "over": true}

// words splits text into lower-case words of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Limits of a query. A query is what a person types or an agent writes: a question, a pasted
// sentence or paragraph. Past these it is a document, and searching with it cost seconds (20,000
// repeated words took 0.8–8 s); the caller is told the limit instead (engine.Search).
const (
	// MaxQueryChars is the longest query, in characters: a long paragraph.
	MaxQueryChars = 2000
	// MaxQueryTerms is the most distinct words (after common words are left out) a query may
	// have: what keyword search tracks per chunk in one machine word (maxKeywordBits).
	MaxQueryTerms = maxKeywordBits
)

// QueryTerms counts a query's distinct searchable words as keyword search sees them (common
// words left out, repeats counted once, a quoted phrase counting each of its words).
func QueryTerms(q string) int {
	n := 0
	for _, t := range queryTerms(q) {
		n += max(len(ftsTokens(t.text)), 1)
	}
	return n
}
