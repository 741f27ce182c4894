package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is one highlighted stretch of a snippet, [Start, End) counted in UTF-16 code units.
//
// Why UTF-16: the snippet's main reader is the UI, and JavaScript strings are indexed in UTF-16
// code units, so `snippet.slice(start, end)` is the matched word with no conversion (bytes
// would cut accented words apart in JS; runes would drift by one per emoji or other character
// outside the Basic Multilingual Plane). Java, C# and JSON's own \u escapes count the same way.
// For the ASCII text most snippets hold, the offsets equal byte and character offsets; a Go or
// Python client with non-ASCII text converts with utf16.Encode / str.encode("utf-16-le").
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Snippet returns an excerpt of the prose in text around the densest run of query words, as
// plain text, with the spans of the matching words. The excerpt is taken from Prose(text): a
// chunk read from Markdown or HTML source shows what a reader of the rendered page sees, not
// its comments, link syntax or reference definitions. Code blocks are left out unless only
// they contain the query's words (then the code is what matched, and it is shown).
//
// A word matches a query term when it starts with it (prefix search, and plurals or other
// endings of the same word). Done in Go for the few results shown: FTS5's snippet()
// re-evaluates the whole MATCH expression over the index (~12 ms). The text is empty when the
// chunk holds no prose at all (only markup): the caller drops such a result.
func Snippet(text, query string, width int) (string, []Span) {
	s, spans, _ := snippet(text, query, width)
	return s, spans
}

// snippet is Snippet, and whether the query's words occur in text only inside the markup that
// the snippet leaves out (a YAML comment, a link's address, a reference definition): a chunk
// found by keyword search for such words matched the source, not anything a reader sees.
func snippet(text, query string, width int) (string, []Span, bool) {
	terms := highlightTerms(query)
	prose, code := proseParts(text)
	pick := prose
	if len(terms) > 0 && !hasHit(prose, terms) && hasHit(code, terms) {
		pick = code
	}
	s, spans := excerpt(strings.Join(strings.Fields(pick), " "), terms, width)
	return s, spans, len(spans) == 0 && len(terms) > 0 && hasHit(text, terms)
}

// highlightTerm is one query word a snippet marks. A word of the text matches when it starts
// with prefix (the word as typed, one common ending stripped: prefix search, plurals) or has the
// same Porter stem as the index gives the query word ("decoder" finds "decode" and "decoding"),
// so that what is highlighted is what keyword search matched.
type highlightTerm struct{ prefix, porter string }

// highlightTerms are the query's words that a snippet marks: no stop words, no single letters.
func highlightTerms(query string) []highlightTerm {
	var terms []highlightTerm
	for _, w := range words(query) {
		if !stopWords[w] && len(w) > 1 {
			terms = append(terms, highlightTerm{stem(w), string(porterStem([]byte(w)))})
		}
	}
	return terms
}

type token struct {
	start, end int // byte offsets in the text
	hit        bool
}

// tokenize splits text into words (letters and digits) and marks those that match a term.
func tokenize(text string, terms []highlightTerm) []token {
	var toks []token
	eachWord(text, func(i, j int) {
		w := strings.ToLower(text[i:j])
		hit := false
		var ws string // w's Porter stem, computed once if needed
		for _, t := range terms {
			if strings.HasPrefix(w, t.prefix) {
				hit = true
				break
			}
			if ws == "" {
				ws = string(porterStem([]byte(w)))
			}
			if ws == t.porter {
				hit = true
				break
			}
		}
		toks = append(toks, token{i, j, hit})
	})
	return toks
}

// eachWord calls fn with the byte range [start, end) of each run of letters and digits of text,
// in order: the words snippets, highlights and cited lines agree on.
func eachWord(text string, fn func(start, end int)) {
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			i += n
			continue
		}
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			j += n
		}
		fn(i, j)
		i = j
	}
}

func hasHit(text string, terms []highlightTerm) bool {
	for _, t := range tokenize(text, terms) {
		if t.hit {
			return true
		}
	}
	return false
}

// excerpt is the window of width words with the most hits (the first such window) in text,
// whose whitespace is already collapsed, with "…" where it was cut.
func excerpt(text string, terms []highlightTerm, width int) (string, []Span) {
	toks := tokenize(text, terms)
	if len(toks) == 0 {
		return "", []Span{}
	}
	best, bestN, n := 0, -1, 0
	for i := range toks {
		if toks[i].hit {
			n++
		}
		if i >= width && toks[i-width].hit {
			n--
		}
		if start := max(0, i-width+1); n > bestN {
			best, bestN = start, n
		}
	}
	end := min(len(toks), best+width)
	from, to := toks[best].start, toks[end-1].end
	if best == 0 {
		from = 0 // keep an opening quote or bracket
	}
	if end == len(toks) {
		to = len(text)
	}
	var b strings.Builder
	if best > 0 {
		b.WriteString("…")
	}
	spans := []Span{}
	base := utf16Len(b.String())
	for k := best; k < end; k++ {
		if !toks[k].hit {
			continue
		}
		s := base + utf16Len(text[from:toks[k].start])
		e := s + utf16Len(text[toks[k].start:toks[k].end])
		if len(spans) > 0 && spans[len(spans)-1].End == s {
			spans[len(spans)-1].End = e
			continue
		}
		spans = append(spans, Span{s, e})
	}
	b.WriteString(text[from:to])
	if end < len(toks) {
		b.WriteString("…")
	}
	return b.String(), spans
}

// utf16ToByte is the byte offset in s of UTF-16 offset u (Span's unit), or len(s).
func utf16ToByte(s string, u int) int {
	n := 0
	for i, r := range s {
		if n >= u {
			return i
		}
		n++
		if r >= 0x10000 {
			n++ // a surrogate pair
		}
	}
	return len(s)
}

// utf16Len is the length of s in UTF-16 code units (see Span).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// stem strips one common English ending so that "softwares", "licensed" and "sharing" match
// "software", "license" and "share" by prefix (the index itself uses the Porter stemmer).
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}
