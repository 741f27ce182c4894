package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Highlight returns an excerpt of text around the densest run of query words, with each
// matching word wrapped in «». A word matches a query term when it starts with it (prefix
// search, and plurals or other endings of the same word). Done in Go for the few results
// shown: FTS5's snippet() re-evaluates the whole MATCH expression over the index (~12 ms).
func Highlight(text, query string, width int) string {
	var terms []string
	for _, w := range words(query) {
		if !stopWords[w] && len(w) > 1 {
			terms = append(terms, stem(w))
		}
	}
	type span struct{ start, end int }
	var toks []span
	var hits []bool
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
		w := strings.ToLower(text[i:j])
		hit := false
		for _, t := range terms {
			if strings.HasPrefix(w, t) {
				hit = true
				break
			}
		}
		toks, hits = append(toks, span{i, j}), append(hits, hit)
		i = j
	}
	if len(toks) == 0 {
		return ""
	}
	// the window of width words with the most hits (first such window)
	best, bestN, n := 0, -1, 0
	for i := range toks {
		if hits[i] {
			n++
		}
		if i >= width && hits[i-width] {
			n--
		}
		if start := max(0, i-width+1); n > bestN {
			best, bestN = start, n
		}
	}
	end := min(len(toks), best+width)
	var b strings.Builder
	if best > 0 {
		b.WriteString("…")
	}
	pos := toks[best].start
	for k := best; k < end; k++ {
		b.WriteString(text[pos:toks[k].start])
		if hits[k] {
			b.WriteString("«" + text[toks[k].start:toks[k].end] + "»")
		} else {
			b.WriteString(text[toks[k].start:toks[k].end])
		}
		pos = toks[k].end
	}
	if end < len(toks) {
		b.WriteString("…")
	}
	return strings.Join(strings.Fields(b.String()), " ")
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
