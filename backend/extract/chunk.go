// Package extract turns text into searchable structure. This file holds the chunker shared by
// every input: chunks follow headings and paragraphs, stay near a target size, and keep exact
// byte offsets and line ranges so a search hit can cite path:line.
package extract

import (
	"strings"
	"unicode/utf8"
)

// Span is one chunk of a text.
type Span struct {
	Text      string
	Heading   string // heading path, "Intro > Setup"
	ByteStart int    // offset of Text in the file (in Document.Text where that is the file's text)
	ByteEnd   int
	// TextStart and TextEnd are Text's offsets in Document.Text, which the fact heuristics'
	// offsets also index; they equal ByteStart and ByteEnd unless the reader rewrote the file.
	TextStart, TextEnd int
	LineStart          int // 1-based, inclusive
	LineEnd            int
	Page               int // 1-based page of ByteStart for paged formats (PDF); 0 otherwise
	// Lines is the file's line of each line of Text, set when the file's lines are not Text's
	// (HTML): a document view numbers the extracted lines with the lines search cites.
	Lines []int
}

// ChunkOptions sizes chunks; zero values take the defaults.
type ChunkOptions struct {
	Target int // flush once a chunk reaches this many bytes (default 1000)
	Max    int // a single paragraph longer than this is split (default 2000)
	// NoHeadings: a line starting with "# " is text, not a heading (see ChunkDocument).
	NoHeadings bool
}

type line struct {
	start, end int // byte range without the newline
	n          int // 1-based line number
}

// Chunk splits text into spans. Markdown ATX headings start a new chunk and set the heading
// path; fenced code blocks are never split at headings inside them.
func Chunk(text string, o ChunkOptions) []Span {
	if o.Target <= 0 {
		o.Target = 1000
	}
	if o.Max <= 0 {
		o.Max = 2 * o.Target
	}
	lines := splitLines(text)
	var out []Span
	var path []string
	var cur []line // lines of the chunk being built
	curBytes := 0
	heading := ""

	flush := func() {
		// trim blank lines at both ends
		for len(cur) > 0 && isBlank(text, cur[0]) {
			cur = cur[1:]
		}
		for len(cur) > 0 && isBlank(text, cur[len(cur)-1]) {
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			s, e := cur[0].start, cur[len(cur)-1].end
			out = append(out, Span{Text: text[s:e], Heading: heading, ByteStart: s, ByteEnd: e, TextStart: s, TextEnd: e, LineStart: cur[0].n, LineEnd: cur[len(cur)-1].n})
		}
		cur, curBytes = nil, 0
	}

	inFence := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		s := text[l.start:l.end]
		trimmed := strings.TrimSpace(s)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
		}
		if !inFence && !o.NoHeadings {
			if level, title := atxHeading(s); level > 0 {
				flush()
				if level-1 < len(path) {
					path = path[:level-1]
				}
				for len(path) < level-1 {
					path = append(path, "")
				}
				path = append(path, title)
				heading = joinPath(path)
				cur, curBytes = append(cur, l), l.end-l.start
				continue
			}
		}
		// paragraph boundary: flush when the chunk is big enough
		if !inFence && trimmed == "" && curBytes >= o.Target {
			flush()
			continue
		}
		if l.end-l.start > o.Max {
			flush()
			for _, p := range splitLong(text, l, o.Target) {
				out = append(out, Span{Text: text[p.start:p.end], Heading: heading, ByteStart: p.start, ByteEnd: p.end, TextStart: p.start, TextEnd: p.end, LineStart: l.n, LineEnd: l.n})
			}
			continue
		}
		if curBytes+(l.end-l.start) > o.Max && curBytes > 0 {
			flush()
		}
		cur = append(cur, l)
		curBytes += l.end - l.start + 1
	}
	flush()
	return out
}

func splitLines(text string) []line {
	var out []line
	start, n := 0, 1
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			end := i
			if end > start && text[end-1] == '\r' {
				end--
			}
			out = append(out, line{start, end, n})
			start, n = i+1, n+1
		}
	}
	if start < len(text) {
		out = append(out, line{start, len(text), n})
	}
	return out
}

func isBlank(text string, l line) bool { return strings.TrimSpace(text[l.start:l.end]) == "" }

func atxHeading(s string) (int, string) {
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 {
		return 0, ""
	}
	level := 0
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(t) && t[level] != ' ' && t[level] != '\t') {
		return 0, ""
	}
	title := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[level:]), "#"))
	if title == "" {
		return 0, ""
	}
	return level, title
}

func joinPath(p []string) string {
	var parts []string
	for _, x := range p {
		if x != "" {
			parts = append(parts, x)
		}
	}
	return strings.Join(parts, " > ")
}

// splitLong cuts one very long line into pieces of about target bytes at spaces, never inside
// a UTF-8 sequence.
func splitLong(text string, l line, target int) []line {
	var out []line
	s := l.start
	for s < l.end {
		e := s + target
		if e >= l.end {
			e = l.end
		} else {
			if sp := strings.LastIndexByte(text[s:e], ' '); sp > target/2 {
				e = s + sp + 1
			}
			for e > s && !utf8.RuneStart(text[e]) {
				e--
			}
			if e == s { // the target is smaller than the character here: take the whole character
				e = s + 1
				for e < l.end && !utf8.RuneStart(text[e]) {
					e++
				}
			}
		}
		out = append(out, line{s, e, l.n})
		s = e
	}
	return out
}

// endBlock ends the text's current block with an empty line, as the chunker's paragraphs
// expect; every reader that builds text block by block uses it.
func endBlock(b *strings.Builder) {
	s := b.String() // no copy: a Builder's String shares its buffer
	switch {
	case s == "" || strings.HasSuffix(s, "\n\n"):
	case strings.HasSuffix(s, "\n"):
		b.WriteByte('\n')
	default:
		b.WriteString("\n\n")
	}
}
