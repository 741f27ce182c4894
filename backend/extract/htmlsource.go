package extract

import (
	"bytes"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// x/net/html's parser gives its nodes no positions, yet a citation must land on the file's own
// line (an HTML chapter's extracted text is a third of the file's lines: the Rust book's
// ch09-02 cites line 219 of the text for what is line 488 of the file). The positions are
// recovered in two steps, both tolerant, so a page the parser rearranges loses precision, never
// text:
//
//  1. The tokenizer walks the same source and reports each token's raw length, so every text
//     token has its byte range. The parser builds its text nodes from those tokens in order
//     (merging neighbours, dropping a <pre>'s first newline, moving stray table text), so the
//     tree's text nodes, in document order, are matched to runs of text tokens by their first
//     word.
//  2. The reader records which text nodes it read, in order; each of their words is found in
//     the node's byte range, and the words of the extracted Text are aligned to that word list.
//     Words the reader made up (heading '#', list '-', fences, " | ") or glued across tags find
//     no partner and map to the next word that did.

// nodeSpan is the byte range of the source that a text node was parsed from.
type nodeSpan struct{ start, end int }

// textNodeSpans maps the tree's text nodes to their source byte ranges.
func textNodeSpans(source string, root *html.Node) map[*html.Node]nodeSpan {
	type tok struct {
		start, end int
		first      string // first word of the decoded data
	}
	var toks []tok
	z := html.NewTokenizer(strings.NewReader(source))
	off := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		n := len(z.Raw())
		if tt == html.TextToken {
			if f := firstWordBytes(z.Text()); f != "" {
				toks = append(toks, tok{off, off + n, f})
			}
		}
		off += n
	}
	spans := map[*html.Node]nodeSpan{}
	cur := 0
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode || c.Type == html.DocumentNode {
				visit(c)
				continue
			}
			if c.Type != html.TextNode {
				continue
			}
			f := firstWord(c.Data)
			if f == "" {
				continue
			}
			// Look a little ahead: the parser may have moved or dropped a token (foster
			// parenting, text after </body>); further than that, the node stays unmapped.
			for k := cur; k < len(toks) && k < cur+64; k++ {
				if toks[k].first != f {
					continue
				}
				// A node may be several tokens merged: take tokens while their words fit.
				end, j, words := toks[k].end, k+1, countFields(c.Data)
				for seen := countFields(source[toks[k].start:toks[k].end]); j < len(toks) && seen < words; j++ {
					seen += countFields(source[toks[j].start:toks[j].end])
					end = toks[j].end
				}
				spans[c] = nodeSpan{toks[k].start, end}
				cur = j
				break
			}
		}
	}
	visit(root)
	return spans
}

// firstWord is strings.FieldsFunc(s, isSpaceSep)[0] ("" when there is none) without building
// the list of every word: it runs once per text node and token, and on a whole book on one
// page (1.9 MB) the lists were a fifth of the reader's time.
func firstWord(s string) string {
	w, _ := nextWord(s)
	return w
}

// nextWord splits the first word (by isSpaceSep) off s: the words of strings.FieldsFunc one
// at a time, without the list.
func nextWord(s string) (word, rest string) {
	i := strings.IndexFunc(s, notSpaceSep)
	if i < 0 {
		return "", ""
	}
	s = s[i:]
	j := strings.IndexFunc(s, isSpaceSep)
	if j < 0 {
		return s, ""
	}
	return s[:j], s[j:]
}

// firstWordBytes is firstWord of a tokenizer's bytes, copying only the word.
func firstWordBytes(b []byte) string {
	i := bytes.IndexFunc(b, notSpaceSep)
	if i < 0 {
		return ""
	}
	b = b[i:]
	if j := bytes.IndexFunc(b, isSpaceSep); j >= 0 {
		return string(b[:j])
	}
	return string(b)
}

// countFields is len(strings.Fields(s)) without building the list.
func countFields(s string) int {
	n, in := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

func notSpaceSep(r rune) bool { return !isSpaceSep(r) }

// isSpaceSep is the separator set of collapseSpace, so words split the same on both sides.
func isSpaceSep(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\u00a0' || r == '\u200b'
}

// srcWord is one word of the source with its byte offset; words spelled with character
// references (&amp;) are not found verbatim and are left out.
type srcWord struct {
	w   string
	off int
}

// wordsOf lists the words of the nodes the reader read, in reading order, with their offsets.
func wordsOf(source string, nodes []*html.Node, spans map[*html.Node]nodeSpan) []srcWord {
	// About one word per 6 bytes of HTML at most: growing the list cost more than filling it.
	out := make([]srcWord, 0, len(source)/6)
	last := 0 // end of the last text node placed
	for _, n := range nodes {
		sp, ok := spans[n]
		data := n.Data
		if n.Type == html.ElementNode {
			// An image's alt text: its words are in the <img> tag, the next one after the text
			// read before it.
			data = attr(n, "alt")
			i := strings.Index(source[last:], "<"+n.Data)
			if i < 0 {
				continue
			}
			end := strings.IndexByte(source[last+i:], '>')
			if end < 0 {
				continue
			}
			sp, ok = nodeSpan{last + i, last + i + end}, true
		}
		if !ok {
			continue
		}
		last = sp.end
		at := sp.start
		for rest := data; ; {
			var w string
			if w, rest = nextWord(rest); w == "" {
				break
			}
			if i := strings.Index(source[at:sp.end], w); i >= 0 {
				out = append(out, srcWord{w, at + i})
				at += i + len(w)
			} else if frag, fi := plainRun(w); len(frag) >= 3 {
				// Spelled with a character reference ("&#x3C;node.h>" reads "<node.h>"):
				// found by its longest piece that cannot be one, placed where the word starts.
				if i := strings.Index(source[at:sp.end], frag); i >= 0 {
					out = append(out, srcWord{w, max(at, at+i-fi)})
					at += i + len(frag)
				}
			}
		}
	}
	return out
}

// alignWords builds the source map: each word of text is matched to the next equal word of the
// source list, looking a bounded distance ahead so a made-up word cannot pull the cursor away.
func alignWords(text, source string, words []srcWord) *SourceMap {
	m := NewSourceMap(source)
	const lookahead = 64
	type tw struct{ start, end int }
	tws := make([]tw, 0, len(text)/6)
	for i := 0; i < len(text); {
		for i < len(text) && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t') {
			i++
		}
		j := i
		for j < len(text) && text[j] != ' ' && text[j] != '\n' && text[j] != '\t' {
			j++
		}
		// Markers the reader writes (heading '#', list '-', fences, table " | ") are not
		// words of the file: left out, they cannot break the pair test below.
		if j > i && strings.Trim(text[i:j], "#-|`") != "" {
			tws = append(tws, tw{i, j})
		}
		i = j
	}
	m.Segments = make([]SourceSegment, 0, len(tws))
	cur := 0
	for i, t := range tws {
		w := text[t.start:t.end]
		// A word whose first part is not a source word (spelled with a character reference:
		// "&#x3C;Request>" reads "<Request>") but which ends in the punctuation the cursor is
		// on ("." after the link) maps that end: the word is on its line, and the "." is not
		// left for a later word to take.
		if cur < len(words) && len(w) > len(words[cur].w) && !hasWordRune(words[cur].w) && strings.HasSuffix(w, words[cur].w) &&
			!strings.HasPrefix(w, words[cur].w) {
			m.Add(t.end-len(words[cur].w), words[cur].off, len(words[cur].w))
			cur++
			continue
		}
		for k := cur; k < len(words) && k < cur+lookahead; k++ {
			if !strings.HasPrefix(w, words[k].w) {
				continue
			}
			// A word glued across tags ("<code>isTTY</code><a>#</a>" reads "isTTY#") is
			// several source words whose concatenation is the word.
			j, rest := k+1, w[len(words[k].w):]
			for rest != "" && j < len(words) && words[j].w != "" && strings.HasPrefix(rest, words[j].w) {
				rest = rest[len(words[j].w):]
				j++
			}
			// Source words of punctuation alone ("." after a link, "#" of an anchor) that the
			// text glued to a neighbour are passed over as if the cursor were on k: left in
			// place, the "." ending one paragraph took the "...args" of the next heading, and
			// the heading cited the line before it.
			atCursor := k == cur || punctuationOnly(words[cur:k])
			switch {
			case rest == "" && (j-k > 1 || atCursor):
			case rest == "" && i+1 < len(tws) && j < len(words) && words[j].w == text[tws[i+1].start:tws[i+1].end]:
				// Skipping source words is only trusted when the next word agrees too: a
				// common word ("the", "s1") from alt text or a made-up marker would otherwise
				// pull the cursor ahead, and every later word would land too far down the file.
			case atCursor && hasWordRune(words[k].w):
				j = k + 1 // a partial match where the cursor expects it: map its first part
			default:
				continue
			}
			// Each piece of a glued word maps to its own place: mapped by its first piece
			// alone, the rest of "args.GetIsolate();" took the next word's place, on the next
			// line of a code block.
			for p, at := k, t.start; p < j; p++ {
				m.Add(at, words[p].off, len(words[p].w))
				at += len(words[p].w)
			}
			cur = j
			break
		}
	}
	return m
}

// punctuationOnly reports whether every word of ws has no letter or digit.
func punctuationOnly(ws []srcWord) bool {
	for _, w := range ws {
		if hasWordRune(w.w) {
			return false
		}
	}
	return true
}

// hasWordRune reports whether s has a letter or a digit.
func hasWordRune(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// plainRun is the longest run of w without a character HTML may spell as a reference (<, >, &,
// quotes, anything not ASCII), and its byte index in w.
func plainRun(w string) (string, int) {
	best, at, start := "", 0, -1
	for i := 0; i <= len(w); i++ {
		plain := i < len(w) && w[i] < 0x80 && !strings.ContainsRune(`<>&"'`, rune(w[i]))
		switch {
		case plain && start < 0:
			start = i
		case !plain && start >= 0:
			if i-start > len(best) {
				best, at = w[start:i], start
			}
			start = -1
		}
	}
	return best, at
}
