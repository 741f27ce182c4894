package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// PDF text comes from github.com/ledongthuc/pdf (pure Go, maintained, no cgo). Its GetPlainText
// concatenates glyphs and drops the spaces that PDFs express as gaps rather than as space
// characters ("ThismanualisforGNU…"), which ruins search. So the reader takes the positioned
// glyphs of each page and rebuilds lines and words itself (see layoutPage).

const (
	maxPDFPages  = 100_000
	maxPDFVisits = 500_000 // page-tree nodes visited; a malformed tree can reference itself
)

func readPDF(ctx context.Context, data []byte, name string, lim Limits) (*Document, error) {
	if err := pdfPrecheck(data); err != nil {
		return nil, analysisFailed(err, name, "the PDF is damaged").
			WithHint("its cross-reference table is malformed; re-export the PDF or print it to a new PDF, then add it again").
			With("reason", "damaged")
	}
	r, err := pdf.NewReader(pdfHeaderFix(data), int64(len(data)))
	if err != nil {
		return nil, pdfOpenError(err, data, name)
	}
	doc := &Document{Meta: map[string]any{}}
	pdfInfo(r, doc)
	pages := pdfPages(r)
	doc.Meta["pages"] = len(pages)
	var b strings.Builder
	var failed []int
	var lastErr error
	for i, p := range pages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if int64(b.Len()) >= lim.MaxTextBytes {
			doc.Meta["truncated"] = true
			break
		}
		text, err := pageText(ctx, p)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			failed = append(failed, i+1)
			lastErr = err
		}
		if i > 0 {
			b.WriteString("\n\n") // a blank line between pages ends the paragraph for Chunk
		}
		if room := int(lim.MaxTextBytes) - b.Len(); len(text) > room {
			cut := max(room, 0)
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			text = text[:cut]
			doc.Meta["truncated"] = true
		}
		start := b.Len()
		b.WriteString(text)
		doc.Pages = append(doc.Pages, PageSpan{Page: i + 1, ByteStart: start, ByteEnd: b.Len()})
	}
	if len(pages) > 0 && len(failed) == len(pages) && strings.TrimSpace(b.String()) == "" {
		return nil, analysisFailed(lastErr, name, "no page of the PDF could be read").
			WithHint("the PDF is damaged or uses features the reader does not support; re-export or print it to a new PDF").
			With("reason", "damaged")
	}
	if len(failed) > 0 {
		doc.Meta["failed_pages"] = failed
	}
	doc.Text = b.String()
	if strings.TrimSpace(doc.Text) == "" && len(pages) > 0 {
		// Scanned pages are images; the text is simply not there without OCR.
		doc.Meta["no_text"] = true
	}
	return doc, nil
}

// pdfHeaderFix lets the library open PDFs whose header it rejects although the file is fine:
// it insists on "%PDF-1.x" followed by a line break, which PDF 2.0 files and headers followed by
// a comment on the same line do not have. Offsets in a PDF never point into the header, so
// presenting a normalised first line does not change what the library reads.
func pdfHeaderFix(data []byte) *headerOverlay {
	o := &headerOverlay{data: data}
	if len(data) >= 9 && bytes.HasPrefix(data, []byte("%PDF-")) &&
		(data[5] != '1' || data[7] > '7' || (data[8] != '\r' && data[8] != '\n')) {
		o.head = []byte("%PDF-1.7\n")
	}
	return o
}

// headerOverlay is an io.ReaderAt over data with its first len(head) bytes replaced.
type headerOverlay struct {
	data []byte
	head []byte
}

func (o *headerOverlay) ReadAt(p []byte, off int64) (int, error) {
	r := bytes.NewReader(o.data)
	n, err := r.ReadAt(p, off)
	for i := 0; i < n; i++ {
		if j := off + int64(i); j < int64(len(o.head)) {
			p[i] = o.head[j]
		}
	}
	return n, err
}

// pdfOpenError explains why a PDF did not open, with the hint that fits the cause.
func pdfOpenError(err error, data []byte, name string) error {
	msg := err.Error()
	tail := data[max(0, len(data)-2048):]
	switch {
	case !bytes.HasPrefix(data, []byte("%PDF-")):
		return analysisFailed(err, name, "the file is not a valid PDF").
			WithHint("the file is named or detected as PDF but does not start like one; check that it is really a PDF").
			With("reason", "not_pdf")
	case bytes.Contains(data, []byte("/Encrypt")):
		return analysisFailed(err, name, "the PDF is encrypted").
			WithHint("the PDF is password-protected or encrypted; open it in a PDF viewer and save or print an unprotected copy, then add that copy").
			With("reason", "encrypted")
	case !bytes.Contains(tail, []byte("%%EOF")) || strings.Contains(msg, "EOF"):
		return analysisFailed(err, name, "the PDF is truncated").
			WithHint("the file ends before the PDF does (a download cut short or a copy still in progress); download or export it again").
			With("reason", "truncated")
	default:
		return analysisFailed(err, name, "the PDF is damaged").
			WithHint("re-export the PDF or print it to a new PDF, then add it again").
			With("reason", "damaged")
	}
}

// pdfInfo copies the document information dictionary into Meta and takes Title from it.
func pdfInfo(r *pdf.Reader, doc *Document) {
	defer func() { _ = recover() }() // a broken Info dictionary must not cost the text
	info := r.Trailer().Key("Info")
	if info.Kind() != pdf.Dict {
		return
	}
	for _, k := range []string{"Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate"} {
		v := info.Key(k)
		if v.Kind() != pdf.String {
			continue
		}
		s := strings.TrimSpace(strings.ToValidUTF8(v.Text(), ""))
		if s == "" {
			continue
		}
		if k == "CreationDate" || k == "ModDate" {
			if t, ok := pdfDate(s); ok {
				s = t.Format(time.RFC3339)
			}
		}
		doc.Meta[strings.ToLower(k)] = s
	}
	if t, ok := doc.Meta["title"].(string); ok {
		doc.Title = t
	}
}

// pdfDate parses "D:YYYYMMDDHHmmSSOHH'mm'" and its shorter forms.
func pdfDate(s string) (time.Time, bool) {
	s = strings.TrimPrefix(s, "D:")
	s = strings.ReplaceAll(s, "'", "")
	if i := strings.IndexByte(s, 'Z'); i >= 0 {
		s = s[:i] // "Z" means UTC; some producers still append "00'00'"
	}
	for _, layout := range []string{"20060102150405-0700", "20060102150405", "200601021504", "20060102"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// pdfPages lists the pages in order by walking the page tree once (the library's Page(n) walks
// it from the root for every page), with budgets because a malformed tree can be cyclic.
func pdfPages(r *pdf.Reader) []pdf.Page {
	var out []pdf.Page
	visits := 0
	var walk func(v pdf.Value, depth int)
	walk = func(v pdf.Value, depth int) {
		visits++
		if depth > 64 || visits > maxPDFVisits || len(out) >= maxPDFPages || v.Kind() != pdf.Dict {
			return
		}
		kids := v.Key("Kids")
		if v.Key("Type").Name() == "Page" || (kids.Kind() != pdf.Array && v.Key("Type").Name() != "Pages") {
			out = append(out, pdf.Page{V: v})
			return
		}
		for i := 0; i < kids.Len(); i++ {
			walk(kids.Index(i), depth+1)
		}
	}
	func() {
		defer func() { _ = recover() }() // keep the pages found before the tree broke
		walk(r.Trailer().Key("Root").Key("Pages"), 0)
	}()
	return out
}

// pageText extracts one page; a panic in the library (it panics on malformed objects) costs
// this page only.
func pageText(ctx context.Context, p pdf.Page) (text string, err error) {
	defer func() {
		if x := recover(); x != nil {
			text, err = "", fmt.Errorf("page content: %v", x)
		}
	}()
	// Resources are inherited through /Parent; the library follows that chain without a bound,
	// so a cyclic chain would never end.
	v := p.V
	for i := 0; !v.IsNull(); i++ {
		if i > 64 {
			return "", fmt.Errorf("cyclic page tree")
		}
		v = v.Key("Parent")
	}
	gs, rotated, err := pageGlyphs(ctx, p)
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if errors.Is(err, errPageFull) {
		err = nil // a page cut at the glyph limit keeps what it has
	}
	return layoutPage(gs, rotated), err // a page that broke midway keeps the text before the break
}

type glyph struct {
	x, y, w, fs float64 // origin, advance width (0 when the font gives none) and size, in points
	s           string
	i           int // position in the content stream
	run         int // the show operation that drew it
}

// Word and line thresholds, in units of the font size. A word space in text fonts is about
// 0.25 em (less when justified text is squeezed); kerning between letters stays within about
// 0.1 em. Baselines of one line differ only by super/subscript offsets (under 0.5 em), and a
// gap between baselines well above the usual 1.2 em leading is a paragraph break.
const (
	wordGap      = 0.15
	lineTol      = 0.5
	paragraphGap = 1.6
)

// layoutPage rebuilds text from positioned glyphs: glyphs are grouped into lines by baseline
// (top to bottom), each line is read left to right, a space goes where the gap between two
// glyphs is wider than a letter gap, and a blank line where the gap between lines is wider than
// the leading. Rotated glyphs (margin notes, vertical labels) follow as a last line in drawing
// order.
//
// When a font gives no widths (old PDFs with unembedded standard fonts), X order and gaps are
// estimates: such lines keep drawing order and rely on the space characters the producer drew,
// plus a clear jump in X between separately positioned strings.
func layoutPage(gs, rotated []glyph) string {
	sort.SliceStable(gs, func(a, b int) bool { return gs[a].y > gs[b].y })
	var lines [][]glyph
	var anchors []glyph // the first (highest) glyph of each line
	for _, g := range gs {
		if !finite(g.x) || !finite(g.y) {
			continue
		}
		if !finite(g.fs) || g.fs < 0.5 {
			g.fs = 10
		}
		if !finite(g.w) || g.w < 0 {
			g.w = 0
		}
		if strings.TrimFunc(g.s, unicode.IsControl) == "" {
			continue
		}
		if n := len(lines); n > 0 && anchors[n-1].y-g.y <= lineTol*math.Max(anchors[n-1].fs, g.fs) {
			lines[n-1] = append(lines[n-1], g)
			continue
		}
		lines = append(lines, []glyph{g})
		anchors = append(anchors, g)
	}

	var b strings.Builder
	for li, line := range lines {
		widths := true
		for _, g := range line {
			if g.w == 0 && !isSpace(g.s) {
				widths = false
				break
			}
		}
		if widths {
			sort.SliceStable(line, func(a, c int) bool { return line[a].x < line[c].x })
		} else {
			sort.SliceStable(line, func(a, c int) bool { return line[a].i < line[c].i })
		}
		if li > 0 {
			b.WriteByte('\n')
			if baseline(lines[li-1])-baseline(line) > paragraphGap*math.Max(maxFS(lines[li-1]), maxFS(line)) {
				b.WriteByte('\n')
			}
		}
		var lb strings.Builder
		writeLine(&lb, line, widths)
		b.WriteString(collapseLeaders(lb.String()))
	}
	if len(rotated) > 0 {
		sort.SliceStable(rotated, func(a, c int) bool { return rotated[a].i < rotated[c].i })
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		for i, g := range rotated {
			if i > 0 && g.run != rotated[i-1].run && !isSpace(g.s) && !isSpace(rotated[i-1].s) {
				b.WriteByte(' ')
			}
			if !isSpace(g.s) || (i > 0 && !isSpace(rotated[i-1].s)) {
				b.WriteString(cleanGlyph(g.s))
			}
		}
	}
	return b.String()
}

// leaderDots matches the dot leaders of tables of contents and indexes (". . . . 12"); fonts
// without a Unicode map often decode them as colons.
var leaderDots = regexp.MustCompile(`(?: ?[.:·]){5,} ?`)

// collapseLeaders shortens dot leaders to " … " so a table of contents reads as entries and
// page numbers rather than a wall of punctuation in every chunk and embedding.
func collapseLeaders(line string) string {
	if strings.Count(line, ".")+strings.Count(line, ":") < 5 {
		return line
	}
	return leaderDots.ReplaceAllString(line, " … ")
}

// ligatures are spelled out: search for "file" must match a PDF that drew "ﬁle".
var ligatures = strings.NewReplacer("\uFB00", "ff", "\uFB01", "fi", "\uFB02", "fl", "\uFB03", "ffi", "\uFB04", "ffl", "\uFB05", "st", "\uFB06", "st")

func cleanGlyph(s string) string {
	return ligatures.Replace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s))
}

func writeLine(b *strings.Builder, line []glyph, widths bool) {
	var prev glyph
	started, space := false, false
	for _, g := range line {
		if isSpace(g.s) {
			// With widths, geometry decides: producers also draw spaces with negative word
			// spacing as a kerning trick (Ghostscript's "(Ke y)Tj" with Tw -2.15 is "Key").
			space = started && !widths
			continue
		}
		if started {
			switch {
			case widths && g.s == prev.s && math.Abs(g.x-prev.x) < 0.1*g.fs:
				continue // drawn twice with a small offset: simulated bold
			case widths && g.x-(prev.x+prev.w) > wordGap*g.fs:
				space = true
			case !widths && g.run != prev.run && g.x > prev.x+0.6*prev.fs+wordGap*g.fs:
				space = true // a separately positioned string starting clearly after the last glyph
			}
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(cleanGlyph(g.s))
		prev, started = g, true
	}
}

func isSpace(s string) bool { return strings.TrimFunc(s, unicode.IsSpace) == "" }

// baseline is the median Y of a line, so a superscript does not move it.
func baseline(line []glyph) float64 {
	ys := make([]float64, len(line))
	for i, g := range line {
		ys[i] = g.y
	}
	sort.Float64s(ys)
	return ys[len(ys)/2]
}

func maxFS(line []glyph) float64 {
	m := 0.0
	for _, g := range line {
		m = math.Max(m, g.fs)
	}
	return m
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
