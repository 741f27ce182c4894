package extract

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"flag"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/errs"
)

var update = flag.Bool("update", false, "rewrite generated fixtures in testdata")

// buildZip writes files (in name order) into a zip. zip.Writer.Create leaves times zero, so
// the output is byte-for-byte reproducible.
func buildZip(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range sortedKeysOf(files) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(files[name])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sortedKeysOf(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ { // small maps: insertion sort keeps this helper dependency-free
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

const wNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`

func para(style, text string) string {
	ppr := ""
	if style != "" {
		ppr = `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
	}
	return `<w:p>` + ppr + `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
}

func cell(text string) string { return `<w:tc><w:tcPr/>` + para("", text) + `</w:tc>` }

// sampleDOCXParts is a small but realistic Word document: core properties, a styles part
// with English and localised heading styles, and a body with the constructs the reader handles.
func sampleDOCXParts() map[string]string {
	body := para("Title", "Quarterly Report") +
		para("Heading1", "Summary") +
		`<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>` +
		`<w:r><w:t>Reve</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>nue grew by 12%</w:t></w:r>` +
		`<w:r><w:tab/><w:t>in Q1.</w:t></w:r>` +
		`<w:del><w:r><w:delText>deleted words</w:delText></w:r></w:del>` +
		`<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK "x" </w:instrText></w:r>` +
		`<w:r><w:br/><w:t>Second line of the paragraph.</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>First item</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>Second item</w:t></w:r></w:p>` +
		para("berschrift2", "Numbers") +
		`<w:tbl><w:tblPr/>` +
		`<w:tr>` + cell("Region") + cell("Revenue") + `</w:tr>` +
		`<w:tr>` + cell("Europe") + cell("1.2 M€") + `</w:tr>` +
		`<w:tr>` + cell("Americas") + `<w:tc>` + para("", "0.8 M€") + para("", "(estimate)") + `</w:tc></w:tr>` +
		`</w:tbl>` +
		`<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>` + para("", "Text box note") +
		`</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>` + para("", "Text box note") +
		`</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>` +
		para("Heading3", "Outlook") +
		para("", "We expect growth to continue &amp; accelerate.")
	return map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
			`</Types>`,
		"_rels/.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
			`</Relationships>`,
		"docProps/core.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">` +
			`<dc:title>Q1 Report 2025</dc:title><dc:creator>Ana Example</dc:creator>` +
			`<dcterms:created>2025-04-01T09:00:00Z</dcterms:created></cp:coreProperties>`,
		"word/styles.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ` + wNS + `>` +
			`<w:style w:type="paragraph" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
			`<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>` +
			`<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>` +
			`<w:style w:type="paragraph" w:styleId="berschrift2"><w:name w:val="heading 2"/></w:style>` +
			`<w:style w:type="paragraph" w:styleId="MyHeading"><w:name w:val="My heading"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>` +
			`<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="Custom third"/><w:basedOn w:val="MyHeading"/></w:style>` +
			`<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/></w:style>` +
			`</w:styles>`,
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ` + wNS + `><w:body>` + body +
			`<w:sectPr/></w:body></w:document>`,
	}
}

// TestSampleDOCXFixture keeps testdata/sample.docx equal to what the generator writes.
func TestSampleDOCXFixture(t *testing.T) {
	want := buildZip(t, sampleDOCXParts())
	path := filepath.Join("testdata", "sample.docx")
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("testdata/sample.docx is stale (%v); run go test -run TestSampleDOCXFixture -update", err)
	}
}

func TestReadDOCX(t *testing.T) {
	doc := readFixture(t, "sample.docx")
	if doc.Kind != "docx" || doc.Mime != docxMime {
		t.Fatalf("kind %q mime %q", doc.Kind, doc.Mime)
	}
	if doc.Title != "Q1 Report 2025" || doc.Meta["author"] != "Ana Example" || doc.Meta["created"] != "2025-04-01T09:00:00Z" {
		t.Errorf("title %q meta %v", doc.Title, doc.Meta)
	}
	want := "# Quarterly Report\n\n" +
		"# Summary\n\n" +
		"Revenue grew by 12% in Q1.\nSecond line of the paragraph.\n\n" +
		"- First item\n- Second item\n\n" +
		"## Numbers\n\n" +
		"Region | Revenue\nEurope | 1.2 M€\nAmericas | 0.8 M€ (estimate)\n\n" +
		"Text box note\n\n" +
		"### Outlook\n\n" +
		"We expect growth to continue & accelerate.\n"
	if doc.Text != want {
		t.Fatalf("got\n%s\nwant\n%s", doc.Text, want)
	}
	var headings []string
	for _, s := range ChunkDocument(doc, ChunkOptions{Target: 20}) {
		headings = append(headings, s.Heading)
	}
	contains(t, strings.Join(headings, "|"), "Summary > Numbers > Outlook")
}

func TestDOCXTitleFallbacks(t *testing.T) {
	parts := sampleDOCXParts()
	delete(parts, "docProps/core.xml")
	delete(parts, "word/styles.xml") // no styles part: English style IDs still make headings
	doc, err := Read(context.Background(), buildZip(t, parts), "r.docx", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "Quarterly Report" {
		t.Errorf("title %q, want the Title-style paragraph", doc.Title)
	}
	contains(t, doc.Text, "# Summary\n", "### Outlook\n")
	// The main part is found through the package relationships.
	parts = sampleDOCXParts()
	parts["word/main.xml"] = parts["word/document.xml"]
	delete(parts, "word/document.xml")
	parts["_rels/.rels"] = strings.Replace(parts["_rels/.rels"], "word/document.xml", "/word/main.xml", 1)
	doc, err = Read(context.Background(), buildZip(t, parts), "r.docx", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, doc.Text, "Revenue grew")
}

func TestDOCXBadInputs(t *testing.T) {
	_, err := Read(context.Background(), fixture(t, "notzip.docx"), "notzip.docx", Limits{})
	if e := wantCode(t, err, errs.AnalysisFailed); e.Details["reason"] != "not_zip" {
		t.Errorf("reason %v", e.Details["reason"])
	}
	// A zip without a Word document part.
	_, err = Read(context.Background(), buildZip(t, map[string]string{"a.txt": "x"}), "a.docx", Limits{})
	wantCode(t, err, errs.AnalysisFailed)
	// Broken XML.
	parts := sampleDOCXParts()
	parts["word/document.xml"] = `<w:document ` + wNS + `><w:body><w:p><w:t>cut`
	_, err = Read(context.Background(), buildZip(t, parts), "a.docx", Limits{})
	wantCode(t, err, errs.AnalysisFailed)
	// A zip cut short.
	full := fixture(t, "sample.docx")
	_, err = Read(context.Background(), full[:len(full)/2], "a.docx", Limits{})
	wantCode(t, err, errs.AnalysisFailed)
	// Word's password-protected DOCX is an OLE container.
	ole := append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 504)...)
	_, err = Read(context.Background(), ole, "secret.docx", Limits{})
	if e := wantCode(t, err, errs.AnalysisFailed); e.Details["reason"] != "encrypted" {
		t.Errorf("OLE reason %v", e.Details["reason"])
	}
}

// zipBomb returns a DOCX whose document.xml inflates to size bytes. With honest headers the
// declared size gives it away; with lying headers only counting the inflated bytes does.
func zipBomb(t *testing.T, size int, lie bool) []byte {
	t.Helper()
	var raw bytes.Buffer
	fw, _ := flate.NewWriter(&raw, flate.BestCompression)
	crc := crc32.NewIEEE()
	chunk := make([]byte, 1<<16)
	for i := range chunk {
		chunk[i] = ' '
	}
	head := []byte(`<w:document ` + wNS + `><w:body><w:p><w:r><w:t>`)
	fw.Write(head)
	crc.Write(head)
	for n := len(head); n < size; n += len(chunk) {
		fw.Write(chunk)
		crc.Write(chunk)
	}
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	hdr := &zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate, CRC32: crc.Sum32(),
		CompressedSize64: uint64(raw.Len()), UncompressedSize64: uint64(size)}
	if lie {
		hdr.UncompressedSize64 = 1000
	}
	w, err := zw.CreateRaw(hdr)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(raw.Bytes())
	zw.Close()
	return buf.Bytes()
}

func TestDOCXZipBomb(t *testing.T) {
	lim := Limits{MaxUncompressed: 1 << 20}
	for _, lie := range []bool{false, true} {
		bomb := zipBomb(t, 8<<20, lie)
		if len(bomb) > 64<<10 {
			t.Fatalf("bomb is %d bytes compressed", len(bomb))
		}
		_, err := Read(context.Background(), bomb, "bomb.docx", lim)
		wantCode(t, err, errs.FileTooLarge)
	}
}

func TestDOCXSniff(t *testing.T) {
	data := fixture(t, "sample.docx")
	if kind, mime := Sniff(data, "report"); kind != "docx" || mime != docxMime { // a Word zip without its extension
		t.Errorf("sample.docx as report: %q %q", kind, mime)
	}
	if kind, _ := Sniff(fixture(t, "notzip.docx"), "notzip.docx"); kind != "docx" {
		t.Errorf("text named .docx sniffed as %q, want docx (reported as damaged)", kind)
	}
	// A zip that is not a Word document is an archive, which Strata does not read.
	if kind, _ := Sniff(buildZip(t, map[string]string{"a.txt": "hi"}), "a.zip"); kind != "" {
		t.Errorf("zip archive sniffed as %q", kind)
	}
}

func TestDOCXCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, fixture(t, "sample.docx"), "sample.docx", Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v, want context.Canceled", err)
	}
}
