package extract

import "sort"

// RegionKind says what a non-prose stretch of Document.Text is.
type RegionKind string

// The kinds of Region. Everything outside a region is prose: the only text the fact
// heuristics read, because on technical documents almost every "fact" found in code, link
// targets or anchors is noise (a link anchor becomes a concept, `$1 = 0` in GDB output becomes
// an amount, `#include` a hashtag).
const (
	RegionCode    RegionKind = "code"    // a code block or an inline code span
	RegionLink    RegionKind = "link"    // a link destination, reference definition or anchor kept in the text
	RegionHeading RegionKind = "heading" // a heading line (titles, not sentences)
	RegionMarkup  RegionKind = "markup"  // raw HTML, comments, front matter or other syntax kept in the text
)

// Region is the byte range [Start, End) of Document.Text that is not prose.
type Region struct {
	Start, End int
	Kind       RegionKind
}

// SourceSegment says that Document.Text[TextStart:TextStart+Len] was read from the file's
// bytes at [SourceStart, SourceStart+Len) — the same bytes (a copy), so offsets inside a segment
// map one to one. Text between segments (a separator the reader added) maps to the start of the
// next segment.
type SourceSegment struct {
	TextStart, SourceStart, Len int
}

// SourceMap maps offsets of Document.Text back to the file the reader read, so a citation
// (a chunk's lines, a fact's line) lands on the source's own line and its byte offsets index
// the file, even where the reader dropped markup (HTML tags, Markdown syntax, front matter).
//
// A nil map means Text is the file's own text: offsets and lines are the file's.
type SourceMap struct {
	Segments []SourceSegment // ordered by TextStart, non-overlapping
	lines    []int           // byte offset of the start of each line of the source
}

// NewSourceMap builds a map over the file's decoded source text; segments are added in order.
func NewSourceMap(source string) *SourceMap {
	m := &SourceMap{lines: []int{0}}
	for i := 0; i < len(source); i++ {
		if source[i] == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// Add records that length bytes of Text at textStart came from the source at sourceStart.
func (m *SourceMap) Add(textStart, sourceStart, length int) {
	if length <= 0 {
		return
	}
	m.Segments = append(m.Segments, SourceSegment{TextStart: textStart, SourceStart: sourceStart, Len: length})
}

// shift moves the map n bytes down the file, for a reader that read the file from byte n (after
// a byte order mark the decoder dropped), so offsets index the file itself.
func (m *SourceMap) shift(n int) {
	for i := range m.Segments {
		m.Segments[i].SourceStart += n
	}
	for i := 1; i < len(m.lines); i++ {
		m.lines[i] += n
	}
}

// Offset is the source byte offset of Text offset off.
func (m *SourceMap) Offset(off int) int {
	if m == nil {
		return off
	}
	s := m.Segments
	i := sort.Search(len(s), func(i int) bool { return s[i].TextStart+s[i].Len > off })
	switch {
	case i == len(s) && i > 0:
		return s[i-1].SourceStart + s[i-1].Len
	case i == len(s):
		return 0
	case off < s[i].TextStart:
		return s[i].SourceStart
	}
	return s[i].SourceStart + off - s[i].TextStart
}

// offsetBefore is the source offset just after Text[:end]'s last mapped byte: the exclusive
// end of a range, which must not run on into the next segment as Offset(end) would.
func (m *SourceMap) offsetBefore(end int) int {
	s := m.Segments
	i := sort.Search(len(s), func(i int) bool { return s[i].TextStart >= end })
	if i == 0 {
		return m.Offset(end)
	}
	p := s[i-1]
	return p.SourceStart + min(end-p.TextStart, p.Len)
}

// Line is the 1-based source line holding source byte offset srcOff.
func (m *SourceMap) Line(srcOff int) int {
	return sort.SearchInts(m.lines, srcOff+1)
}

// SourceOffset is the byte offset in the file of Text offset off (off itself when Text is
// the file's own text).
func (d *Document) SourceOffset(off int) int {
	return d.Source.Offset(off)
}

// SourceLine is the 1-based line of the file holding Text offset off; without a source map it
// is the line of Text.
func (d *Document) SourceLine(off int) int {
	if d.Source == nil {
		return 1 + countNewlines(d.Text[:min(max(off, 0), len(d.Text))])
	}
	return d.Source.Line(d.Source.Offset(off))
}

// Prose reports whether the byte range [start, end) of Text lies outside every region.
func (d *Document) Prose(start, end int) bool {
	r := d.Regions
	i := sort.Search(len(r), func(i int) bool { return r[i].End > start })
	return i == len(r) || r[i].Start >= end
}
