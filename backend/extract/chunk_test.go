package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func checkSpans(t *testing.T, text string, spans []Span) {
	t.Helper()
	prevEnd := 0
	for i, s := range spans {
		if text[s.ByteStart:s.ByteEnd] != s.Text {
			t.Fatalf("span %d: offsets %d–%d do not hold its text", i, s.ByteStart, s.ByteEnd)
		}
		if s.ByteStart < prevEnd {
			t.Fatalf("span %d overlaps the previous one", i)
		}
		prevEnd = s.ByteEnd
		if got := strings.Count(text[:s.ByteStart], "\n") + 1; got != s.LineStart {
			t.Fatalf("span %d: line_start %d, want %d", i, s.LineStart, got)
		}
		if got := strings.Count(text[:s.ByteEnd], "\n") + 1; got != s.LineEnd {
			t.Fatalf("span %d: line_end %d, want %d", i, s.LineEnd, got)
		}
		if !utf8.ValidString(s.Text) {
			t.Fatalf("span %d cut a character", i)
		}
	}
}

func TestChunkFollowsHeadings(t *testing.T) {
	text := "intro line\n\n# Setup\n\nInstall it.\n\n## Linux\n\napt-get install strata\n\n```\n# not a heading\n```\n\n# Usage\nRun it.\n"
	spans := Chunk(text, ChunkOptions{})
	checkSpans(t, text, spans)
	var headings []string
	for _, s := range spans {
		headings = append(headings, s.Heading)
	}
	want := []string{"", "Setup", "Setup > Linux", "Usage"}
	if strings.Join(headings, "|") != strings.Join(want, "|") {
		t.Fatalf("headings %q, want %q", headings, want)
	}
	if !strings.Contains(spans[2].Text, "# not a heading") {
		t.Fatal("a # line inside a code fence started a chunk")
	}
}

func TestChunkSizes(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString("Paragraph with several words about invoices and contracts and receipts.\n")
		if i%5 == 4 {
			b.WriteString("\n")
		}
	}
	b.WriteString(strings.Repeat("é long line without breaks ", 400) + "\n")
	text := b.String()
	spans := Chunk(text, ChunkOptions{Target: 1000})
	checkSpans(t, text, spans)
	for i, s := range spans {
		if len(s.Text) > 2000 {
			t.Fatalf("span %d is %d bytes", i, len(s.Text))
		}
	}
	if len(spans) < 10 {
		t.Fatalf("only %d spans for %d bytes", len(spans), len(text))
	}
}

func TestChunkEdgeCases(t *testing.T) {
	for _, text := range []string{"", "\n\n\n", "one", "a\r\nb\r\n", "# only heading", "####### not a heading"} {
		checkSpans(t, text, Chunk(text, ChunkOptions{}))
	}
	if got := Chunk("\n\n", ChunkOptions{}); len(got) != 0 {
		t.Fatalf("blank text gave %d spans", len(got))
	}
}
