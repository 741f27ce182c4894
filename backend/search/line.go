package search

import (
	"context"
	"strings"

	"github.com/strata-app/strata/backend/store"
)

// A chunk runs over many lines (a section of a page); its LineStart is where the section
// begins, which may be twenty lines above the words a snippet shows. A citation lands on the
// source's own line: snippetAt finds the line of the chunk's text that holds the snippet's
// first highlighted word, and the chunk's line map (store.Chunk.FileLine) turns it into the
// file's line (fillLines, once for all the results of a search).

// snippetAt is the 0-based line of text holding the first highlighted word of snip (a snippet
// of text, see snippet), found as that word and up to four words after it in the same order.
// Only runs of letters and digits are compared: the snippet joins the text's words with single
// spaces and leaves out what a reader's markup put around them (the angle brackets of a man
// page's <https://…>), so anything else may stand between them. When the words are not found in
// that order (a code block the snippet left out falls between), fewer are looked for. ok is
// false when the snippet has no highlight or its word is not in text.
func snippetAt(text, snip string, spans []Span) (line, offset int, ok bool) {
	if len(spans) == 0 {
		return 0, 0, false
	}
	var words []string
	rest := snip[utf16ToByte(snip, spans[0].Start):]
	eachWord(rest, func(i, j int) {
		if len(words) < 5 {
			words = append(words, rest[i:j])
		}
	})
	var toks [][2]int
	eachWord(text, func(i, j int) { toks = append(toks, [2]int{i, j}) })
	for n := len(words); n >= 1; n-- {
	next:
		for i := 0; i+n <= len(toks); i++ {
			for k := range n {
				if t := toks[i+k]; text[t[0]:t[1]] != words[k] {
					continue next
				}
			}
			return strings.Count(text[:toks[i][0]], "\n"), toks[i][0], true
		}
	}
	return 0, 0, false
}

// lineAt is a citation whose line is still to be read from its chunk's line map: line idx of
// the text of chunk rowid; passage is the index in OtherPassages, -1 for the result's own.
type lineAt struct {
	rowid   int64
	chunkID string
	idx     int
	offset  int // the word's byte offset in the chunk's text
	passage int // an index in OtherPassages; -1 the result's own; alsoInAt(k) AlsoIn[k]
}

// alsoInAt is lineAt.passage for AlsoIn[k].
func alsoInAt(k int) int { return -2 - k }

// fillLines sets Line of the results and their passages from the line maps of their chunks
// (one read for the whole page of results), kept within each passage's lines. A citation whose
// snippet was not found in its text keeps its chunk's first line.
func fillLines(ctx context.Context, q store.Q, results []Result) error {
	var ids []int64
	for _, r := range results {
		for _, p := range r.lines {
			ids = append(ids, p.rowid)
		}
	}
	maps, err := store.ChunkLineMaps(ctx, q, ids)
	if err != nil {
		return err
	}
	for i := range results {
		r := &results[i]
		for _, p := range r.lines {
			start, end, line, fold := r.LineStart, r.LineEnd, &r.Line, &r.Fold
			switch {
			case p.passage >= 0:
				o := &r.OtherPassages[p.passage]
				start, end, line, fold = o.LineStart, o.LineEnd, &o.Line, &o.Fold
			case p.passage <= -2:
				a := &r.AlsoIn[-2-p.passage]
				start, end, line, fold = a.LineStart, a.LineEnd, &a.Line, &a.Fold
			}
			c := store.Chunk{LineStart: start, Lines: maps[p.rowid]}
			*line = min(max(c.FileLine(p.idx), start), max(end, start))
			if folded(c, p.idx, end) {
				*fold = &Fold{ChunkID: p.chunkID, Offset: p.offset}
			}
		}
		r.lines = nil
	}
	return nil
}

// folded reports whether line idx of chunk c's text stands for several lines of the file (a
// reader folded a wrapped paragraph into one line, as the HTML reader does): then FileLine is
// only the first of them.
func folded(c store.Chunk, idx, end int) bool {
	if len(c.Lines) == 0 {
		return false // the text's lines are the file's
	}
	at := c.FileLine(idx)
	for j := idx + 1; j < len(c.Lines); j++ {
		if l := c.FileLine(j); l > at {
			return l-at > 1
		}
	}
	return end > at
}

// Fold is where a citation's words are in its chunk's text when its line is a folded paragraph
// (folded): the engine, which can read the file again, turns the offset into the file's own
// line. Not part of any transport.
type Fold struct {
	ChunkID string
	Offset  int
}
