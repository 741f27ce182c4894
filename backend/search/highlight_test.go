package search

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// marked renders spans the way a client does, slicing the snippet in UTF-16 code units, and
// returns the snippet with each span in [brackets] and the highlighted words.
func marked(t *testing.T, snippet string, spans []Span) (string, []string) {
	t.Helper()
	u := utf16.Encode([]rune(snippet))
	var b strings.Builder
	var words []string
	pos := 0
	for _, s := range spans {
		if s.Start < pos || s.End <= s.Start || s.End > len(u) {
			t.Fatalf("span %+v out of order or range in %q (%d code units)", s, snippet, len(u))
		}
		w := string(utf16.Decode(u[s.Start:s.End]))
		b.WriteString(string(utf16.Decode(u[pos:s.Start])) + "[" + w + "]")
		words = append(words, w)
		pos = s.End
	}
	b.WriteString(string(utf16.Decode(u[pos:])))
	return b.String(), words
}

func TestSnippetHighlights(t *testing.T) {
	text := "Preamble. The licenses for most software are designed to take away your freedom to share and change it. By contrast, the GNU General Public License is intended to guarantee your freedom to share and change free software."
	got, spans := Snippet(text, "can I share free softwares?", 12)
	m, words := marked(t, got, spans)
	for _, want := range []string{"[share]", "[free]", "[software]"} {
		if !strings.Contains(m, want) {
			t.Errorf("snippet %q lacks %s", m, want)
		}
	}
	if strings.Contains(m, "[can]") || !strings.HasPrefix(got, "…") || strings.ContainsAny(got, "«»[]") {
		t.Errorf("stop words are not highlighted, a cut start is marked, the text is plain: %q", m)
	}
	if len(words) < 3 {
		t.Errorf("highlights %v", words)
	}
	if s, sp := Snippet("", "x", 5); s != "" || len(sp) != 0 || sp == nil {
		t.Error("empty text: empty snippet, empty (not null) highlights")
	}
	if s, sp := Snippet("a b c", "", 5); s != "a b c" || len(sp) != 0 {
		t.Error("no query: the text, nothing highlighted")
	}
}

// Offsets count UTF-16 code units: an accented letter is one unit (two bytes), an emoji two
// units (four bytes); the highlighted word is still the one a JavaScript slice gets.
func TestSnippetOffsetsAreUTF16(t *testing.T) {
	got, spans := Snippet("Café 🎉 naïve «quoted» résumé and the résumé again", "résumé", 40)
	m, words := marked(t, got, spans)
	if len(words) != 2 || words[0] != "résumé" || words[1] != "résumé" {
		t.Fatalf("highlighted %v in %q", words, m)
	}
	if spans[0].Start != utf16Len("Café 🎉 naïve «quoted» ") {
		t.Errorf("first span starts at %d", spans[0].Start)
	}
	if !strings.Contains(got, "«quoted»") {
		t.Errorf("the text's own guillemets stay text: %q", got)
	}
}

func TestSnippetAdjacentHitsMerge(t *testing.T) {
	got, spans := Snippet("use the read stream here", "read stream", 10)
	if m, w := marked(t, got, spans); len(w) != 2 || m != "use the [read] [stream] here" {
		t.Errorf("%q %v", m, w)
	}
}

func TestProseRemovesMarkup(t *testing.T) {
	in := "## Class: `Certificate`\n" +
		"<!-- YAML\nadded: v0.11.4\n-->\n\n" +
		"<a id=\"x509\"></a>The [certificate object][] is **returned** by [`tls.connect()`](tls.md#connect) and _signed_.\n" +
		"* a *bullet* with snake_case_name and Vec<String> when a < b &amp; c\n" +
		"Python's __init__ runs; 2 * 3 * 4 is 24.\n" +
		"| col | two |\n|-----|:---:|\n| a | b |\n" +
		"```js\nconst cert = new Certificate();\n```\n" +
		"[certificate object]: #certificate-object\n" +
		"[`tls.connect()`]: https://nodejs.org/api/tls.html\n"
	got := strings.Join(strings.Fields(Prose(in)), " ")
	want := "Class: Certificate The certificate object is returned by tls.connect() and signed. a bullet with snake_case_name and Vec<String> when a < b & c Python's __init__ runs; 2 * 3 * 4 is 24. col · two a · b"
	if got != want {
		t.Errorf("prose\n got %q\nwant %q", got, want)
	}
	if got := strings.Join(strings.Fields(Prose("state A --> state B\nthen C")), " "); got != "state A --> state B then C" {
		t.Errorf("an arrow is not a comment's end: %q", got)
	}
	// Code matched only in the block: the code is the snippet.
	if s, _ := Snippet(in, "const", 20); !strings.Contains(s, "const cert = new Certificate();") {
		t.Errorf("code-only match: %q", s)
	}
	// Only markup: no snippet (the result is dropped).
	for _, only := range []string{
		"[a]: http://example.com\n[b]: #anchor\n",
		"<!-- YAML\nadded: v1.0.0\nchanges:\n  - version: v2\n-->\n",
		"added: v1.0.0\n-->\n[x]: #y\n", // a comment opened in the chunk before
	} {
		if s, _ := Snippet(only, "added example anchor", 20); s != "" {
			t.Errorf("markup-only chunk %q gave snippet %q", only, s)
		}
	}
}
