package extract

import (
	"context"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The files under testdata/cite were written by nobody here: chapters of the Rust book
// (mdBook HTML), Node.js API docs (HTML and Markdown), a Debian package's HTML manual, plus
// the package's own Markdown note with front matter and code files.
var citeFiles = []string{
	"ch09-02-recoverable-errors-with-result.html", "ch04-01-what-is-ownership.html", "appendix-02-operators.html",
	"users-and-groups.html", "tty.html", "tty.md", "note.md", "replace.go", "textwrap.py",
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// TestCitationsLandOnSourceLines checks the promise of a citation on real files: for every
// chunk, the file's lines it cites hold the chunk's first and last words (markup removed and
// character references decoded, as a person reading the file sees them), and the chunk's
// per-line numbers never leave that range.
func TestCitationsLandOnSourceLines(t *testing.T) {
	for _, name := range citeFiles {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "cite", name))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Read(context.Background(), data, name, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(data), "\n")
			spans := ChunkDocument(doc, ChunkOptions{})
			if len(spans) < 2 {
				t.Fatalf("%d chunks: the sample should need several", len(spans))
			}
			for i, s := range spans {
				if s.LineStart < 1 || s.LineEnd < s.LineStart || s.LineEnd > len(lines) {
					t.Fatalf("chunk %d cites lines %d–%d of %d", i, s.LineStart, s.LineEnd, len(lines))
				}
				if s.ByteStart < 0 || s.ByteEnd < s.ByteStart || s.ByteEnd > len(data) {
					t.Fatalf("chunk %d cites bytes %d–%d of %d", i, s.ByteStart, s.ByteEnd, len(data))
				}
				cited := strings.Join(lines[s.LineStart-1:s.LineEnd], "\n")
				// Alt text is read from inside a tag, so the raw lines count too.
				seen := html.UnescapeString(tagRE.ReplaceAllString(cited, "") + "\n" + cited)
				words := contentWords(s.Text)
				if len(words) == 0 {
					continue
				}
				for _, w := range []string{words[0], words[len(words)-1]} {
					if !strings.Contains(seen, w) {
						t.Errorf("chunk %d cites lines %d–%d, which do not hold %q\nchunk: %.200q\ncited: %.300q", i, s.LineStart, s.LineEnd, w, s.Text, cited)
					}
				}
				if s.Lines != nil {
					if n := strings.Count(s.Text, "\n") + 1; len(s.Lines) != n {
						t.Fatalf("chunk %d: %d line numbers for %d lines", i, len(s.Lines), n)
					}
					if s.Lines[0] != s.LineStart || s.Lines[len(s.Lines)-1] > s.LineEnd {
						t.Errorf("chunk %d: line numbers %d…%d outside %d–%d", i, s.Lines[0], s.Lines[len(s.Lines)-1], s.LineStart, s.LineEnd)
					}
				}
			}
		})
	}
}

// contentWords are the words of a chunk that come from the file: the markers the reader adds
// (heading '#', list '-', code fences, table " | ") are left out.
func contentWords(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		if strings.Trim(w, "#-`|") != "" {
			out = append(out, w)
		}
	}
	return out
}
