package ask

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/store"
)

// answerWriter turns the sentences an answer is made of (picked from the passages, written by
// the chat model and checked, or stated from facts) into the answer's sentences and its
// citations, numbered in order of first use: one citation per cited stretch of a passage.
type writer struct {
	a        *Asker
	passages []*passage
	cites    map[string]int // stretch (chunk and byte range) → its number
	list     []Citation
	sources  map[string]*sourceText // document → its file read again (sourceOf), nil when it cannot be
}

// answerPassages are the passages as the answer package sees them.
func (w *writer) answerPassages() []answer.Passage {
	out := make([]answer.Passage, len(w.passages))
	at := map[*passage]int{}
	for i, p := range w.passages {
		at[p] = i
	}
	for i, p := range w.passages {
		out[i] = answer.Passage{Sentences: p.sents, Rank: p.rank, Subject: passageSubject(p), TitlesOnly: p.titlesOnly}
		if k, ok := at[p.above]; ok && p.above != nil {
			out[i].Above = k + 1
		}
		if top := w.passages[0].result.Score; top > 0 {
			out[i].Score = p.result.Score / top
		}
	}
	return out
}

// extractive writes picked sentences: a run of sentences of one passage that follow each other
// in its text, with nothing but space between them, is one stretch and one citation, which each
// of its sentences ends with. Sentences with anything between them (a heading, a table, a
// skipped line) are cited apart: a quote is one contiguous span of the file (issue 24). A code
// block is a stretch of its own.
func (w *writer) extractive(ctx context.Context, picked []answer.Picked) ([]answerSentence, error) {
	var out []answerSentence
	for i := 0; i < len(picked); {
		j := i + 1
		for j < len(picked) && picked[j].Passage == picked[i].Passage && picked[j].Index == picked[j-1].Index+1 {
			p := w.passages[picked[i].Passage]
			prev, next := p.sents[picked[j-1].Index], p.sents[picked[j].Index]
			if prev.Unit != answer.UnitProse || next.Unit != answer.UnitProse || strings.TrimSpace(p.chunk.Text[prev.End:next.Start]) != "" {
				break
			}
			j++
		}
		p := w.passages[picked[i].Passage]
		quote := make([]string, 0, j-i)
		for _, k := range picked[i:j] {
			quote = append(quote, p.sents[k.Index].Text)
		}
		n, err := w.cite(ctx, p, p.sents[picked[i].Index].Start, p.sents[picked[j-1].Index].End, strings.Join(quote, " "))
		if err != nil {
			return nil, err
		}
		for _, k := range picked[i:j] {
			out = append(out, answerSentence{text: p.sents[k.Index].Text, cites: []int{n}, code: p.sents[k.Index].Unit == answer.UnitCode})
		}
		i = j
	}
	return out, nil
}

// cite returns the number of the citation of chunk text [from, to) of a passage, adding it on
// first use.
func (w *writer) cite(ctx context.Context, p *passage, from, to int, quote string) (int, error) {
	key := p.chunk.ChunkID + ":" + strconv.Itoa(from) + ":" + strconv.Itoa(to)
	if n, ok := w.cites[key]; ok {
		return n, nil
	}
	start, end, err := w.lines(ctx, p, from, to)
	if err != nil {
		return 0, err
	}
	if tabular(p.result.Path) {
		// The CSV reader writes a row as "name: … | email: …"; the quote is the file's own line.
		raw, ok, err := w.a.Files.FileLines(ctx, p.result.DocumentID, start, end)
		if err != nil {
			return 0, err
		}
		if ok {
			quote = raw
		}
	}
	n := len(w.list) + 1
	w.cites[key] = n
	w.list = append(w.list, Citation{N: n, DocumentID: p.result.DocumentID, Path: p.result.Path, Title: p.result.Title,
		LineStart: start, LineEnd: end, Page: p.chunk.Page, ChunkID: p.chunk.ChunkID, Quote: quote})
	return n, nil
}

// lines are the file's lines of chunk text [from, to). The chunk knows the file line of each of
// its text's lines (store.Chunk.FileLine, from the reader's source map): a stretch that starts
// and ends on lines of their own cites them as they are. A reader that folded several lines of
// the file into one line of text (an HTML paragraph wrapped in the file) leaves only the first
// of them known; then the file is read again (sourceOf) and the stretch's own offsets are
// mapped through the reader's source map, so a sentence in the middle of a paragraph cites its
// own lines. When the file cannot be read again as it was (changed, gone, not a file), the
// stretch cites every line of the folded text: wider, but still lines that hold its words.
// A PDF has no file lines: it cites its page (and the text's lines, as search results do).
func (w *writer) lines(ctx context.Context, p *passage, from, to int) (int, int, error) {
	c := p.chunk
	text := c.Text
	to = max(min(to, len(text)), from+1)
	li := strings.Count(text[:min(from, len(text))], "\n")
	last := lastWordByte(text, from, to)
	lj := strings.Count(text[:last], "\n")
	nLines := strings.Count(text, "\n") + 1
	// next is the first file line after those text line i stands for: the line of the next text
	// line that starts further down the file (a blank line the reader wrote has the line of the
	// text before it), else the line after the chunk's last.
	next := func(i int) int {
		for j := i + 1; j < nLines; j++ {
			if l := c.FileLine(j); l > c.FileLine(i) {
				return l
			}
		}
		return max(c.LineEnd, c.FileLine(i)) + 1
	}
	lineStart := strings.LastIndexByte(text[:min(from, len(text))], '\n') + 1
	start, end := c.FileLine(li), c.FileLine(lj)
	foldedStart := next(li)-start > 1 && strings.TrimSpace(text[lineStart:from]) != ""
	foldedEnd := next(lj)-end > 1
	if c.Page > 0 || !foldedStart && !foldedEnd {
		return start, max(end, start), nil
	}
	src, err := w.sourceOf(ctx, c)
	if err != nil {
		return 0, 0, err
	}
	if src != nil {
		s := src.line(c.TextStart + from)
		e := src.line(c.TextStart + last)
		return s, max(e, s), nil
	}
	if foldedEnd {
		end = next(lj) - 1
	}
	return start, max(end, start), nil
}

// lastWordByte is the offset of the last letter or digit of text[from:to] (to-1 if none): a
// sentence's final stop or closing quote may be a character the reader wrote itself, which maps
// to the next piece of the file.
func lastWordByte(text string, from, to int) int {
	for i := to; i > from; {
		r, n := utf8.DecodeLastRuneInString(text[:i])
		i -= n
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return i
		}
	}
	return to - 1
}

// sourceText is a document's file read again, with the reader's source map.
type sourceText struct{ doc *extract.Document }

func (s *sourceText) line(off int) int { return s.doc.SourceLine(off) }

// MaxSourceBytes bounds the files read again for lines (a few HTML pages per answer; a
// one-page book is a few MB).
const MaxSourceBytes = 16 << 20

// sourceOf is the file of a chunk's document read again (Files.ReadSource), once per answer.
func (w *writer) sourceOf(ctx context.Context, c store.Chunk) (*sourceText, error) {
	if s, ok := w.sources[c.DocumentID]; ok {
		return s, nil
	}
	w.sources[c.DocumentID] = nil
	doc, err := w.a.Files.ReadSource(ctx, c, MaxSourceBytes)
	if err != nil || doc == nil {
		return nil, err
	}
	s := &sourceText{doc: doc}
	w.sources[c.DocumentID] = s
	return s, nil
}

// tabular reports whether a file is a table the reader rewrites row by row (CSV, TSV).
func tabular(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv":
		return true
	}
	return false
}

// answerSentence is one sentence of the answer with its citation numbers.
type answerSentence struct {
	text  string
	cites []int
	code  bool // a code block, quoted verbatim in a fence of its own
}

// render writes the answer's sentences as one paragraph, each ending with its citations:
// "… returns a Promise [2]." (the marker before the sentence's own final stop).
func render(list []answerSentence) string {
	var b strings.Builder
	for i, s := range list {
		switch {
		case s.code:
			// A fence long enough for the code's own backticks, the citation after it.
			fence := "```"
			for strings.Contains(s.text, fence) {
				fence += "`"
			}
			b.WriteString("\n\n" + fence + "\n" + s.text + "\n" + fence + "\n" + strings.TrimSpace(withMarkers("", s.cites)) + "\n\n")
		default:
			if i > 0 && !strings.HasSuffix(b.String(), "\n") {
				b.WriteByte(' ')
			}
			b.WriteString(withMarkers(s.text, s.cites))
		}
	}
	return strings.TrimSpace(b.String())
}

func withMarkers(text string, cites []int) string {
	text = answer.EscapeMarkers(text)
	if len(cites) == 0 {
		return text
	}
	var m strings.Builder
	for _, n := range cites {
		fmt.Fprintf(&m, "[%d]", n)
	}
	if n := len(text); n > 0 && strings.IndexByte(".!?", text[n-1]) >= 0 {
		return strings.TrimRight(text[:n-1], " ") + " " + m.String() + text[n-1:] // "der ." (a PDF's spacing) → "der [1]."
	}
	return text + " " + m.String()
}

// SourcesList is the "Sources" section of summary_with_sources: one line per citation,
// "[n] title — path:line" (or "p.N" for a page of a PDF).
func SourcesList(cs []Citation) string {
	var b strings.Builder
	b.WriteString("Sources:")
	for _, c := range cs {
		fmt.Fprintf(&b, "\n[%d] %s — %s", c.N, c.Title, CitePlace(c))
	}
	return b.String()
}

// CitePlace is where a citation points: path:line, path:line–line, or path p.N.
func CitePlace(c Citation) string {
	where := c.Path
	if where == "" {
		where = c.DocumentID
	}
	switch {
	case c.Page > 0:
		return fmt.Sprintf("%s p.%d", where, c.Page)
	case c.LineEnd > c.LineStart:
		return fmt.Sprintf("%s:%d-%d", where, c.LineStart, c.LineEnd)
	default:
		return fmt.Sprintf("%s:%d", where, c.LineStart)
	}
}
