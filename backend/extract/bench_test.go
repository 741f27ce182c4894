package extract

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// markdown5KB is a note of about 5 KB: front matter, headings, lists, a code block, prose.
func markdown5KB() []byte {
	var b strings.Builder
	b.WriteString("---\ntitle: Weekly notes\ntags: [work, planning]\ndate: 2025-03-03\n---\n# Weekly notes\n\n")
	for i := 0; b.Len() < 5000; i++ {
		fmt.Fprintf(&b, "## Topic %d\n\nWe discussed the invoice from Example Corp (INV-%04d) for 1,200.00 EUR and agreed to pay it by Friday.\n", i, i)
		b.WriteString("- follow up with ana@example.com\n- check https://example.com/report\n\n```go\nfmt.Println(\"hi\")\n```\n\n")
	}
	return []byte(b.String())
}

// BenchmarkReadMarkdown5KB measures Read plus chunking on a 5 KB note, the unit of the
// "300 files/s" target for phases 1+2.
func BenchmarkReadMarkdown5KB(b *testing.B) {
	data := markdown5KB()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		doc, err := Read(context.Background(), data, "notes.md", Limits{})
		if err != nil {
			b.Fatal(err)
		}
		ChunkDocument(doc, ChunkOptions{})
	}
}

func BenchmarkReadPDF(b *testing.B) {
	data := fixture(b, "sample.pdf")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(context.Background(), data, "sample.pdf", Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadHTMLBook reads a whole book on one page (the Rust book's print.html, 1.9 MB,
// from the quality corpus): the largest file of the mixed folder BenchmarkIngestRatio loads.
func BenchmarkReadHTMLBook(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "search", "quality", "testdata", "corpus", "rust-book", "print.html"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(context.Background(), data, "print.html", Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
