package extract

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/xml"
	"errors"
	"hash"
	"hash/crc32"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/strata-app/strata/backend/errs"
)

// DOCX is read with archive/zip and a streaming encoding/xml pass over word/document.xml, not
// with github.com/fumiama/go-docx: that library unmarshals whole parts into memory with no
// bound on their inflated size (so a zip bomb runs it out of memory), is built for editing
// rather than reading, and has not been updated for a year. Reading text needs a few elements
// only (paragraphs, their style, runs of text, tables), and streaming keeps memory flat.

var errZipBomb = errors.New("inflated size exceeds the limit")

// inflateBudget counts inflated bytes across all parts read from one archive.
type inflateBudget struct{ left int64 }

// open returns the part's inflated bytes, counted against the budget as they are read. It
// inflates the raw stream itself (rather than zip.File.Open) so the count is of bytes actually
// produced, whatever the headers claim; the CRC is still verified at the end.
func (b *inflateBudget) open(f *zip.File) (io.Reader, error) {
	if f.Flags&0x1 != 0 {
		return nil, errors.New("the archive entry is encrypted")
	}
	raw, err := f.OpenRaw()
	if err != nil {
		return nil, err
	}
	var r io.Reader
	switch f.Method {
	case zip.Store:
		r = raw
	case zip.Deflate:
		r = flate.NewReader(raw)
	default:
		return nil, errors.New("unsupported zip compression method " + strconv.Itoa(int(f.Method)))
	}
	return &countingReader{r: r, budget: b, crc: crc32.NewIEEE(), want: f.CRC32}, nil
}

type countingReader struct {
	r      io.Reader
	budget *inflateBudget
	crc    hash.Hash32
	want   uint32
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.budget.left -= int64(n)
	if c.budget.left < 0 {
		return 0, errZipBomb
	}
	c.crc.Write(p[:n])
	if err == io.EOF && c.crc.Sum32() != c.want {
		return n, zip.ErrChecksum
	}
	return n, err
}

func readDOCX(ctx context.Context, data []byte, name string, lim Limits) (*Document, error) {
	if bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}) {
		return nil, analysisFailed(nil, name, "the file is a password-protected DOCX or a legacy Word document").
			WithHint("remove the password (or, for an old .doc, use Save As .docx) in Word or LibreOffice and add the file again").
			With("reason", "encrypted")
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // entry paths are never used as file paths here
		return nil, analysisFailed(err, name, "the DOCX is not a valid zip archive").
			WithHint("a DOCX is a zip archive; this file is damaged, incomplete, or another format renamed .docx; open it in Word or LibreOffice and save it again").
			With("reason", "not_zip")
	}
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[strings.TrimPrefix(f.Name, "/")] = f
	}
	mainPart := docxMainPart(files)
	if files[mainPart] == nil {
		return nil, analysisFailed(nil, name, "the archive has no Word document part").
			WithHint("the zip holds no word/document.xml, so it is not a Word document; open it in Word or LibreOffice and save it as .docx").
			With("reason", "no_document")
	}
	stylesPart := path.Join(path.Dir(mainPart), "styles.xml")
	parts := []string{mainPart, stylesPart, "docProps/core.xml"}
	var declared uint64
	for _, p := range parts {
		if f := files[p]; f != nil {
			declared += f.UncompressedSize64
		}
	}
	if declared > uint64(lim.MaxUncompressed) {
		return nil, docxBomb(name, lim)
	}
	budget := &inflateBudget{left: lim.MaxUncompressed}
	doc := &Document{Meta: map[string]any{}}
	var styles map[string]docxStyle
	if f := files[stylesPart]; f != nil {
		if styles, err = readDocxStyles(budget, f); err != nil {
			return nil, docxPartError(err, name, "styles", lim)
		}
	}
	if f := files["docProps/core.xml"]; f != nil {
		if err := readDocxCore(budget, f, doc); err != nil {
			return nil, docxPartError(err, name, "properties", lim)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	body, err := budget.open(files[mainPart])
	if err != nil {
		return nil, docxPartError(err, name, "document", lim)
	}
	w := &docxWriter{styles: styles, limit: int(lim.MaxTextBytes)}
	if err := w.read(ctx, body); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, docxPartError(err, name, "document", lim)
	}
	doc.Text = strings.TrimRight(w.out.String(), "\n")
	if doc.Text != "" {
		doc.Text += "\n"
	}
	if w.truncated {
		doc.Meta["truncated"] = true
	}
	if doc.Title == "" {
		doc.Title = w.title
	}
	if doc.Title == "" {
		doc.Title = w.firstHeading
	}
	return doc, nil
}

func docxBomb(name string, lim Limits) *errs.Error {
	return tooLarge(name, "the DOCX inflates to more than %d bytes", lim.MaxUncompressed).
		WithHint("the document's compressed parts expand beyond the limit (a zip bomb, or an enormous document); if it is genuine, raise the uncompressed limit or split it").
		With("limit", lim.MaxUncompressed)
}

func docxPartError(err error, name, part string, lim Limits) error {
	if errors.Is(err, errZipBomb) {
		return docxBomb(name, lim).With("part", part)
	}
	return analysisFailed(err, name, "the DOCX %s part is damaged", part).
		WithHint("open the document in Word or LibreOffice and save it again, then add it again").
		With("reason", "corrupt").With("part", part)
}

// docxMainPart finds the main document through the package relationships, as Word does;
// nearly always word/document.xml, which is the fallback.
func docxMainPart(files map[string]*zip.File) string {
	const fallback = "word/document.xml"
	f := files["_rels/.rels"]
	if f == nil || f.UncompressedSize64 > 1<<20 {
		return fallback
	}
	rc, err := (&inflateBudget{left: 1 << 20}).open(f)
	if err != nil {
		return fallback
	}
	var rels struct {
		Rel []struct {
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if xml.NewDecoder(rc).Decode(&rels) != nil {
		return fallback
	}
	for _, r := range rels.Rel {
		if strings.HasSuffix(r.Type, "/officeDocument") {
			if t := strings.TrimPrefix(path.Clean("/"+r.Target), "/"); files[t] != nil {
				return t
			}
		}
	}
	return fallback
}

type docxStyle struct {
	level   int // heading level 1-6, 0 for body text
	title   bool
	basedOn string
}

// readDocxStyles maps style IDs to heading levels. The ID is not enough: localised Word writes
// "berschrift1" for "heading 1", so levels come from the style's name or outline level, and
// styles based on a heading style inherit its level.
func readDocxStyles(b *inflateBudget, f *zip.File) (map[string]docxStyle, error) {
	r, err := b.open(f)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Styles []struct {
			Type    string `xml:"type,attr"`
			ID      string `xml:"styleId,attr"`
			Name    xmlVal `xml:"name"`
			BasedOn xmlVal `xml:"basedOn"`
			Outline xmlVal `xml:"pPr>outlineLvl"`
		} `xml:"style"`
	}
	if err := xml.NewDecoder(r).Decode(&doc); err != nil {
		return nil, err
	}
	out := map[string]docxStyle{}
	for _, s := range doc.Styles {
		if s.Type != "" && s.Type != "paragraph" {
			continue
		}
		st := docxStyle{basedOn: s.BasedOn.Val}
		name := strings.ToLower(strings.TrimSpace(s.Name.Val))
		switch {
		case name == "title":
			st.level, st.title = 1, true
		case strings.HasPrefix(name, "heading "):
			if n, err := strconv.Atoi(strings.TrimPrefix(name, "heading ")); err == nil && n >= 1 {
				st.level = min(n, 6)
			}
		}
		if st.level == 0 && s.Outline.Val != "" {
			if n, err := strconv.Atoi(s.Outline.Val); err == nil && n >= 0 && n < 6 {
				st.level = n + 1
			}
		}
		out[s.ID] = st
	}
	for id, st := range out {
		cur := st
		for i := 0; cur.level == 0 && cur.basedOn != "" && i < 10; i++ {
			cur = out[cur.basedOn]
		}
		if st.level == 0 && cur.level > 0 {
			st.level = cur.level
			out[id] = st
		}
	}
	return out, nil
}

type xmlVal struct {
	Val string `xml:"val,attr"`
}

// readDocxCore reads the Dublin Core properties (title, author, dates) into Meta.
func readDocxCore(b *inflateBudget, f *zip.File, doc *Document) error {
	r, err := b.open(f)
	if err != nil {
		return err
	}
	var core struct {
		Title          string `xml:"title"`
		Subject        string `xml:"subject"`
		Creator        string `xml:"creator"`
		Keywords       string `xml:"keywords"`
		Description    string `xml:"description"`
		LastModifiedBy string `xml:"lastModifiedBy"`
		Created        string `xml:"created"`
		Modified       string `xml:"modified"`
	}
	if err := xml.NewDecoder(r).Decode(&core); err != nil {
		return err
	}
	for k, v := range map[string]string{"title": core.Title, "subject": core.Subject, "author": core.Creator,
		"keywords": core.Keywords, "description": core.Description, "last_modified_by": core.LastModifiedBy,
		"created": core.Created, "modified": core.Modified} {
		if v = strings.TrimSpace(v); v != "" {
			doc.Meta[k] = v
		}
	}
	doc.Title = strings.TrimSpace(core.Title)
	return nil
}

// docxWriter turns the WordprocessingML token stream into Markdown-flavoured text.
type docxWriter struct {
	styles       map[string]docxStyle
	out          strings.Builder
	limit        int
	truncated    bool
	title        string // first paragraph in the Title style
	firstHeading string

	para   strings.Builder
	inPara bool
	style  string
	level  int // from an explicit outlineLvl on the paragraph
	list   bool
	inText bool
	inTabs bool
	inList bool // the last paragraph written was a list item
	skip   int  // depth inside an element whose text is not content

	tables []*docxTable
}

type docxTable struct {
	row  []string
	cell strings.Builder
}

func (w *docxWriter) read(ctx context.Context, r io.Reader) error {
	dec := xml.NewDecoder(r)
	for n := 0; ; n++ {
		if n%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			w.start(t)
		case xml.EndElement:
			w.end(t.Name.Local)
		case xml.CharData:
			if w.inText && w.skip == 0 && w.inPara {
				w.para.Write(t)
			}
		}
		if w.out.Len() >= w.limit {
			w.truncated = true
			// The rest of the stream is not read, so its CRC cannot be checked; that is fine
			// for a deliberate cut.
			return nil
		}
	}
	return nil
}

func (w *docxWriter) start(t xml.StartElement) {
	if w.skip > 0 {
		w.skip++
		return
	}
	switch t.Name.Local {
	case "Fallback": // mc:Fallback repeats the mc:Choice content (text boxes, shapes)
		w.skip = 1
	case "p":
		w.inPara, w.style, w.level, w.list = true, "", 0, false
		w.para.Reset()
	case "pStyle":
		w.style = attrVal(t, "val")
	case "outlineLvl":
		if n, err := strconv.Atoi(attrVal(t, "val")); err == nil && n >= 0 && n < 6 {
			w.level = n + 1
		}
	case "numPr":
		w.list = true
	case "t":
		w.inText = true
	case "tabs": // tab stop definitions in the paragraph properties, not tab characters
		w.inTabs = true
	case "tab", "ptab":
		if w.inPara && !w.inTabs {
			w.para.WriteByte(' ')
		}
	case "br", "cr":
		if w.inPara {
			w.para.WriteByte('\n')
		}
	case "noBreakHyphen":
		if w.inPara {
			w.para.WriteByte('-')
		}
	case "tbl":
		w.tables = append(w.tables, &docxTable{})
		w.inList = false
	case "tr":
		if tb := w.table(); tb != nil {
			tb.row = tb.row[:0]
		}
	case "tc":
		if tb := w.table(); tb != nil {
			tb.cell.Reset()
		}
	}
}

func (w *docxWriter) end(local string) {
	if w.skip > 0 {
		w.skip--
		return
	}
	switch local {
	case "t":
		w.inText = false
	case "tabs":
		w.inTabs = false
	case "p":
		w.endParagraph()
	case "tc":
		if tb := w.table(); tb != nil {
			tb.row = append(tb.row, strings.TrimSpace(tb.cell.String()))
		}
	case "tr":
		tb := w.table()
		if tb == nil || strings.Join(tb.row, "") == "" {
			return
		}
		line := strings.Join(tb.row, " | ")
		if len(w.tables) > 1 { // a nested table lives inside the outer table's cell
			outer := w.tables[len(w.tables)-2]
			if outer.cell.Len() > 0 {
				outer.cell.WriteString("; ")
			}
			outer.cell.WriteString(line)
			return
		}
		w.newLine()
		w.out.WriteString(line + "\n")
	case "tbl":
		if len(w.tables) > 0 {
			w.tables = w.tables[:len(w.tables)-1]
		}
		if len(w.tables) == 0 {
			w.blankLine()
		}
	}
}

func (w *docxWriter) table() *docxTable {
	if len(w.tables) == 0 {
		return nil
	}
	return w.tables[len(w.tables)-1]
}

func (w *docxWriter) endParagraph() {
	w.inPara = false
	text := strings.TrimSpace(w.para.String())
	w.para.Reset()
	if text == "" {
		return
	}
	if tb := w.table(); tb != nil {
		if tb.cell.Len() > 0 {
			tb.cell.WriteByte(' ')
		}
		tb.cell.WriteString(collapseSpace(text))
		return
	}
	st := w.styles[w.style]
	level := st.level
	if level == 0 && w.styles == nil {
		level = builtinHeadingLevel(w.style) // no styles part: trust Word's English IDs
	}
	if w.level > 0 {
		level = w.level
	}
	switch {
	case w.list && level == 0:
		if w.inList {
			w.newLine()
		} else {
			w.blankLine() // a list is its own block, apart from the paragraph before it
		}
		w.out.WriteString("- " + strings.ReplaceAll(text, "\n", "\n  ") + "\n")
	case level > 0:
		t := collapseSpace(text)
		if (st.title || strings.EqualFold(w.style, "Title")) && w.title == "" {
			w.title = t
		} else if w.firstHeading == "" {
			w.firstHeading = t
		}
		w.blankLine()
		w.out.WriteString(strings.Repeat("#", level) + " " + t + "\n\n")
	default:
		w.blankLine()
		w.out.WriteString(text + "\n")
	}
	w.inList = w.list && level == 0
}

func builtinHeadingLevel(styleID string) int {
	if strings.EqualFold(styleID, "Title") {
		return 1
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(styleID, "Heading")); err == nil && strings.HasPrefix(styleID, "Heading") && n >= 1 {
		return min(n, 6)
	}
	return 0
}

func (w *docxWriter) newLine() {
	if s := w.out.String(); s != "" && !strings.HasSuffix(s, "\n") {
		w.out.WriteByte('\n')
	}
}

func (w *docxWriter) blankLine() { endBlock(&w.out) }

func attrVal(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}
