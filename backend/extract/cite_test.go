package extract

import (
	"context"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
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

// mdLinkRE is Markdown link syntax around link text: "[text](url)", "[text][ref]", "[text][]".
var mdLinkRE = regexp.MustCompile(`\]\([^)]*\)|\]\[[^\]]*\]|\[|\]`)

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
				plain := cited
				if doc.Kind == "markdown" {
					plain = mdLinkRE.ReplaceAllString(cited, "")
				}
				seen := html.UnescapeString(tagRE.ReplaceAllString(plain, "") + "\n" + cited)
				seen = strings.NewReplacer("`", "", "*", "", "_", "").Replace(seen) // Markdown emphasis and code marks
				words := contentWords(s.Text)
				if len(words) == 0 {
					continue
				}
				for _, w := range []string{words[0], words[len(words)-1]} {
					w = strings.NewReplacer("`", "", "*", "", "_", "").Replace(w)
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

// TestMarkdownReadsAsProse reads a Node.js API doc: link syntax, reference definitions and
// HTML comments are gone from the text, code stays searchable but is marked as code, and
// headings are ATX lines marked as headings.
func TestMarkdownReadsAsProse(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cite", "tty.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Read(context.Background(), data, "tty.md", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lacks(t, doc.Text, "<!--", "YAML", "][]", "]: ", "[`")
	md := readMarkdown("AT&amp;T and a\\*b, <br> x [link](http://u) and ![alt text](i.png).\n")
	if md.Text != "AT&T and a*b,  x link and alt text.\n" {
		t.Errorf("escapes and references: %q", md.Text)
	}
	contains(t, doc.Text, "attached, process.stdin will, by default, be initialized as an instance of\n",
		"## Class: tty.ReadStream\n", "```\n$ node -p -e \"Boolean(process.stdout.isTTY)\"\n")
	kindAt := func(s string) RegionKind {
		at := strings.Index(doc.Text, s)
		for _, r := range doc.Regions {
			if r.Start <= at && at < r.End {
				return r.Kind
			}
		}
		return ""
	}
	for s, want := range map[string]RegionKind{
		"tty.ReadStream and both": RegionCode, "Boolean(process.stdout.isTTY)": RegionCode,
		"Class: tty.ReadStream": RegionHeading, "by default, be initialized": "",
	} {
		if got := kindAt(s); got != want {
			t.Errorf("%q is in a %q region, want %q", s, got, want)
		}
	}
	for i := 1; i < len(doc.Regions); i++ {
		if doc.Regions[i].Start < doc.Regions[i-1].End {
			t.Fatalf("regions overlap: %+v %+v", doc.Regions[i-1], doc.Regions[i])
		}
	}
}

// TestMarkdownListsKeepTheirNumbers: an ordered list's items keep their numbers (from the
// list's start), a bullet list its dashes: "1." says the items are steps, in order.
func TestMarkdownListsKeepTheirNumbers(t *testing.T) {
	md := readMarkdown("Restore:\n\n3. rsync the files\n4. load the dump\n\n- a note\n- another\n")
	if !strings.Contains(md.Text, "3. rsync the files\n4. load the dump\n") || !strings.Contains(md.Text, "- a note\n- another\n") {
		t.Errorf("%q", md.Text)
	}
}

// TestMarkdownHTMLBlocksAreRead: a raw HTML block in Markdown is read by the HTML reader for the
// text the page shows (the Node.js docs write tables in HTML: readline.md's TTY keybindings were
// a heading alone, found by no search), each word on its own line of the file (a paragraph is one
// line of text, as in an HTML file); comments, script and style stay out.
func TestMarkdownHTMLBlocksAreRead(t *testing.T) {
	src := "# Keys\n\n<!-- YAML\nadded: v1.0.0\n-->\n\n<table>\n  <tr>\n    <th>Keybindings</th>\n    <th>Description</th>\n  </tr>\n" +
		"  <tr>\n    <td><kbd>Ctrl</kbd>+<kbd>C</kbd></td>\n    <td>Emit <code>SIGINT</code> or close &amp; exit</td>\n  </tr>\n</table>\n\n" +
		"<script>\nvar hidden = 1;\n</script>\n\n<div>\nA paragraph in a div,\nwrapped.\n</div>\n\nAfter.\n"
	doc := readMarkdown(src)
	contains(t, doc.Text, "Keybindings | Description\n", "Ctrl+C | Emit SIGINT or close & exit\n", "A paragraph in a div, wrapped.\n", "After.\n")
	lacks(t, doc.Text, "YAML", "added", "<", "hidden")
	lines := strings.Split(src, "\n")
	for _, w := range []string{"Keybindings", "Description", "Ctrl", "Emit", "SIGINT", "close", "paragraph", "wrapped", "After"} {
		at := strings.Index(doc.Text, w)
		if at < 0 {
			t.Fatalf("%q not read", w)
		}
		ln := doc.Source.Line(doc.Source.Offset(at))
		if ln < 1 || !strings.Contains(lines[ln-1], w) {
			t.Errorf("%q cites line %d", w, ln)
		}
	}
}

// TestMarkdownFencesCiteTheirLines: the fences Markdown text writes around code are mapped to
// the file's fence lines, at the top level and in a list item, so the document view numbers the
// fence and the code under it each with its own line (an unmapped fence took the code's first
// line, and that line showed no number).
func TestMarkdownFencesCiteTheirLines(t *testing.T) {
	src := "# T\n\nText.\n\n```js\nconst a = 1;\nconst b = 2;\n```\n\n- item\n\n  ~~~\n  code in list\n  ~~~\n\nEnd.\n"
	doc := readMarkdown(src)
	var got []string
	off := 0
	for _, l := range strings.SplitAfter(doc.Text, "\n") {
		if s := strings.TrimSpace(l); s != "" {
			got = append(got, fmt.Sprintf("%d %s", doc.Source.Line(doc.Source.Offset(off)), s))
		}
		off += len(l)
	}
	want := []string{"1 # T", "3 Text.", "5 ```", "6 const a = 1;", "7 const b = 2;", "8 ```", "10 - item", "12 ```", "13 code in list", "14 ```", "16 End."}
	if !slices.Equal(got, want) {
		t.Errorf("lines:\n%q\nwant\n%q", got, want)
	}
}

// TestHTMLRegions reads a Rust book chapter: headings, code blocks and inline code are regions,
// the prose around them is not, and the marks used to find inline code are gone from the text.
func TestHTMLRegions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cite", "ch09-02-recoverable-errors-with-result.html"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Read(context.Background(), data, "ch09-02.html", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lacks(t, doc.Text, string(codeOpen), string(codeClose))
	kindAt := func(s string) RegionKind {
		at := strings.Index(doc.Text, s)
		if at < 0 {
			t.Fatalf("text lacks %q", s)
		}
		for _, r := range doc.Regions {
			if r.Start <= at && at < r.End {
				return r.Kind
			}
		}
		return ""
	}
	for s, want := range map[string]RegionKind{
		"## Recoverable Errors with Result": RegionHeading, "let greeting_file_result = File::open": RegionCode,
		"enum is defined as having": "", "Most errors aren’t serious": "",
	} {
		if got := kindAt(s); got != want {
			t.Errorf("%q is in a %q region, want %q", s, got, want)
		}
	}
	// "Result" in "the Result enum" is inline code: <code>Result</code>.
	at := strings.Index(doc.Text, "the Result enum")
	if at < 0 || doc.Prose(at+4, at+10) {
		t.Errorf("inline code %q is read as prose", "Result")
	}
	for i := 1; i < len(doc.Regions); i++ {
		if doc.Regions[i].Start < doc.Regions[i-1].End {
			t.Fatalf("regions overlap: %+v %+v", doc.Regions[i-1], doc.Regions[i])
		}
	}
}

// TestSourceOffsetsIndexTheFile: with a byte order mark (which the decoder drops) a chunk's
// offsets still index the file's bytes, and its lines are the file's.
func TestSourceOffsetsIndexTheFile(t *testing.T) {
	for _, bom := range []string{"", "\uFEFF"} {
		src := bom + "<html><body>\n<nav>menu</nav>\n<h1>Title</h1>\n<p>first\nparagraph &amp; more</p>\n</body></html>\n"
		doc, err := Read(context.Background(), []byte(src), "p.html", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		spans := ChunkDocument(doc, ChunkOptions{})
		if len(spans) != 1 {
			t.Fatalf("%d spans", len(spans))
		}
		s := spans[0]
		if got := src[s.ByteStart:s.ByteEnd]; !strings.HasPrefix(got, "Title") || !strings.HasSuffix(got, "more") {
			t.Errorf("bom %q: bytes %d–%d of the file are %q", bom, s.ByteStart, s.ByteEnd, got)
		}
		if s.LineStart != 3 || s.LineEnd != 5 || !reflect.DeepEqual(s.Lines, []int{3, 3, 4}) {
			t.Errorf("bom %q: lines %d–%d %v, want 3–5 [3 3 4]", bom, s.LineStart, s.LineEnd, s.Lines)
		}
	}
}

// TestEveryWordCitesItsOwnLine: in Markdown, every word of the text maps to a line of the file
// that holds that word — not only the chunks' first and last words. An autolink's address
// (<ann@lee.dev>, an attendee in a list) once mapped nowhere and cited the next list item's
// line, so a fact found in it pointed one line down.
func TestEveryWordCitesItsOwnLine(t *testing.T) {
	sources := map[string]string{
		"attendees.md": "---\ntitle: Kickoff\n---\n# Kickoff\n\nAttendees:\n\n- Tomás Reyes <tomas.reyes@kestrel-freight.com>\n- Ana Lima <ana.lima@kestrel-freight.com>\n\nSee <https://kestrel-freight.com/minutes> and www.kestrel-freight.com/agenda today.\n",
		// Node's globals.html: a paragraph ending in a link and ".", then a heading of code
		// with "..." and an anchor "#" glued to it (the heading cited the paragraph's line).
		"globals.html": "<section><h3><code>Request</code></h3>\n" +
			"<p>A browser-compatible implementation of <a href=\"https://developer.mozilla.org/Request\" class=\"type\">&#x3C;Request></a>.</p>\n" +
			"</section><section><h3><code>setImmediate(callback[, ...args])</code><span><a class=\"mark\" href=\"#s\" id=\"s\">#</a></span></h3>\n" +
			"<p>setImmediate is described in the timers section.</p>\n</section>\n",
		// Highlighted code, as Node's addons.html has it: words glued across <span>s, and
		// "<" spelled as a character reference.
		"addons.html": "<pre><code class=\"language-cpp\"><span class=\"hljs-meta\">#<span class=\"hljs-keyword\">include</span> <span class=\"hljs-string\">&#x3C;node.h></span></span>\n" +
			"<span class=\"hljs-function\"><span class=\"hljs-type\">void</span> <span class=\"hljs-title\">Method</span>(<span class=\"hljs-type\">const</span> FunctionCallbackInfo&#x3C;Value>&#x26; args)</span> {\n" +
			"  Isolate* isolate = args.<span class=\"hljs-built_in\">GetIsolate</span>();\n" +
			"  args.<span class=\"hljs-built_in\">GetReturnValue</span>().<span class=\"hljs-built_in\">Set</span>(String::<span class=\"hljs-built_in\">NewFromUtf8</span>(\n" +
			"      isolate, <span class=\"hljs-string\">\"world\"</span>).<span class=\"hljs-built_in\">ToLocalChecked</span>());\n}\n</code></pre>\n",
	}
	for _, name := range []string{"tty.md", "note.md"} {
		data, err := os.ReadFile(filepath.Join("testdata", "cite", name))
		if err != nil {
			t.Fatal(err)
		}
		sources[name] = string(data)
	}
	// Words, and addresses whole (an address is one piece of the file, never split by markup).
	word := regexp.MustCompile(`[\w.+-]+@[\w-]+(?:\.[\w-]+)+|[\p{L}\p{N}]{4,}`)
	for name, src := range sources {
		doc, err := Read(context.Background(), []byte(src), name, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(src, "\n")
		bad := 0
		for _, loc := range word.FindAllStringIndex(doc.Text, -1) {
			w := doc.Text[loc[0]:loc[1]]
			if !strings.Contains(src, w) {
				continue // decoded from a character reference: not the file's bytes
			}
			if l := doc.SourceLine(loc[0]); l < 1 || l > len(lines) || !strings.Contains(lines[l-1], w) {
				if bad++; bad <= 5 {
					t.Errorf("%s: %q cites line %d, which does not hold it", name, w, l)
				}
			}
		}
	}
}
