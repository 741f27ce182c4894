package search

import "testing"

// TestSnippetLine: the line of a snippet's first highlighted word is found in its chunk's text
// across what the snippet normalised (line breaks, a man page's <…> around an address, a code
// block left out between words), and a snippet of words the text does not hold is not placed.
func TestSnippetLine(t *testing.T) {
	text := "BUGS\n       E-mail bug reports to bug-sed@gnu.org.\n\n       GNU sed home page: <https://www.gnu.org/software/sed/>.  General help using GNU\n       software: <https://www.gnu.org/gethelp/>.\n"
	for _, tc := range []struct {
		query string
		line  int
		ok    bool
	}{
		{"software", 3, true}, // the first "software" is inside the address on line 3
		{"help", 3, true},     // after the address's brackets
		{"reports", 1, true},
		{"gethelp", 4, true},
	} {
		snip, spans, _ := snippet(text, tc.query, 32)
		got, _, ok := snippetAt(text, snip, spans)
		if ok != tc.ok || got != tc.line {
			t.Errorf("%q: line %d %v, want %d %v (snippet %q %v)", tc.query, got, ok, tc.line, tc.ok, snip, spans)
		}
	}
	// A code block between the words: fewer words are matched, still on the right line.
	code := "Intro line.\n\n```\nlet x = 5;\n```\n\nThe borrow checker compares scopes.\n"
	snip, spans, _ := snippet(code, "borrow checker", 32)
	if got, _, ok := snippetAt(code, snip, spans); !ok || got != 6 {
		t.Errorf("borrow checker: line %d %v (snippet %q)", got, ok, snip)
	}
	if _, _, ok := snippetAt("other words entirely", "…the heron colony…", []Span{{4, 9}}); ok {
		t.Error("a snippet of words the text does not hold was placed")
	}
	if _, _, ok := snippetAt(text, "no highlight", nil); ok {
		t.Error("a snippet without a highlight was placed")
	}
}
