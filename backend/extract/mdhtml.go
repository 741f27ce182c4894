package extract

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlBlock writes the text of a raw HTML block of a Markdown file: what a reader of the
// rendered page sees. The Node.js API docs write whole tables as HTML inside Markdown
// (readline.md's "TTY keybindings": every key and what it does), and dropping the block as
// markup left the section a heading alone, found by no search. Comments, processing
// instructions, declarations and CDATA stay dropped, as do script and style contents. Each
// piece of text is mapped to its bytes in the file, so its citation is its own line; a row
// of a table is one line, its cells joined by " | " as a Markdown table's are; a block-level
// element ends a line; inline elements (<kbd>, <code>, <a>) only lose their tags.
func (w *mdWriter) htmlBlock(c *ast.HTMLBlock) {
	switch c.HTMLBlockType {
	case ast.HTMLBlockType2, ast.HTMLBlockType3, ast.HTMLBlockType4, ast.HTMLBlockType5:
		return // <!-- comment -->, <? ?>, <!DECLARATION>, <![CDATA[ ]]>
	}
	lines := c.Lines()
	if lines.Len() == 0 {
		return
	}
	start, stop := lines.At(0).Start, lines.At(lines.Len()-1).Stop
	if c.HasClosure() {
		stop = max(stop, c.ClosureLine.Stop)
	}
	w.blankLine()
	z := html.NewTokenizer(bytes.NewReader(w.src[start:stop]))
	at, skip, cell, pre := start, 0, false, 0
	space := false // white space since the last text: a space before the next, within a line
	line := func() {
		if s := w.out.String(); s != "" && !strings.HasSuffix(s, "\n") {
			w.out.WriteString("\n")
		}
		cell, space = false, false
	}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		pos := at
		at += len(raw)
		switch tt {
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch a {
			case atom.Script, atom.Style, atom.Template:
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
			case atom.Td, atom.Th:
				if tt == html.StartTagToken && cell {
					w.out.WriteString(" | ")
				}
				if tt == html.EndTagToken {
					cell = true
				}
			case atom.Pre:
				if tt == html.StartTagToken {
					pre++
				} else if tt == html.EndTagToken && pre > 0 {
					pre--
				}
				line()
			case atom.Br:
				line()
			default:
				if blockTags[a] || lineTags[a] {
					line()
				}
			}
		case html.TextToken:
			if skip > 0 {
				continue
			}
			if pre == 0 {
				// Indentation and line ends between tags are layout: the words keep one space
				// between them ("Emit <code>SIGINT</code>" reads "Emit SIGINT").
				trimmed := bytes.TrimLeft(raw, " \t\r\n")
				lead := len(raw) - len(trimmed)
				space = space || lead > 0
				if len(trimmed) == 0 {
					continue
				}
				if s := w.out.String(); space && s != "" && !strings.HasSuffix(s, "\n") && !strings.HasSuffix(s, " ") {
					w.out.WriteString(" ")
				}
				raw = bytes.TrimRight(trimmed, " \t\r\n")
				space = len(raw) < len(trimmed)
				pos += lead
			}
			w.textRefs(raw, pos)
		}
	}
	line()
	w.blankLine()
}

// lineTags, besides the HTML reader's blockTags, begin a new line of text: a list item, a
// table row, a heading.
var lineTags = map[atom.Atom]bool{
	atom.Li: true, atom.Tr: true, atom.Table: true, atom.Thead: true, atom.Tbody: true, atom.Tfoot: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Nav: true, atom.Aside: true,
}

// textRefs writes raw, the text at pos in the file, mapped, except its character references
// ("&amp;"), which are written as what they stand for and not mapped (they are not the
// file's bytes); the words around them keep their own places.
func (w *mdWriter) textRefs(raw []byte, pos int) {
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '&')
		j := -1
		if i >= 0 {
			j = bytes.IndexByte(raw[i:min(len(raw), i+34)], ';')
		}
		if i < 0 || j < 0 {
			w.copySeg(pos, pos+len(raw))
			return
		}
		w.copySeg(pos, pos+i)
		ref := string(raw[i : i+j+1])
		if dec := html.UnescapeString(ref); dec != ref {
			w.out.WriteString(dec)
		} else {
			w.copySeg(pos+i, pos+i+j+1)
		}
		raw, pos = raw[i+j+1:], pos+i+j+1
	}
}
