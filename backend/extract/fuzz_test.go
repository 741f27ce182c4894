package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/errs"
)

// fuzzNames are the file names FuzzRead tries for every input, one per reader.
var fuzzNames = []string{"f.txt", "f.md", "f.html", "f.pdf", "f.docx", "f.csv", "f.tsv", "f.json", "f.jsonl", "f.go", "f"}

// FuzzRead feeds arbitrary bytes to every reader: Read must not panic and must return either a
// Document with valid UTF-8 text and in-range pages, or an *errs.Error.
func FuzzRead(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && len(b) < 1<<20 {
			f.Add(b)
		}
	}
	f.Add([]byte("---\ntags: [a, b]\n---\n# T\n"))
	f.Add([]byte("<html><title>t</title><table><tr><td>a<td>b</table>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxUncompressed: 4 << 20, MaxTextBytes: 1 << 20}
		for _, name := range fuzzNames {
			doc, err := Read(context.Background(), data, name, lim)
			if err != nil {
				var e *errs.Error
				if !errors.As(err, &e) || e.Code == "" || e.Hint == "" {
					t.Fatalf("%s: error without code and hint: %v", name, err)
				}
				continue
			}
			if !utf8.ValidString(doc.Text) {
				t.Fatalf("%s: invalid UTF-8 text", name)
			}
			prev := 0
			for _, p := range doc.Pages {
				if p.ByteStart < prev || p.ByteEnd < p.ByteStart || p.ByteEnd > len(doc.Text) {
					t.Fatalf("%s: page span %+v out of order or range", name, p)
				}
				prev = p.ByteEnd
			}
			spans := ChunkDocument(doc, ChunkOptions{Target: 256})
			if doc.Source == nil {
				checkSpansLinear(t, doc.Text, spans)
			} else {
				checkSpansSource(t, doc, spans)
			}
		}
	})
}

// FuzzChunk checks the chunker's invariants on arbitrary text: each span's Text is exactly
// text[ByteStart:ByteEnd], spans are valid UTF-8, in order, non-overlapping, with correct lines.
func FuzzChunk(f *testing.F) {
	f.Add("# A\n\npara\n\n## B\n```\n# no\n```\n", 16)
	f.Add(strings.Repeat("é long line ", 300), 50)
	f.Add("a\r\nb\r\n\r\n# c", 1)
	f.Add(string(fixture(f, "note.md")), 40)
	f.Fuzz(func(t *testing.T, text string, target int) {
		if !utf8.ValidString(text) {
			text = strings.ToValidUTF8(text, "\uFFFD") // readers only ever produce UTF-8
		}
		spans := Chunk(text, ChunkOptions{Target: target % 5000})
		checkSpansLinear(t, text, spans)
	})
}

// checkSpansLinear asserts what checkSpans does (text at its offsets, in order, no overlap,
// correct line numbers, valid UTF-8) in linear time, so fuzzing large inputs stays fast.
func checkSpansLinear(t *testing.T, text string, spans []Span) {
	t.Helper()
	lineAtByte := make([]int32, len(text)+1) // 1-based line of each offset
	line := int32(1)
	for i := 0; i < len(text); i++ {
		lineAtByte[i] = line
		if text[i] == '\n' {
			line++
		}
	}
	lineAtByte[len(text)] = line
	prevEnd := 0
	for i, s := range spans {
		if s.ByteStart < prevEnd || s.ByteEnd < s.ByteStart || s.ByteEnd > len(text) {
			t.Fatalf("span %d: range %d–%d overlaps or is out of range", i, s.ByteStart, s.ByteEnd)
		}
		if text[s.ByteStart:s.ByteEnd] != s.Text {
			t.Fatalf("span %d: offsets do not hold its text", i)
		}
		if !utf8.ValidString(s.Text) {
			t.Fatalf("span %d cut a character", i)
		}
		if int(lineAtByte[s.ByteStart]) != s.LineStart || int(lineAtByte[s.ByteEnd]) != s.LineEnd {
			t.Fatalf("span %d: lines %d–%d, want %d–%d", i, s.LineStart, s.LineEnd, lineAtByte[s.ByteStart], lineAtByte[s.ByteEnd])
		}
		prevEnd = s.ByteEnd
	}
}

// checkSpansSource checks spans of a document whose Text is not the file's: Text offsets hold
// the text in order, and the cited file offsets and lines are in range and ordered.
func checkSpansSource(t *testing.T, doc *Document, spans []Span) {
	t.Helper()
	prevText, prevLine := 0, 1
	for i, s := range spans {
		if s.TextStart < prevText || s.TextEnd < s.TextStart || s.TextEnd > len(doc.Text) || doc.Text[s.TextStart:s.TextEnd] != s.Text {
			t.Fatalf("span %d: text range %d–%d does not hold its text", i, s.TextStart, s.TextEnd)
		}
		if s.ByteStart < 0 || s.ByteEnd < s.ByteStart || s.LineStart < 1 || s.LineEnd < s.LineStart {
			t.Fatalf("span %d: file range %d–%d, lines %d–%d", i, s.ByteStart, s.ByteEnd, s.LineStart, s.LineEnd)
		}
		if s.LineStart < prevLine {
			t.Fatalf("span %d starts at line %d, before the last one's %d", i, s.LineStart, prevLine)
		}
		if len(s.Lines) != strings.Count(s.Text, "\n")+1 {
			t.Fatalf("span %d: %d line numbers for its lines", i, len(s.Lines))
		}
		prevText, prevLine = s.TextEnd, s.LineStart
	}
}
