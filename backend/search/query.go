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
	var parts []string
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	segs := strings.Split(q, `"`)
	for i, seg := range segs {
		words := words(seg)
		if len(words) == 0 {
			continue
		}
		if i%2 == 1 && i < len(segs)-1 { // inside a closed pair of quotes: a phrase
			parts = append(parts, quote(strings.Join(words, " ")))
			continue
		}
		for j, w := range words {
			term := quote(w)
			last := i == len(segs)-1 && j == len(words)-1
			if last && !strings.HasSuffix(q, " ") && len([]rune(w)) >= 2 {
				term += "*"
			}
			parts = append(parts, term)
		}
	}
	return strings.Join(parts, " OR ")
}

// words splits text into lower-case words of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
