package extract

import (
	"context"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTML is read with golang.org/x/net/html alone rather than a Readability port:
// github.com/go-shiori/go-readability is deprecated by its authors and drags in an archived YAML
// library, and Readability's scoring is tuned for news articles; on documentation pages and
// tables it drops real content, and for a search index losing text is worse than keeping a
// little chrome. Instead the reader prefers <main> (or a single <article>) when the page has
// one, and drops the elements HTML itself marks as not-content (nav, aside, header and footer
// outside an article, forms, scripts) plus common cookie/ad/share blocks.

// skipTags never hold document text.
var skipTags = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Nav: true,
	atom.Aside: true, atom.Form: true, atom.Iframe: true, atom.Object: true, atom.Embed: true,
	atom.Svg: true, atom.Math: true, atom.Canvas: true, atom.Button: true, atom.Select: true,
	atom.Textarea: true, atom.Input: true, atom.Dialog: true, atom.Head: true, atom.Audio: true,
	atom.Video: true, atom.Map: true,
}

// blockTags end the paragraph being collected.
var blockTags = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true,
	atom.Blockquote: true, atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Figure: true,
	atom.Figcaption: true, atom.Address: true, atom.Details: true, atom.Summary: true,
	atom.Center: true, atom.Body: true, atom.Hr: true, atom.Header: true, atom.Footer: true,
	atom.Caption: true, atom.Fieldset: true, atom.Legend: true, atom.Ul: true, atom.Ol: true,
}

// boilerplateRoles are ARIA landmarks that are not the document's content.
var boilerplateRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true, "search": true,
	"menu": true, "menubar": true, "dialog": true, "alertdialog": true, "toolbar": true,
}

// boilerplateClassTokens match whole class/id tokens; boilerplateClassParts match inside one.
var boilerplateClassTokens = map[string]bool{
	"nav": true, "navbar": true, "menu": true, "sidebar": true, "ad": true, "ads": true,
	"advert": true, "advertisement": true, "popup": true, "modal": true, "toc-sidebar": true,
}
var boilerplateClassParts = []string{"cookie", "consent", "gdpr", "newsletter", "sponsor", "breadcrumb", "skip-link", "share-", "social-", "sharing"}

type htmlReader struct {
	out       strings.Builder
	para      strings.Builder // inline text of the paragraph being collected
	limit     int
	truncated bool
	firstH1   string
	nodes     int
	items     []*listItem  // open <li> elements, innermost last
	used      []*html.Node // text nodes (and images) read, in reading order, for the source map
	regions   []Region     // code and headings in the text written so far
	ctx       context.Context
	err       error
}

func readHTML(ctx context.Context, text string, lim Limits) (*Document, error) {
	root, err := html.Parse(strings.NewReader(text))
	if err != nil { // x/net/html recovers from any markup; this is only a reader error
		return nil, analysisFailed(err, "", "the HTML could not be parsed")
	}
	doc := &Document{Meta: map[string]any{}}
	r := &htmlReader{limit: int(lim.MaxTextBytes), ctx: ctx}
	var head, body *html.Node
	walkElements(root, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Html:
			if lang := attr(n, "lang"); lang != "" {
				doc.Meta["lang"] = lang
			}
		case atom.Head:
			head = n
			return false
		case atom.Body:
			body = n
			return false
		}
		return true
	})
	if head != nil {
		readHTMLHead(head, doc)
	}
	content := body
	if content == nil {
		content = root
	}
	if m := mainContent(content); m != nil {
		content = m
	}
	r.walk(content, false)
	r.endBlock()
	if r.err != nil {
		return nil, r.err
	}
	doc.Text = strings.TrimRight(r.out.String(), "\n")
	if doc.Text != "" {
		doc.Text += "\n"
	}
	doc.Source = alignWords(doc.Text, text, wordsOf(text, r.used, textNodeSpans(text, root)))
	doc.Regions = mergeRegions(r.regions, len(doc.Text))
	if doc.Title == "" {
		doc.Title = r.firstH1
	}
	if r.truncated {
		doc.Meta["truncated"] = true
	}
	return doc, nil
}

func readHTMLHead(head *html.Node, doc *Document) {
	walkElements(head, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Title:
			if doc.Title == "" {
				doc.Title = collapseSpace(textOf(n))
			}
		case atom.Meta:
			name := strings.ToLower(attr(n, "name"))
			if name == "" {
				name = strings.ToLower(attr(n, "property"))
			}
			content := strings.TrimSpace(attr(n, "content"))
			switch name {
			case "description", "author", "keywords":
				if content != "" {
					doc.Meta[name] = content
				}
			case "og:title":
				if content != "" {
					doc.Meta["og_title"] = content
				}
			}
		}
		return true
	})
	if doc.Title == "" {
		if t, ok := doc.Meta["og_title"].(string); ok {
			doc.Title = t
		}
	}
}

// mainContent returns the page's <main> (or role=main), else its only <article>, else nil.
func mainContent(root *html.Node) *html.Node {
	var main *html.Node
	var articles []*html.Node
	walkElements(root, func(n *html.Node) bool {
		if main != nil {
			return false
		}
		if n.DataAtom == atom.Main || attr(n, "role") == "main" {
			main = n
			return false
		}
		if n.DataAtom == atom.Article {
			articles = append(articles, n)
			return false
		}
		return !skipTags[n.DataAtom]
	})
	if main != nil {
		return main
	}
	if len(articles) == 1 {
		return articles[0]
	}
	return nil
}

// walkElements visits element nodes depth first; f returns false to skip a node's children.
func walkElements(n *html.Node, f func(*html.Node) bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			if !f(c) {
				continue
			}
		}
		walkElements(c, f)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// boilerplate reports elements that are chrome rather than content.
func boilerplate(n *html.Node, inArticle bool) bool {
	if skipTags[n.DataAtom] {
		return true
	}
	if (n.DataAtom == atom.Header || n.DataAtom == atom.Footer) && !inArticle {
		return true
	}
	if permalink(n) {
		return true
	}
	if _, hidden := attrOK(n, "hidden"); hidden || attr(n, "aria-hidden") == "true" {
		return true
	}
	if role := attr(n, "role"); boilerplateRoles[role] && !(role == "banner" && inArticle) {
		return true
	}
	if st := strings.ReplaceAll(strings.ToLower(attr(n, "style")), " ", ""); strings.Contains(st, "display:none") {
		return true
	}
	for _, tok := range strings.Fields(strings.ToLower(attr(n, "class") + " " + attr(n, "id"))) {
		if boilerplateClassTokens[tok] {
			return true
		}
		for _, p := range boilerplateClassParts {
			if strings.Contains(tok, p) {
				return true
			}
		}
	}
	return false
}

// permalink reports a heading's link to itself shown as a mark ("#", "¶", "§"): the Node.js
// docs end every heading with <a class="mark" href="#readline">#</a>, which read "Readline#" in
// headings and "TTY keybindings# Keybindings" in snippets.
func permalink(n *html.Node) bool {
	if n.DataAtom != atom.A || !strings.HasPrefix(attr(n, "href"), "#") {
		return false
	}
	c := n.FirstChild
	if c == nil || c.NextSibling != nil || c.Type != html.TextNode {
		return false
	}
	switch strings.TrimSpace(c.Data) {
	case "#", "¶", "§", "🔗", "⚓":
		return true
	}
	return false
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func (r *htmlReader) full() bool {
	if r.out.Len()+r.para.Len() >= r.limit {
		r.truncated = true
		return true
	}
	return false
}

func (r *htmlReader) walk(n *html.Node, inArticle bool) {
	for c := n.FirstChild; c != nil && r.err == nil && !r.full(); c = c.NextSibling {
		r.nodes++
		if r.nodes%4096 == 0 {
			if err := r.ctx.Err(); err != nil {
				r.err = err
				return
			}
		}
		switch c.Type {
		case html.TextNode:
			r.used = append(r.used, c)
			// Line breaks in the source are just spaces; only <br> breaks a line.
			r.para.WriteString(strings.Map(func(r rune) rune {
				if r == '\n' || r == '\r' {
					return ' '
				}
				return r
			}, c.Data))
		case html.ElementNode:
			r.element(c, inArticle)
		}
	}
}

func (r *htmlReader) element(n *html.Node, inArticle bool) {
	if boilerplate(n, inArticle) {
		return
	}
	a := n.DataAtom
	switch {
	case headingLevel(a) > 0:
		r.endBlock()
		t := collapseSpace(r.textOf(n))
		if t == "" {
			return
		}
		if a == atom.H1 && r.firstH1 == "" {
			r.firstH1 = t
		}
		r.blankLine()
		start := r.out.Len()
		r.out.WriteString(strings.Repeat("#", headingLevel(a)) + " " + t)
		r.regions = append(r.regions, Region{Start: start, End: r.out.Len(), Kind: RegionHeading})
		r.out.WriteString("\n\n")
	case a == atom.Code || a == atom.Kbd || a == atom.Samp || a == atom.Tt:
		// Inline code goes through the paragraph's whitespace folding, which would lose its
		// offsets: marks around it are turned into a region when the paragraph is written.
		r.para.WriteRune(codeOpen)
		r.walk(n, inArticle)
		r.para.WriteRune(codeClose)
	case a == atom.Br:
		r.para.WriteByte('\n')
	case a == atom.Li:
		r.endBlock() // text before the item belongs to the enclosing item or paragraph
		r.items = append(r.items, &listItem{})
		r.walk(n, inArticle)
		r.endBlock()
		r.items = r.items[:len(r.items)-1]
	case a == atom.Pre:
		r.endBlock()
		r.blankLine()
		code := strings.Trim(r.textOf(n), "\n")
		code = strings.ReplaceAll(code, "```", "` ` `") // keep our fence closed
		start := r.out.Len()
		r.out.WriteString("```\n" + code + "\n```\n")
		r.regions = append(r.regions, Region{Start: start, End: r.out.Len(), Kind: RegionCode})
		r.out.WriteString("\n")
	case a == atom.Table:
		r.endBlock()
		r.blankLine()
		r.table(n)
		r.blankLine()
	case a == atom.Img:
		// alt text of content images is often the only description; decorative ones have none.
		if alt := collapseSpace(attr(n, "alt")); alt != "" {
			r.used = append(r.used, n)
			r.para.WriteString(" " + alt + " ")
		}
	case (a == atom.Ul || a == atom.Ol) && len(r.items) == 0:
		r.endBlock()
		r.blankLine() // a list is its own block, apart from the paragraph before it
		r.walk(n, inArticle)
		r.endBlock()
	case a == atom.Ul || a == atom.Ol:
		r.endBlock()
		r.walk(n, inArticle)
	case blockTags[a]:
		r.endBlock()
		r.walk(n, inArticle || a == atom.Article || a == atom.Main)
		r.endBlock()
	default:
		r.walk(n, inArticle)
	}
}

// table writes one line per row, cells separated by " | ".
func (r *htmlReader) table(t *html.Node) {
	var rows func(n *html.Node)
	rows = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || boilerplate(c, true) {
				continue
			}
			switch c.DataAtom {
			case atom.Tr:
				var cells []string
				for td := c.FirstChild; td != nil; td = td.NextSibling {
					if td.Type == html.ElementNode && (td.DataAtom == atom.Td || td.DataAtom == atom.Th) {
						cells = append(cells, collapseSpace(r.textOf(td)))
					}
				}
				if strings.Join(cells, "") != "" {
					r.out.WriteString(strings.Join(cells, " | ") + "\n")
				}
			case atom.Caption:
				if s := collapseSpace(r.textOf(c)); s != "" {
					r.out.WriteString(s + "\n")
				}
			case atom.Thead, atom.Tbody, atom.Tfoot:
				rows(c)
			}
		}
	}
	rows(t)
}

// listItem is an open <li>: its first line gets the "- " marker, later blocks are indented.
type listItem struct{ started bool }

// endBlock writes the collected inline text as a paragraph, or as a line of the innermost list
// item, indented by nesting depth.
func (r *htmlReader) endBlock() {
	n := len(r.items)
	if n == 0 {
		r.flush("")
		return
	}
	it := r.items[n-1]
	prefix := strings.Repeat("  ", n-1) + "- "
	if it.started {
		prefix = strings.Repeat("  ", n)
	}
	if r.flush(prefix) {
		it.started = true
	}
}

// flush writes the collected inline text as a paragraph, or with prefix as a list line; it
// reports whether there was any text.
func (r *htmlReader) flush(prefix string) bool {
	raw := r.para.String()
	r.para.Reset()
	var lines []string
	for _, l := range strings.Split(raw, "\n") {
		if l = collapseSpace(l); strings.Trim(l, " \uE000\uE001") != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return false
	}
	if prefix == "" {
		r.blankLine()
	} else {
		r.newLine()
	}
	r.writeMarked(prefix + strings.Join(lines, "\n"+strings.Repeat(" ", len(prefix))) + "\n")
	return true
}

// Private-use runes mark inline code inside the paragraph being collected.
const codeOpen, codeClose = '\uE000', '\uE001'

// writeMarked writes s without its code marks and records the marked stretches as regions.
func (r *htmlReader) writeMarked(s string) {
	open := -1
	for _, c := range s {
		switch c {
		case codeOpen:
			if open < 0 {
				open = r.out.Len()
			}
		case codeClose:
			if open >= 0 && r.out.Len() > open {
				r.regions = append(r.regions, Region{Start: open, End: r.out.Len(), Kind: RegionCode})
			}
			open = -1
		default:
			r.out.WriteRune(c)
		}
	}
	if open >= 0 && r.out.Len() > open {
		r.regions = append(r.regions, Region{Start: open, End: r.out.Len(), Kind: RegionCode})
	}
}

func (r *htmlReader) newLine() {
	if s := r.out.String(); s != "" && !strings.HasSuffix(s, "\n") {
		r.out.WriteByte('\n')
	}
}

func (r *htmlReader) blankLine() { endBlock(&r.out) }

func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// textOf is the package textOf that records the nodes read for the source map.
func (r *htmlReader) textOf(n *html.Node) string {
	return textOfVisit(n, func(t *html.Node) { r.used = append(r.used, t) })
}

func textOf(n *html.Node) string { return textOfVisit(n, nil) }

// textOfVisit concatenates the text under n, skipping scripts, other non-content elements and
// a heading's permalink mark;
// visit, if not nil, sees each text node read.
func textOfVisit(n *html.Node, visit func(*html.Node)) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				if visit != nil {
					visit(c)
				}
				b.WriteString(c.Data)
			case html.ElementNode:
				if skipTags[c.DataAtom] || permalink(c) {
					continue
				}
				if c.DataAtom == atom.Br {
					b.WriteByte('\n')
				}
				if blockTags[c.DataAtom] || c.DataAtom == atom.Li || c.DataAtom == atom.Td || c.DataAtom == atom.Th {
					b.WriteByte(' ')
				}
				rec(c)
			}
		}
	}
	rec(n)
	return b.String()
}

// collapseSpace folds runs of whitespace (including non-breaking spaces) into single spaces.
func collapseSpace(s string) string {
	// strings.Join(strings.FieldsFunc(s, isSpaceSep), " "), in one pass without the list
	// (a tenth of the reader's time on a whole book on one page).
	var b strings.Builder
	b.Grow(len(s))
	for rest := s; ; {
		var w string
		if w, rest = nextWord(rest); w == "" {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// mergeRegions sorts regions, clips them to the text and drops those inside an earlier one
// (code inside a heading is part of the heading), so they do not overlap.
func mergeRegions(rs []Region, n int) []Region {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	var out []Region
	for _, x := range rs {
		x.End = min(x.End, n)
		if x.Start >= x.End {
			continue
		}
		if len(out) > 0 && x.Start < out[len(out)-1].End {
			continue
		}
		out = append(out, x)
	}
	return out
}
