package answer

import (
	"strings"
	"testing"
)

func texts(ss []Sentence) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Text)
	}
	return out
}

// proseOf is the texts of the prose sentences alone.
func proseOf(ss []Sentence) []string {
	var out []string
	for _, s := range ss {
		if s.Unit == UnitProse {
			out = append(out, s.Text)
		}
	}
	return out
}

func TestSplitSentences(t *testing.T) {
	text := "# Reading files\n\n" +
		"The fs.readFile() method reads a whole file, e.g. a config file. It returns a\n" +
		"Promise when called from fs/promises! Is it fast? Version 1.5 of the API is 3.2x\n" +
		"faster than J. R. Smith said.\n\n" +
		"```\nconst data = await readFile('a.txt'); // reads the file.\n```\n\n" +
		"- Each item of a list is a sentence of its own\n" +
		"- Short one\n\n" +
		"Name | Value | Notes\n\n" +
		"    if (x) { return y; }\n\n" +
		"$ cat file.txt | wc -l\n"
	got := proseOf(Split(text))
	want := []string{
		"The fs.readFile() method reads a whole file, e.g. a config file.",
		"It returns a Promise when called from fs/promises!",
		"Version 1.5 of the API is 3.2x faster than J. R. Smith said.",
		"Each item of a list is a sentence of its own",
	}
	// "Is it fast?" is shorter than a claim (3 words); "Short one" too; the code block, the
	// table row, the indented code and the shell prompt are not prose.
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sentences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSplitOffsets: each sentence's offsets are its place in the text, so the engine can map
// them to the file's lines; the text is the same words with whitespace collapsed.
func TestSplitOffsets(t *testing.T) {
	text := "First line of a paragraph that\nwraps onto a second line. Then another sentence here.\n"
	ss := Split(text)
	if len(ss) != 2 {
		t.Fatalf("%q", texts(ss))
	}
	for _, s := range ss {
		if strings.Join(strings.Fields(text[s.Start:s.End]), " ") != s.Text {
			t.Errorf("%q at %d–%d is %q", s.Text, s.Start, s.End, text[s.Start:s.End])
		}
	}
	if ss[0].Para != ss[1].Para {
		t.Error("two sentences of one paragraph must share it")
	}
}

// TestSplitChunkCutInsideCode: the chunker may cut a long code block in two; the chunk that
// begins inside it has one fence (the closing one) and code before it.
func TestSplitChunkCutInsideCode(t *testing.T) {
	head := "    let x = compute(input);\n    println!(\"{x}\");\n}\n```\n\nThe function above prints the computed value of its input.\n"
	if got := proseOf(Split(head)); len(got) != 1 || !strings.HasPrefix(got[0], "The function above") {
		t.Fatalf("begins inside a block: %q", got)
	}
	tail := "This paragraph explains what the program does with its input.\n\n```\nfn main() {\n    let x = compute(input);\n"
	if got := proseOf(Split(tail)); len(got) != 1 || !strings.HasPrefix(got[0], "This paragraph") {
		t.Fatalf("ends inside a block: %q", got)
	}
}

// TestSplitLeavesOutNonProse: man-page section headings, a command's synopsis, a label, a C
// declaration and JSON strings of a search index are no sentences.
func TestSplitLeavesOutNonProse(t *testing.T) {
	text := "NAME\n       jq - Command-line JSON processor\n\nSYNOPSIS\n       ssh [-46AaC] [-B bind_interface] [-b bind_address] [-c cipher_spec] destination\n\n" +
		"Listing 21-11: Spawning a new thread for each stream\n\nAs you learned in Chapter 16, the spawn function creates a new thread.\n\n" +
		"int asn1_decode (unsigned int etype, const unsigned char ** der, unsigned int * len) decodes the data.\n\n" +
		`{"body":"Rust doesn\u2019t have exceptions.","breadcrumbs":"Error Handling » Recoverable Errors","id":"35"}` + "\n"
	got := texts(Split(text))
	want := []string{"As you learned in Chapter 16, the spawn function creates a new thread."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sentences: %q", got)
	}
}

// TestSplitLines: in HTML's text every line is a block, so a caption does not run into the
// paragraph after it; in wrapped text a short line is only part of its paragraph.
func TestSplitLines(t *testing.T) {
	html := "Listing 21-11: Spawning a new thread for each stream\nAs you learned in Chapter 16, the spawn function creates a new thread.\n"
	if got := texts(SplitLines(html)); len(got) != 1 || !strings.HasPrefix(got[0], "As you learned") {
		t.Fatalf("HTML: %q", got)
	}
	wrapped := "gitweb (commit 1130ef3) was merged into git as of commit\n0a8f4f0, after which it was no longer maintained separately.\n"
	if got := texts(Split(wrapped)); len(got) != 1 || !strings.HasPrefix(got[0], "gitweb (commit 1130ef3) was merged") {
		t.Fatalf("wrapped: %q", got)
	}
}

// TestSplitUnits: a table's rows and a fenced code block are units of their own (issue 24: the
// answer to "which …" is a table's rows, to "how do I …" a block of commands), each one
// contiguous span of the text, a table's header marked as one; a table's rule, a block the
// chunk holds only part of and a block too long to be steps are not.
func TestSplitUnits(t *testing.T) {
	text := "To install it, run:\n\n```sh\ngo get github.com/spf13/pflag\n\ngo build ./...\n```\n\n" +
		"| Name | Email |\n|---|---|\n| Shona Reid | accounts@example.co.uk |\n\n" +
		"```\n" + strings.Repeat("x := 1\n", maxCodeLines+1) + "```\n\n" +
		"The end of the text is here, in a sentence.\n\n```\nfn main() {\n"
	var got []string
	for _, s := range Split(text) {
		if s.Unit != UnitProse {
			if text[s.Start:s.End] != s.Text && strings.Join(strings.Fields(text[s.Start:s.End]), " ") != s.Text {
				t.Errorf("%q is not its span %q", s.Text, text[s.Start:s.End])
			}
			got = append(got, s.Text)
			if s.Header != (s.Text == "| Name | Email |") {
				t.Errorf("%q: header %v", s.Text, s.Header)
			}
		}
	}
	want := []string{"go get github.com/spf13/pflag\n\ngo build ./...", "| Name | Email |", "| Shona Reid | accounts@example.co.uk |"}
	if strings.Join(got, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Fatalf("units:\n%q\nwant\n%q", got, want)
	}
}

// TestFieldLines: a short unterminated "Label: value" line whose value has digits states a
// fact ("Amount due: EUR 1,540.00") and is a sentence; a title whose digits are in its label
// stays a label, and so does a label with a value of words.
func TestFieldLines(t *testing.T) {
	for text, want := range map[string]bool{
		"Intro text here.\n\nAmount due: EUR 1,540.00\n":             true,
		"Intro text here.\n\nDue date: 15 March 2024\n":              true,
		"Intro text here.\n\nListing 21-11: Spawning a new thread\n": false,
		"Intro text here.\n\nVendor: Acme Corp and friends\n":        false,
	} {
		got := false
		for _, s := range Split(text) {
			if s.Text != "Intro text here." {
				got = true
			}
		}
		if got != want {
			t.Errorf("%q: a sentence %v, want %v", text, got, want)
		}
	}
}

// TestTitlesWithNumbers: a Markdown heading holding a number is a sentence of its own (a
// changelog's "## 1.9.0 2024-04-04"), marked as a title; a heading of words is none.
func TestTitlesWithNumbers(t *testing.T) {
	ss := Split("## 1.9.0 2024-04-04\n\n### Changes and fixes\n\n- inotify: improve the error message of the first watch.\n")
	if len(ss) != 2 || ss[0].Unit != UnitTitle || ss[0].Text != "1.9.0 2024-04-04" || ss[1].Unit != UnitProse {
		t.Fatalf("%+v", ss)
	}
	text := "## 1.9.0 2024-04-04\n"
	if got := text[ss[0].Start:ss[0].End]; got != "1.9.0 2024-04-04" {
		t.Errorf("span %q", got)
	}
}

// TestShortIntroductions: a short line ending with a colon is a sentence when what it
// announces follows (a list, rows, a code block): "Install by running:" brings its command;
// the same line before prose, or a caption, stays a label.
func TestShortIntroductions(t *testing.T) {
	for text, want := range map[string]bool{
		"Install by running:\n\n```\ngo get github.com/spf13/pflag\n```\n":        true,
		"The available quantization types are:\n\n- f16 - high precision.\n":      true,
		"Install by running:\n\nthe command in the next section of this guide.\n": false,
		"Listing 21-11: Spawning a new thread\n\nA thread runs the closure.\n":    false,
	} {
		got := false
		for _, s := range Split(text) {
			if strings.HasSuffix(s.Text, ":") {
				got = true
			}
		}
		if got != want {
			t.Errorf("%q: an introduction %v, want %v", text, got, want)
		}
	}
}

// TestSplitRowContinuations: a table line whose first cell is empty, right under a row, goes
// on with that row (a log's follow-up "-> next service at …" under the service it follows),
// in a text table and in a Markdown one; a row that names its first cell, or follows a blank
// line or the header, is a row of its own.
func TestSplitRowContinuations(t *testing.T) {
	text := "date   | km      | what\n-------|---------|-----\n" +
		"11/03  | 149,310 | SERVICE Hogan's\n       |         |   -> next service at 164,000 km or 03/2025\n" +
		"19/04  | 150,420 | NCT – PASS\n\n" +
		"| Item | Qty |\n|---|---|\n| folders | 4 |\n| | damaged in transit |\n| stands | 2 |\n"
	var got []string
	for _, s := range Split(text) {
		if s.Unit == UnitRow && !s.Header {
			got = append(got, s.Text)
		}
	}
	want := []string{
		"11/03 | 149,310 | SERVICE Hogan's | | -> next service at 164,000 km or 03/2025",
		"19/04 | 150,420 | NCT – PASS",
		"| folders | 4 | | | damaged in transit |",
		"| stands | 2 |",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
