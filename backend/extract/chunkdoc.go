package extract

import "strings"

// ChunkDocument chunks doc.Text with Chunk() and sets Span.Page from doc.Pages.
//
// A paged document is chunked page by page, so no chunk straddles two pages and every chunk
// cites exactly the page it came from (offsets and lines there refer to doc.Text: a PDF has no
// source lines). Where doc.Source maps Text back to the file (HTML), offsets and lines are the
// file's, and Span.Lines gives the file's line of each line of the chunk's text.
func ChunkDocument(doc *Document, o ChunkOptions) []Span {
	if doc == nil {
		return nil
	}
	if len(doc.Pages) == 0 {
		spans := Chunk(doc.Text, o)
		if doc.Source != nil {
			for i := range spans {
				citeSource(doc, &spans[i])
			}
		}
		return spans
	}
	var out []Span
	line, pos := 1, 0 // line number at byte offset pos of doc.Text
	for _, p := range doc.Pages {
		if p.ByteStart < pos || p.ByteEnd < p.ByteStart || p.ByteEnd > len(doc.Text) {
			continue // spans from a reader are ordered and in range; skip anything else
		}
		line += countNewlines(doc.Text[pos:p.ByteStart])
		pos = p.ByteStart
		for _, s := range Chunk(doc.Text[p.ByteStart:p.ByteEnd], o) {
			s.ByteStart += p.ByteStart
			s.ByteEnd += p.ByteStart
			s.TextStart, s.TextEnd = s.ByteStart, s.ByteEnd
			s.LineStart += line - 1
			s.LineEnd += line - 1
			s.Page = p.Page
			out = append(out, s)
		}
	}
	return out
}

func countNewlines(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}

// citeSource turns a span's Text offsets into the file's offsets and lines. The end maps
// through the chunk's last mapped byte, not the next one, because the bytes after a chunk's
// last word may be a separator the reader added, which maps forward to the next chunk.
func citeSource(doc *Document, s *Span) {
	m := doc.Source
	start, end := m.Offset(s.ByteStart), m.offsetBefore(s.ByteEnd)
	end = max(end, start)
	s.Lines = make([]int, 0, countNewlines(s.Text)+1)
	at := s.ByteStart
	for _, l := range strings.Split(s.Text, "\n") {
		// A line maps from its first mapped byte; one with none (a fence, an empty line) takes
		// the line before it so numbers never run backwards.
		n := m.Line(m.Offset(at))
		if m.offsetBefore(at+len(l)) < m.Offset(at) && len(s.Lines) > 0 {
			n = s.Lines[len(s.Lines)-1]
		}
		if len(s.Lines) > 0 {
			n = max(n, s.Lines[len(s.Lines)-1])
		}
		s.Lines = append(s.Lines, n)
		at += len(l) + 1
	}
	s.ByteStart, s.ByteEnd = start, end
	s.LineStart, s.LineEnd = m.Line(start), max(m.Line(max(end-1, start)), s.Lines[len(s.Lines)-1])
}
