package search

import (
	"regexp"
	"strings"

	"github.com/strata-app/strata/backend/store"
)

// A chunk runs over many lines (a section of a page); its LineStart is where the section
// begins, which may be twenty lines above the words a snippet shows. A citation lands on the
// source's own line: snippetLine finds the line of the chunk's text that holds the snippet's
// first highlighted word, and the chunk's line map (store.Chunk.FileLine) turns it into the
// file's line.

// snippetLine is the 0-based line of text holding the first highlighted word of snip (a snippet
// of text, see snippet), found as that word and up to four words after it in the same order.
// Only letters and digits are compared: the snippet joins the text's words with single spaces
// and leaves out what a reader's markup put around them (the angle brackets of a man page's
// <https://…>), so anything else may stand between them. When the words are not found in that
// order (a code block the snippet left out falls between), fewer are looked for. ok is false
// when the snippet has no highlight or its word is not in text.
func snippetLine(text, snip string, spans []Span) (int, bool) {
	if len(spans) == 0 {
		return 0, false
	}
	words := wordRun.FindAllString(snip[utf16ToByte(snip, spans[0].Start):], 5)
	for n := len(words); n >= 1; n-- {
		parts := make([]string, n)
		for i, w := range words[:n] {
			parts[i] = regexp.QuoteMeta(w)
		}
		// The first word starts a word of the text (a highlight is a whole word).
		re, err := regexp.Compile(`(?:^|[^\pL\pN])(` + strings.Join(parts, `[^\pL\pN]+`) + `)`)
		if err != nil {
			return 0, false
		}
		if m := re.FindStringSubmatchIndex(text); m != nil {
			return strings.Count(text[:m[2]], "\n"), true
		}
	}
	return 0, false
}

// wordRun is a run of letters and digits: what snippetLine compares.
var wordRun = regexp.MustCompile(`[\pL\pN]+`)

// utf16ToByte is the byte offset in s of UTF-16 offset u (Span's unit), or len(s).
func utf16ToByte(s string, u int) int {
	n := 0
	for i, r := range s {
		if n >= u {
			return i
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return len(s)
}

// citeLine is the file's line of a hit's snippet: the line of its first highlighted word in the
// chunk's text (text, with the chunk's line map lines), kept within the chunk's lines. It is the
// chunk's first line when the snippet is not found in the text (the text was not read: the
// snippet is then the chunk's opening) or has no highlight.
func citeLine(h store.SearchHit, lines []int, text, snip string, spans []Span) int {
	i, ok := snippetLine(text, snip, spans)
	if !ok {
		return h.LineStart
	}
	c := store.Chunk{LineStart: h.LineStart, Lines: lines}
	return min(max(c.FileLine(i), h.LineStart), max(h.LineEnd, h.LineStart))
}
