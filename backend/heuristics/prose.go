package heuristics

import (
	"github.com/strata-app/strata/backend/extract"
	"sort"
	"strings"
)

// Prose reports whether the byte range [start, end) of the text is prose: the only text the
// scanners read. Readers that know the structure pass extract.Document.Prose; nil means all
// of the text is prose.
type Prose func(start, end int) bool

// Span is a byte range [Start, End) of text that is not prose.
type Span struct{ Start, End int }

// Spans is a sorted list of non-overlapping non-prose ranges.
type Spans []Span

// Prose reports whether [start, end) touches none of the spans.
func (s Spans) Prose(start, end int) bool {
	i := sort.Search(len(s), func(i int) bool { return s[i].End > start })
	return i == len(s) || s[i].Start >= end
}

// ObviousStructure marks the stretches of text that are plainly not prose when a reader gave
// no structure (plain text, or a reader that does not fill Document.Regions yet): fenced code
// (``` or ~~~), indented blocks (4 spaces or a tab after a blank line), `inline code`, Markdown
// link destinations and reference definitions, HTML tags and comments, headings and comment
// lines starting with '#', and shell or debugger prompt lines ("$ ", "% ", "> ", ">>> ",
// "(gdb) "). It errs towards marking too much: a fact missed costs less than a wrong one.
func ObviousStructure(text string) Spans {
	var out Spans
	mark := func(s, e int) {
		if e <= s {
			return
		}
		if n := len(out); n > 0 && s <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, e)
			return
		}
		out = append(out, Span{s, e})
	}
	fence := ""       // the open fence marker, "" outside a fence
	prevBlank := true // the previous line was blank (or the text starts)
	inIndented := false
	for ls := 0; ls < len(text); {
		le := strings.IndexByte(text[ls:], '\n')
		if le < 0 {
			le = len(text)
		} else {
			le += ls
		}
		line := text[ls:le]
		trimmed := strings.TrimLeft(line, " \t")
		blank := strings.TrimSpace(line) == ""
		switch {
		case fence != "":
			mark(ls, le)
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			mark(ls, le)
		case !blank && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) && (prevBlank || inIndented) && codeish(trimmed):
			inIndented = true
			mark(ls, le)
		case codeLine(trimmed):
			mark(ls, le)
		default:
			if !blank {
				inIndented = false
			}
			markInline(text, ls, le, mark)
		}
		prevBlank = blank
		ls = le + 1
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return merge(out)
}

// codeish reports whether an indented line reads as code or program output rather than an
// indented sentence (changelogs and NEWS files indent their prose): it holds code punctuation.
func codeish(t string) bool {
	for _, p := range []string{"{", "}", ";", "=", "$", "()", "->", "::", "\\", "#", "0x"} {
		if strings.Contains(t, p) {
			return true
		}
	}
	return codeLine(t)
}

// codeLine reports whether a line is a heading, a comment or directive, a prompt, a
// reference definition or a table rule rather than a sentence.
func codeLine(t string) bool {
	for _, p := range []string{"#", "$ ", "% ", "> $", ">>> ", "(gdb)", "//", "/*", "* @", "--- ", "+++ ", "[", "|"} {
		if strings.HasPrefix(t, p) {
			if p == "[" { // only a reference definition "[label]: target"
				c := strings.Index(t, "]:")
				return c > 0 && !strings.ContainsAny(t[:c], "\n")
			}
			return true
		}
	}
	return false
}

// markInline marks `code` spans, link destinations "](...)", autolinks and HTML tags on one
// line of prose.
func markInline(text string, ls, le int, mark func(int, int)) {
	for i := ls; i < le; i++ {
		switch text[i] {
		case '`':
			n := i
			for n < le && text[n] == '`' {
				n++
			}
			ticks := text[i:n]
			if k := strings.Index(text[n:le], ticks); k >= 0 {
				mark(i, n+k+len(ticks))
				i = n + k + len(ticks) - 1
			} else {
				i = n - 1
			}
		case ']':
			if i+1 < le && (text[i+1] == '(' || text[i+1] == '[') {
				closer := map[byte]byte{'(': ')', '[': ']'}[text[i+1]]
				if k := strings.IndexByte(text[i+2:le], closer); k >= 0 {
					mark(i+1, i+2+k+1)
					i = i + 2 + k
				}
			}
		case '<':
			// A tag, not an autolink or a "Name <address>": those are prose.
			if k := strings.IndexByte(text[i:le], '>'); k > 0 && i+1 < le && (isLetter(text[i+1]) || text[i+1] == '/' || text[i+1] == '!') &&
				!strings.ContainsAny(text[i:i+k], "@:") {
				mark(i, i+k+1)
				i += k
			}
		}
	}
}

func merge(s Spans) Spans {
	var out Spans
	for _, x := range s {
		if n := len(out); n > 0 && x.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, x.End)
			continue
		}
		out = append(out, x)
	}
	return out
}

// FindDocument finds the facts in the prose of a read document: the reader's Regions when it
// marked any, otherwise the obvious code, links and markup found in the text itself, so plain
// text and readers that do not fill Regions still keep facts out of code.
func FindDocument(d *extract.Document) []Finding {
	prose := Prose(d.Prose)
	if len(d.Regions) == 0 {
		prose = ObviousStructure(d.Text).Prose
	}
	// Inline '#tags' are read only where people write them, in notes (Markdown and plain
	// text), and only at the end of a paragraph. In generated documents (HTML, PDF, DOCX, code)
	// every '#word' found on 3,458 real files was code, an anchor or a type reference ("frees an
	// #xsltElemPreComp"), so there the kind cannot reach the precision a fact needs. Tags a file
	// declares (front matter) become concepts whatever its format.
	notes := d.Kind == "markdown" || d.Kind == "text"
	return Find(d.Text, prose, Options{NoHashtags: !notes})
}
