package extract

import (
	"context"

	"github.com/yuin/goldmark/ast"
)

// htmlBlock writes the text of a raw HTML block of a Markdown file: what a reader of the
// rendered page sees. The Node.js API docs write whole tables as HTML inside Markdown
// (readline.md's "TTY keybindings": every key and what it does), and dropping the block as
// markup left the section a heading alone, found by no search. The block is read by the HTML
// reader itself (tables as rows of " | ", headings, lists, code, scripts and comments left out)
// and its source map moved to where the block stands in the file, so each word cites its own
// line. Comments, processing instructions, declarations and CDATA are not read at all.
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
	// A block is a few lines of one Markdown file, read whole: nothing to cancel or bound.
	doc, err := readHTML(context.Background(), string(w.src[start:stop]), Limits{}.withDefaults())
	if err != nil || doc.Text == "" {
		return
	}
	w.blankLine()
	base := w.out.Len()
	w.out.WriteString(doc.Text)
	if doc.Source != nil {
		for _, s := range doc.Source.Segments {
			w.m.Add(base+s.TextStart, start+s.SourceStart, s.Len)
		}
	}
	for _, r := range doc.Regions {
		w.regions = append(w.regions, Region{Start: base + r.Start, End: base + r.End, Kind: r.Kind})
	}
	w.lastStop = stop
	w.blankLine()
}
