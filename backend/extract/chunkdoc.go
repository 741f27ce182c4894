package extract

// ChunkDocument chunks doc.Text with Chunk() and sets Span.Page from doc.Pages.
//
// A paged document is chunked page by page, so no chunk straddles two pages and every chunk
// cites exactly the page it came from; offsets and line numbers still refer to doc.Text.
func ChunkDocument(doc *Document, o ChunkOptions) []Span {
	if doc == nil {
		return nil
	}
	if len(doc.Pages) == 0 {
		return Chunk(doc.Text, o)
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
