package extract

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Markdown is read with goldmark (the CommonMark parser Hugo and Gitea use) rather than by
// hand: search snippets and fact heuristics must see the prose a reader sees, and on the Node.js
// API docs the hand-written reader kept `[certificate object][]` link syntax, reference
// definition blocks and `<!-- YAML added: v0.11.4 -->` comments, which then came back as
// search results and as "facts". goldmark gives every text piece its byte range in the file, so
// the extracted text carries a source map and citations stay on the file's lines.
//
// What becomes of each construct:
//   - prose (paragraphs, list items, quotes, table cells, link and image text): kept;
//   - headings: ATX lines ("## Title") for the chunker, marked RegionHeading;
//   - code spans and code blocks: kept (code is worth searching), marked RegionCode, blocks
//     fenced with ``` so the chunker does not split them at a '#' inside;
//   - raw HTML blocks: their text, as the page shows it (mdhtml.go);
//   - link destinations, reference definitions, HTML comments and inline raw HTML: dropped.
var mdParser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// mdWriter builds Document.Text from the tree with its source map and regions.
type mdWriter struct {
	src     []byte
	out     strings.Builder
	m       *SourceMap
	regions []Region
	heading bool // inside a heading: its region covers what is inside
	// lastStop is the source offset just after the last mapped piece: an autolink's address
	// is found in the source from there (goldmark does not export where it sits).
	lastStop int
}

// markdownText turns Markdown source into prose text; src must keep the file's offsets (front
// matter blanked, not removed).
func markdownText(src string) (string, *SourceMap, []Region) {
	b := []byte(src)
	root := mdParser.Parser().Parse(text.NewReader(b))
	w := &mdWriter{src: b, m: NewSourceMap(src)}
	w.blocks(root, "")
	t := strings.TrimRight(w.out.String(), "\n")
	if t != "" {
		t += "\n"
	}
	return t, w.m, mergeRegions(w.regions, len(t))
}

// copySeg writes the source bytes of seg and maps them.
func (w *mdWriter) copySeg(start, stop int) {
	if stop <= start {
		return
	}
	w.m.Add(w.out.Len(), start, stop-start)
	w.out.Write(w.src[start:stop])
	w.lastStop = stop
}

func (w *mdWriter) region(start int, kind RegionKind) {
	if end := w.out.Len(); end > start && !(w.heading && kind != RegionHeading) {
		w.regions = append(w.regions, Region{Start: start, End: end, Kind: kind})
	}
}

// fence maps the "```" about to be written to the fence of the file's line starting at from,
// when that line holds one: the document view numbers each line of text by the file line it
// came from, and an unmapped fence took the number of the code's first line (the fence read
// "1284" and the code line under it had none).
func (w *mdWriter) fence(from int) {
	if from < 0 || from >= len(w.src) {
		return
	}
	end := bytes.IndexByte(w.src[from:], '\n')
	if end < 0 {
		end = len(w.src) - from
	}
	line := w.src[from : from+end]
	i := bytes.Index(line, []byte("```"))
	if j := bytes.Index(line, []byte("~~~")); i < 0 || j >= 0 && j < i {
		i = j
	}
	if i >= 0 {
		w.m.Add(w.out.Len(), from+i, 3)
	}
}

// lineStart is the offset of the start of the line holding src[at].
func lineStart(src []byte, at int) int {
	if at < 0 {
		return -1
	}
	return bytes.LastIndexByte(src[:at], '\n') + 1
}

// blankLine ends the current block with an empty line, as the chunker's paragraphs expect.
func (w *mdWriter) blankLine() { endBlock(&w.out) }

// blocks writes the block children of n; prefix starts each new line of a list item.
func (w *mdWriter) blocks(n ast.Node, prefix string) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Heading:
			w.blankLine()
			start := w.out.Len()
			w.heading = true
			w.out.WriteString(strings.Repeat("#", c.Level) + " ")
			w.inlines(c)
			w.region(start, RegionHeading)
			w.heading = false
			w.out.WriteString("\n\n")
		case *ast.Paragraph, *ast.TextBlock:
			if prefix == "" {
				w.blankLine()
			}
			w.out.WriteString(prefix)
			w.inlines(c)
			w.out.WriteString("\n")
			if prefix == "" {
				w.out.WriteString("\n")
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			w.blankLine()
			start := w.out.Len()
			lines := c.Lines()
			_, fenced := c.(*ast.FencedCodeBlock)
			if fenced && lines.Len() > 0 {
				w.fence(lineStart(w.src, lineStart(w.src, lines.At(0).Start)-1)) // the line above the code's
			}
			w.out.WriteString("```\n")
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				// A line of code that looks like a fence would close ours: break it up.
				if l := string(seg.Value(w.src)); strings.HasPrefix(strings.TrimSpace(l), "```") || strings.HasPrefix(strings.TrimSpace(l), "~~~") {
					w.out.WriteString(" ")
				}
				w.copySeg(seg.Start, seg.Stop)
				if !strings.HasSuffix(w.out.String(), "\n") {
					w.out.WriteString("\n")
				}
			}
			if fenced && lines.Len() > 0 {
				w.fence(lines.At(lines.Len() - 1).Stop)
			}
			w.out.WriteString("```\n")
			w.region(start, RegionCode)
			w.out.WriteString("\n")
		case *ast.List:
			w.blankLine()
			if c.IsOrdered() {
				// An ordered list keeps its numbers: "1." says the items are steps, in order.
				n := c.Start
				for item := c.FirstChild(); item != nil; item = item.NextSibling() {
					w.blocks(item, strconv.Itoa(n)+". ")
					n++
				}
			} else {
				w.blocks(c, prefix)
			}
			w.blankLine()
		case *ast.ListItem:
			w.blocks(c, "- ")
		case *ast.Blockquote:
			w.blocks(c, prefix)
		case *extast.Table:
			w.blankLine()
			for r := c.FirstChild(); r != nil; r = r.NextSibling() {
				for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
					if cell != r.FirstChild() {
						w.out.WriteString(" | ")
					}
					w.inlines(cell)
				}
				w.out.WriteString("\n")
			}
			w.out.WriteString("\n")
		case *ast.HTMLBlock:
			w.htmlBlock(c)
		case *ast.ThematicBreak:
			// A rule is nothing to read.
		default:
			w.blocks(c, prefix)
		}
	}
}

// inlines writes the inline content of n: text as it is in the file, code spans marked, links
// and images by their text, raw HTML dropped.
func (w *mdWriter) inlines(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			// Backslash escapes and character references read as what they stand for; such a
			// piece is not the file's bytes, so it is not mapped (it cites the next piece).
			raw := c.Segment.Value(w.src)
			if dec := util.ResolveNumericReferences(util.ResolveEntityNames(util.UnescapePunctuations(raw))); !bytes.Equal(dec, raw) {
				w.out.Write(dec)
			} else {
				w.copySeg(c.Segment.Start, c.Segment.Stop)
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				w.out.WriteString("\n")
			}
		case *ast.String:
			w.out.Write(c.Value)
		case *ast.CodeSpan:
			start := w.out.Len()
			w.inlines(c)
			w.region(start, RegionCode)
		case *ast.AutoLink:
			// <https://…> and <ann@lee.dev> show their address as their text: it is what a
			// reader sees, so it stays prose (a link target hidden behind text is not). The
			// address is mapped to where it sits in the file: unmapped, a fact found in it
			// (an e-mail address in a list of attendees) cited the line of the next piece of
			// text — the next list item.
			url, label := c.URL(w.src), c.Label(w.src)
			i := bytes.Index(w.src[w.lastStop:], label)
			if len(label) == 0 || i < 0 || !bytes.HasSuffix(url, label) {
				w.out.Write(url)
				break
			}
			w.out.Write(url[:len(url)-len(label)]) // a protocol goldmark adds ("http://" before www.)
			at, end := w.lastStop+i, w.lastStop+i+len(label)
			// An address keeps its angle brackets: "Ann Lee <ann@lee.dev>" is how a text writes
			// whose address it is (heuristics.NameBeside), and they are the file's bytes.
			if bytes.IndexByte(label, '@') > 0 && at > 0 && end < len(w.src) && w.src[at-1] == '<' && w.src[end] == '>' {
				at, end = at-1, end+1
			}
			w.copySeg(at, end)
		case *ast.RawHTML:
		default: // emphasis, links, images, strikethrough: their text
			w.inlines(c)
		}
	}
}
