package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/errs"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readFixture(t *testing.T, name string) *Document {
	t.Helper()
	doc, err := Read(context.Background(), fixture(t, name), name, Limits{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !utf8.ValidString(doc.Text) {
		t.Fatalf("%s: text is not valid UTF-8", name)
	}
	return doc
}

// wantCode asserts err is an *errs.Error with the code and a hint.
func wantCode(t *testing.T, err error, code string) *errs.Error {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("want %s, got %T %v", code, err, err)
	}
	if e.Code != code {
		t.Fatalf("want %s, got %s: %v", code, e.Code, e)
	}
	if e.Hint == "" {
		t.Fatalf("%s without a hint: %v", code, e)
	}
	return e
}

func contains(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
}

func lacks(t *testing.T, text string, nots ...string) {
	t.Helper()
	for _, n := range nots {
		if strings.Contains(text, n) {
			t.Errorf("text has %q:\n%s", n, text)
		}
	}
}

func TestSniff(t *testing.T) {
	cases := []struct {
		file, name, kind string
	}{
		{"note.md", "note.md", "markdown"},
		{"page.html", "page.htm", "html"},
		{"page.html", "saved-page", "html"}, // sniffed when the name says nothing
		{"config.json", "settings", "json"},
		{"people.csv", "people.csv", "csv"},
		{"hello.go", "hello.go", "code"},
		{"plain.txt", "README", "text"},
		{"image.png", "image.png", ""},
		{"image.png", "image.pdf", ""}, // a PNG named .pdf is still a PNG
		{"junk.bin", "junk.bin", ""},
		{"empty.txt", "empty.txt", "text"},
		{"empty.txt", "empty.md", "markdown"},
	}
	for _, c := range cases {
		data := fixture(t, c.file)
		if kind, _ := Sniff(data[:min(len(data), sniffLen)], c.name); kind != c.kind {
			t.Errorf("Sniff(%s as %s) = %q, want %q", c.file, c.name, kind, c.kind)
		}
	}
}

func TestReadMarkdown(t *testing.T) {
	doc := readFixture(t, "note.md")
	if doc.Kind != "markdown" || doc.Mime != "text/markdown" {
		t.Fatalf("kind %q mime %q", doc.Kind, doc.Mime)
	}
	if doc.Title != "Meeting notes, March" {
		t.Errorf("title %q", doc.Title)
	}
	if want := []string{"meeting", "budget", "planning"}; !reflect.DeepEqual(doc.Tags, want) {
		t.Errorf("tags %q, want %q", doc.Tags, want)
	}
	if doc.Meta["date"] == nil || doc.Meta["attendees"] == nil {
		t.Errorf("front matter missing from meta: %v", doc.Meta)
	}
	src := string(fixture(t, "note.md"))
	srcLines := strings.Split(src, "\n")
	// The text is not the file's (front matter and syntax are gone), so lines come from the
	// source map: the paragraph after 8 lines of front matter is on line 9 of the file.
	if at := strings.Index(doc.Text, "Introduction paragraph"); at < 0 || srcLines[doc.SourceLine(at)-1] != "Introduction paragraph before any heading." {
		t.Fatalf("the first paragraph maps to line %d", doc.SourceLine(at))
	}
	lacks(t, doc.Text, "attendees:", "ana@example.com")
	contains(t, doc.Text, "# Agenda\n", "## Open questions\n", "# not a heading: a comment") // setext → ATX
	var headings []string
	for _, s := range ChunkDocument(doc, ChunkOptions{Target: 40}) {
		headings = append(headings, s.Heading)
		if strings.Contains(s.Text, "Agenda") && srcLines[s.LineStart-1] != "Agenda" {
			t.Errorf("chunk %q cites line %d, which is %q in the file", s.Text, s.LineStart, srcLines[s.LineStart-1])
		}
	}
	contains(t, strings.Join(headings, "|"), "Agenda > Decisions", "Agenda > Open questions")
}

func TestMarkdownFrontMatterVariants(t *testing.T) {
	read := func(src string) *Document {
		t.Helper()
		doc, err := Read(context.Background(), []byte(src), "n.md", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	doc := read("---\ntags: \"work, #home  urgent\"\n---\n# Heading title\n")
	if want := []string{"work", "home", "urgent"}; !reflect.DeepEqual(doc.Tags, want) {
		t.Errorf("string tags %q, want %q", doc.Tags, want)
	}
	if doc.Title != "Heading title" {
		t.Errorf("title from first heading: %q", doc.Title)
	}
	// Not YAML: the lines stay (nothing is lost) and the error is noted.
	doc = read("---\n: : bad [yaml\n---\nbody\n")
	contains(t, doc.Text, "bad [yaml", "body")
	if doc.Meta["front_matter_error"] == nil {
		t.Error("no front_matter_error")
	}
	// An unclosed block is not front matter.
	doc = read("---\ntitle: x\nno end\n")
	contains(t, doc.Text, "title: x")
	// Aliases must not expand into a huge value (billion laughs).
	var b strings.Builder
	b.WriteString("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 'b'; i <= 'k'; i++ {
		b.WriteString(string(i) + ": &" + string(i) + " [*" + string(i-1) + ", *" + string(i-1) + ", *" + string(i-1) + ", *" + string(i-1) + ", *" + string(i-1) + ", *" + string(i-1) + ", *" + string(i-1) + ", *" + string(i-1) + ", *" + string(i-1) + ", *" + string(i-1) + "]\n")
	}
	b.WriteString("---\ntext\n")
	read(b.String())
	// CRLF files cite their lines too.
	doc = read("---\r\ntitle: T\r\n---\r\nline4\r\n")
	if doc.SourceLine(strings.Index(doc.Text, "line4")) != 4 || doc.Title != "T" {
		t.Errorf("CRLF front matter: %q title %q", doc.Text, doc.Title)
	}
}

func TestReadHTML(t *testing.T) {
	doc := readFixture(t, "page.html")
	if doc.Kind != "html" || doc.Title != "Quarterly Report – Example Corp" {
		t.Fatalf("kind %q title %q", doc.Kind, doc.Title)
	}
	contains(t, doc.Text,
		"# Quarterly Report\n",
		"## Highlights\n",
		"Revenue grew by 12% compared with the previous quarter.",
		"- New office in Lisbon\n- Two product launches",
		"Region | Revenue\nEurope | 1.2 M€",
		"```\n# build\ngo build ./...\n```",
		"By the finance team",  // an article's own header is content
		"Filed under finance.", // and so is its footer
	)
	lacks(t, doc.Text, "tracking", "font-family", "Pricing", "cookies", "Related:", "Privacy", "Enable JavaScript", "Search", "Home About")
	if doc.Meta["description"] != "Results for the first quarter." || doc.Meta["lang"] != "en" {
		t.Errorf("meta %v", doc.Meta)
	}
	var headings []string
	for _, s := range ChunkDocument(doc, ChunkOptions{}) {
		headings = append(headings, s.Heading)
	}
	contains(t, strings.Join(headings, "|"), "Quarterly Report > Highlights", "Quarterly Report > Numbers")
}

func TestHTMLWithoutMainUsesBody(t *testing.T) {
	src := `<html><body><nav>Menu</nav><div class="content"><h3>Notes</h3><p>Body text<br>second line</p></div>` +
		`<div aria-hidden="true">hidden</div><div style="display: none">invisible</div><div class="sidebar">side</div></body></html>`
	doc, err := Read(context.Background(), []byte(src), "x.html", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, doc.Text, "### Notes", "Body text\nsecond line")
	lacks(t, doc.Text, "Menu", "hidden", "invisible", "side")
	if doc.Title != "" {
		t.Errorf("title %q from a page with no <title> or <h1>", doc.Title)
	}
}

func TestReadCSV(t *testing.T) {
	doc := readFixture(t, "people.csv")
	if doc.Kind != "csv" {
		t.Fatalf("kind %q", doc.Kind)
	}
	if cols, _ := doc.Meta["columns"].([]string); !reflect.DeepEqual(cols, []string{"name", "email", "amount"}) {
		t.Fatalf("columns %v", doc.Meta["columns"])
	}
	if doc.Meta["rows"] != 3 {
		t.Errorf("rows %v", doc.Meta["rows"])
	}
	lines := strings.Split(doc.Text, "\n")
	if lines[0] != "name | email | amount" || lines[1] != "name: Ana | email: ana@example.com | amount: 12.50" ||
		lines[2] != "name: Bo, Jr. | email: bo@example.com | amount: 1,200.00" || lines[3] != "name: Cy | email: multi line note | amount: 3" {
		t.Fatalf("rows:\n%s", doc.Text)
	}
	doc = readFixture(t, "revenue.tsv")
	contains(t, doc.Text, "region: Europe | quarter: Q1 | revenue: 1200000")
	// European spreadsheets separate with semicolons.
	doc, err := Read(context.Background(), []byte("a;b\n1,5;2\n"), "x.csv", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, doc.Text, "a: 1,5 | b: 2")
}

func TestReadJSON(t *testing.T) {
	doc := readFixture(t, "config.json")
	if doc.Kind != "json" || doc.Title != "Strata settings" {
		t.Fatalf("kind %q title %q", doc.Kind, doc.Title)
	}
	want := "title: Strata settings\nversion: 2\nembedder.provider: ollama\nembedder.model: nomic-embed-text\nembedder.dims: 768\n" +
		"roots[0]: /home/ana/notes\nroots[1]: /home/ana/Documents\nempty: {}\nflags[0]: true\nflags[1]: false\nflags[2]: null\n"
	if doc.Text != want {
		t.Fatalf("got\n%s\nwant\n%s", doc.Text, want)
	}
	doc = readFixture(t, "events.jsonl")
	contains(t, doc.Text, "[0].event: ingest\n", "[1].query: invoice 2025\n", "[2].file: b.md\n")
	if doc.Meta["records"] != 3 {
		t.Errorf("records %v", doc.Meta["records"])
	}
	// Concatenated values in a .json file are read as a stream, renumbered from [0].
	doc, err := Read(context.Background(), []byte(`{"a":1} {"a":2}`), "x.json", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Text != "[0].a: 1\n[1].a: 2\n" {
		t.Errorf("stream: %q", doc.Text)
	}
	_, err = Read(context.Background(), fixture(t, "invalid.json"), "invalid.json", Limits{})
	if e := wantCode(t, err, errs.AnalysisFailed); e.Details["line"] != 4 {
		t.Errorf("error line %v, want 4", e.Details["line"])
	}
	for _, bad := range []string{`{"a":1}]`, `{"a":`, `[1,2`, `{"a" 1}`} {
		_, err := Read(context.Background(), []byte(bad), "x.json", Limits{})
		wantCode(t, err, errs.AnalysisFailed)
	}
	// Deep nesting is bounded: paths stop growing.
	deep := strings.Repeat(`{"k":`, 200) + "1" + strings.Repeat("}", 200)
	doc, err = Read(context.Background(), []byte(deep), "deep.json", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Text) > 200 {
		t.Errorf("deep path not bounded: %d bytes", len(doc.Text))
	}
}

func TestReadCodeAndText(t *testing.T) {
	doc := readFixture(t, "hello.go")
	if doc.Kind != "code" || doc.Language != "go" || doc.Text != string(fixture(t, "hello.go")) {
		t.Fatalf("go: kind %q lang %q", doc.Kind, doc.Language)
	}
	doc = readFixture(t, "report.py")
	if doc.Language != "python" || doc.Mime != "text/x-python" {
		t.Fatalf("python: lang %q mime %q", doc.Language, doc.Mime)
	}
	doc = readFixture(t, "plain.txt")
	if doc.Kind != "text" || doc.Text != string(fixture(t, "plain.txt")) {
		t.Fatalf("text: %q", doc.Text)
	}
	doc = readFixture(t, "utf16.txt")
	contains(t, doc.Text, "UTF-16 notes: café, naïve, 東京.\r\nSecond line.")
	if doc.Meta["encoding"] != "utf-16le" {
		t.Errorf("encoding %v", doc.Meta["encoding"])
	}
	doc = readFixture(t, "latin1.txt")
	contains(t, doc.Text, "Café crème brûlée – “quoted”, 12 €.")
	if doc.Meta["encoding"] != "windows-1252" {
		t.Errorf("encoding %v", doc.Meta["encoding"])
	}
	// A UTF-8 file with one broken byte is repaired, not re-read as Windows-1252.
	doc, err := Read(context.Background(), []byte("naïve café \xff end"), "x.txt", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Text != "naïve café \uFFFD end" {
		t.Errorf("repaired: %q", doc.Text)
	}
}

func TestBadInputs(t *testing.T) {
	cases := []struct {
		file, name, code string
	}{
		{"junk.bin", "junk.bin", errs.UnsupportedFileType},
		{"image.png", "image.png", errs.UnsupportedFileType},
		{"junk.bin", "notes.md", errs.UnsupportedFileType}, // binary under a text name
		{"broken.txt", "broken.txt", errs.AnalysisFailed},  // text that turns binary after the sniffed head
	}
	for _, c := range cases {
		_, err := Read(context.Background(), fixture(t, c.file), c.name, Limits{})
		e := wantCode(t, err, c.code)
		t.Logf("%s as %s: %s (hint: %s)", c.file, c.name, e.Message, e.Hint)
	}
	_, err := Read(context.Background(), fixture(t, "plain.txt"), "plain.txt", Limits{MaxBytes: 10})
	wantCode(t, err, errs.FileTooLarge)
}

func TestZeroByteFiles(t *testing.T) {
	for _, name := range []string{"empty.txt", "empty.md", "empty.html", "empty.csv", "empty.json", "empty.go", "empty", "empty.pdf", "empty.docx"} {
		doc, err := Read(context.Background(), nil, name, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if doc.Text != "" || doc.Meta == nil {
			t.Fatalf("%s: text %q meta %v", name, doc.Text, doc.Meta)
		}
	}
}

func TestMaxTextBytes(t *testing.T) {
	big := strings.Repeat("line of text é\n", 10000)
	for _, name := range []string{"big.txt", "big.md", "big.go"} {
		doc, err := Read(context.Background(), []byte(big), name, Limits{MaxTextBytes: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Text) > 1000 || doc.Meta["truncated"] != true || !utf8.ValidString(doc.Text) {
			t.Fatalf("%s: %d bytes, truncated=%v", name, len(doc.Text), doc.Meta["truncated"])
		}
	}
	// Regions end with the text: code that ran past the cut is clipped.
	md, mdErr := Read(context.Background(), []byte("```\n"+big+"```\n"), "code.md", Limits{MaxTextBytes: 1000})
	if mdErr != nil {
		t.Fatal(mdErr)
	}
	if len(md.Regions) != 1 || md.Regions[0].End > len(md.Text) {
		t.Fatalf("regions %+v past %d bytes of text", md.Regions, len(md.Text))
	}
	csvText := "a,b\n" + strings.Repeat("1,2\n", 10000)
	doc, err := Read(context.Background(), []byte(csvText), "x.csv", Limits{MaxTextBytes: 1000})
	if err != nil || doc.Meta["truncated"] != true || len(doc.Text) > 1100 {
		t.Fatalf("csv: %v %v %d", err, doc.Meta, len(doc.Text))
	}
	jsonText := "[" + strings.Repeat(`{"a":1},`, 10000) + "1]"
	doc, err = Read(context.Background(), []byte(jsonText), "x.json", Limits{MaxTextBytes: 1000})
	if err != nil || doc.Meta["truncated"] != true || len(doc.Text) > 1100 {
		t.Fatalf("json: %v %v %d", err, doc.Meta, len(doc.Text))
	}
}

func TestReadHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, f := range []string{"note.md", "page.html", "people.csv", "config.json"} {
		if _, err := Read(ctx, fixture(t, f), f, Limits{}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", f, err)
		}
	}
}

func TestHTMLNestedLists(t *testing.T) {
	src := `<p>Intro</p><ul><li>outer <b>bold</b><ul><li>inner one</li><li>inner two</li></ul></li><li>last<p>more</p></li></ul><p>After</p>`
	doc, err := Read(context.Background(), []byte(src), "x.html", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Intro\n\n- outer bold\n  - inner one\n  - inner two\n- last\n  more\n\nAfter\n"; doc.Text != want {
		t.Fatalf("got\n%s\nwant\n%s", doc.Text, want)
	}
}

// TestHTMLPermalinkMarks: a heading's link to itself shown as "#" (every heading of the Node.js
// docs) or "¶" is chrome: the heading reads "Readline", not "Readline#"; a link whose text
// merely starts with "#", and a "#" in prose, stay.
func TestHTMLPermalinkMarks(t *testing.T) {
	page := `<html><body><main><h2>Readline<span><a class="mark" href="#readline" id="readline">#</a></span></h2>` +
		`<p>Keys and what they do. See <a href="#issue">#42</a> and C# notes.</p>` +
		`<h3>Keys<a class="headerlink" href="#keys">¶</a></h3><p>More.</p></main></body></html>`
	doc, err := Read(context.Background(), []byte(page), "p.html", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, doc.Text, "## Readline\n", "### Keys\n", "See #42 and C# notes.")
	lacks(t, doc.Text, "Readline#", "¶")
}
