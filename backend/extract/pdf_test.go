package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/errs"
)

// TestPDFWordSpacing reads a real PDF (groff → Ghostscript, which justifies lines with word
// spacing and kerns with negative word spacing) and checks that words come out separated and
// whole, where the library's GetPlainText glues them ("ThismanualisforGNU").
func TestPDFWordSpacing(t *testing.T) {
	doc := readFixture(t, "sample.pdf")
	if doc.Kind != "pdf" || doc.Mime != "application/pdf" {
		t.Fatalf("kind %q mime %q", doc.Kind, doc.Mime)
	}
	contains(t, doc.Text,
		"This guide is for the people who keep their notes, invoices and manuals in one folder.",
		"The quick brown fox jumps over the lazy dog.",
		"Keyword search ranks documents with BM25; vector search compares meanings.",
		"each file in that folder", // the "fi" ligature is spelled out
		"Invoice number 2025-0042 was sent to accounts@example.com with the contract attached.",
	)
	lacks(t, doc.Text, "Thisguide", "in voices", "Ke yword", "\uFB01")
	if n := strings.Count(doc.Text, "the "); n < 8 {
		t.Errorf("only %d \"the \" in the text", n)
	}
	if doc.Meta["producer"] == nil || doc.Meta["pages"] != 2 {
		t.Errorf("meta %v", doc.Meta)
	}
}

func TestPDFPages(t *testing.T) {
	doc := readFixture(t, "sample.pdf")
	if len(doc.Pages) != 2 || doc.Pages[0].Page != 1 || doc.Pages[1].Page != 2 {
		t.Fatalf("pages %+v", doc.Pages)
	}
	p1 := doc.Text[doc.Pages[0].ByteStart:doc.Pages[0].ByteEnd]
	p2 := doc.Text[doc.Pages[1].ByteStart:doc.Pages[1].ByteEnd]
	if !strings.Contains(p1, "Getting started") || strings.Contains(p1, "Second page") || !strings.Contains(p2, "Second page") {
		t.Fatalf("page texts:\n%s\n----\n%s", p1, p2)
	}
	if doc.Text[doc.Pages[0].ByteEnd:doc.Pages[1].ByteStart] != "\n\n" {
		t.Fatal("pages are not separated by a blank line")
	}
	spans := ChunkDocument(doc, ChunkOptions{Target: 200})
	checkSpans(t, doc.Text, spans)
	seen := map[int]bool{}
	for _, s := range spans {
		seen[s.Page] = true
		inPage := doc.Text[doc.Pages[s.Page-1].ByteStart:doc.Pages[s.Page-1].ByteEnd]
		if !strings.Contains(inPage, s.Text) {
			t.Fatalf("span %q is not on its page %d", s.Text, s.Page)
		}
	}
	if !seen[1] || !seen[2] || seen[0] {
		t.Fatalf("pages cited: %v", seen)
	}
}

// TestPDFSystemDocs reads PDFs shipped under /usr/share/doc when the machine has them (pdfTeX
// manuals); they are not committed, so the test skips elsewhere.
func TestPDFSystemDocs(t *testing.T) {
	paths, _ := filepath.Glob("/usr/share/doc/*/*.pdf")
	if len(paths) == 0 {
		t.Skip("no PDFs under /usr/share/doc")
	}
	for _, p := range paths[:min(len(paths), 5)] {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		doc, err := Read(context.Background(), data, p, Limits{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		words := strings.Fields(doc.Text)
		long := 0
		for _, w := range words {
			if len(w) > 30 && !strings.ContainsAny(w, "/_.:-") {
				long++ // glued words look like "ThismanualisforGNULibtasn1"
			}
		}
		if len(words) < 100 || long*100 > len(words) {
			t.Errorf("%s: %d words, %d suspiciously long", p, len(words), long)
		}
		if n := strings.Count(doc.Text, " the "); n < 10 {
			t.Errorf("%s: only %d \" the \"", p, n)
		}
		t.Logf("%s: %d pages, %d words; %q", filepath.Base(p), len(doc.Pages), len(words), firstLongLine(doc.Text))
	}
}

func firstLongLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if len(l) > 60 {
			return l
		}
	}
	return ""
}

func TestPDFHeaderVariants(t *testing.T) {
	data := fixture(t, "sample.pdf")
	// PDF 2.0 headers and a comment on the header line are rejected by the library's strict
	// check; the overlay lets them through.
	for _, head := range []string{"%PDF-2.0", "%PDF-1.4%"} {
		b := append([]byte(nil), data...)
		copy(b, head+"\n")
		if head == "%PDF-1.4%" {
			copy(b, head)
		}
		doc, err := Read(context.Background(), b, "x.pdf", Limits{})
		if err != nil {
			t.Fatalf("%s: %v", head, err)
		}
		contains(t, doc.Text, "quick brown fox")
	}
}

func TestLayoutPage(t *testing.T) {
	g := func(s string, x, y, w float64, run int) glyph {
		return glyph{x: x, y: y, w: w, fs: 10, s: s, run: run}
	}
	// Drawn out of order, with a superscript, a kerned pair and a simulated-bold duplicate.
	gs := []glyph{
		g("w", 30, 700, 7, 2), g("o", 37, 700, 5, 2), g("r", 42, 700, 3, 2), g("l", 45, 700, 3, 2), g("d", 48, 700, 5, 2),
		g("H", 0, 700, 7, 1), g("H", 0.3, 700, 7, 1), g("i", 7, 700, 3, 1), g("1", 10.2, 703, 4, 1),
		g("n", 0, 686, 5, 3), g("e", 4.9, 686, 4, 3), g("x", 9, 686, 5, 3), g("t", 14, 686, 3, 3),
		g("p", 0, 650, 5, 4), g("a", 5, 650, 4, 4), g("r", 9, 650, 3, 4), g("a", 12, 650, 4, 4),
	}
	for i := range gs {
		gs[i].i = i
	}
	got := layoutPage(gs, nil)
	if want := "Hi1 world\nnext\n\npara"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Unknown widths: drawing order, explicit spaces.
	gs = []glyph{g("a", 0, 700, 0, 1), g("b", 0, 700, 0, 1), g(" ", 0, 700, 0, 1), g("c", 0, 700, 0, 1)}
	for i := range gs {
		gs[i].i = i
	}
	if got := layoutPage(gs, nil); got != "ab c" {
		t.Fatalf("no widths: %q", got)
	}
	if got := collapseLeaders("Introduction : : : : : : : : 12"); got != "Introduction … 12" {
		t.Fatalf("leaders: %q", got)
	}
}

// tinyPDF builds a one-object PDF whose xref table is the given text, ending with a trailer
// dictionary body; "OFF" in either is replaced by the table's offset.
func tinyPDF(xref, trailer string) []byte {
	body := "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"
	off := strconv.Itoa(len(body))
	return []byte(body + "xref\n" + xref + "trailer\n<< " + strings.ReplaceAll(trailer, "OFF", off) + " >>\nstartxref\n" + off + "\n%%EOF\n")
}

// TestPDFPrecheck covers files that would take the whole process down inside the library,
// where recover() cannot help: an object number in the hundreds of millions makes it allocate
// gigabytes (fatal out-of-memory, checked by hand), and a /Prev loop never ends.
func TestPDFPrecheck(t *testing.T) {
	entries := "0 2\n0000000000 65535 f \n0000000009 00000 n \n"
	cases := map[string][]byte{
		"huge object number": tinyPDF(entries+"200000000 1\n0000000009 00000 n \n", "/Size 2 /Root 1 0 R"),
		"prev loop":          tinyPDF(entries, "/Size 2 /Root 1 0 R /Prev OFF"),
		"huge xref stream": []byte("%PDF-1.5\n1 0 obj\n<< /Type /XRef /Size 900000000 /W [1 2 1] /Length 0 >>\nstream\n\nendstream\nendobj\n" +
			"startxref\n9\n%%EOF\n"),
	}
	for name, data := range cases {
		_, err := Read(context.Background(), data, "x.pdf", Limits{})
		if e := wantCode(t, err, errs.AnalysisFailed); e.Details["reason"] != "damaged" {
			t.Errorf("%s: reason %v (%v)", name, e.Details["reason"], e)
		}
	}
	// A well-formed table passes the check (the library then finds no pages; that is fine).
	if err := pdfPrecheck(tinyPDF(entries, "/Size 2 /Root 1 0 R")); err != nil {
		t.Fatal(err)
	}
	if err := pdfPrecheck(fixture(t, "sample.pdf")); err != nil {
		t.Fatal(err)
	}
}

// TestPDFOwnerPasswordOnly reads a PDF encrypted with an owner password only (AES-128, empty
// user password): the common "protected from editing" PDF opens without asking anyone.
func TestPDFOwnerPasswordOnly(t *testing.T) {
	doc := readFixture(t, "owner-only.pdf")
	contains(t, doc.Text, "The quick brown fox jumps over the lazy dog.")
}

func TestPDFMaxTextBytes(t *testing.T) {
	doc, err := Read(context.Background(), fixture(t, "sample.pdf"), "sample.pdf", Limits{MaxTextBytes: 300})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Text) > 300 || doc.Meta["truncated"] != true || len(doc.Pages) != 1 {
		t.Fatalf("%d bytes, %d pages, truncated=%v", len(doc.Text), len(doc.Pages), doc.Meta["truncated"])
	}
}

func TestPDFBadInputs(t *testing.T) {
	for _, c := range []struct{ file, name, reason string }{
		{"truncated.pdf", "truncated.pdf", "truncated"},
		{"encrypted.pdf", "encrypted.pdf", "encrypted"},
		{"junk.bin", "junk.pdf", "not_pdf"},       // unknown bytes named .pdf
		{"plain.txt", "plain.pdf", "not_pdf"},     // text named .pdf
		{"sample.pdf", "sample.pdf", "truncated"}, // cut below, keeping the header
	} {
		data := fixture(t, c.file)
		if c.file == "sample.pdf" {
			data = data[:len(data)-200]
		}
		_, err := Read(context.Background(), data, c.name, Limits{})
		e := wantCode(t, err, errs.AnalysisFailed)
		if e.Details["reason"] != c.reason {
			t.Errorf("%s as %s: reason %v, want %s (%v)", c.file, c.name, e.Details["reason"], c.reason, e)
		}
		t.Logf("%s as %s: %s (hint: %s)", c.file, c.name, e.Message, e.Hint)
	}
	_, err := Read(context.Background(), fixture(t, "encrypted.pdf"), "encrypted.pdf", Limits{})
	if e := wantCode(t, err, errs.AnalysisFailed); !strings.Contains(e.Hint, "password") {
		t.Errorf("encrypted PDF hint %q", e.Hint)
	}
	// A PNG named .pdf is a PNG: unsupported, not a broken PDF.
	_, err = Read(context.Background(), fixture(t, "image.png"), "image.pdf", Limits{})
	wantCode(t, err, errs.UnsupportedFileType)
}

func TestPDFSniff(t *testing.T) {
	data := fixture(t, "sample.pdf")
	for _, name := range []string{"sample.pdf", "scan.txt", "noext"} { // content beats the name
		if kind, mime := Sniff(data[:sniffLen], name); kind != "pdf" || mime != "application/pdf" {
			t.Errorf("%s: %q %q", name, kind, mime)
		}
	}
	if kind, _ := Sniff(fixture(t, "junk.bin"), "junk.pdf"); kind != "pdf" {
		t.Errorf("unknown bytes named .pdf sniffed as %q, want pdf (reported as damaged)", kind)
	}
}

func TestPDFCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, fixture(t, "sample.pdf"), "sample.pdf", Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v, want context.Canceled", err)
	}
}
