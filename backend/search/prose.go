package search

import (
	"html"
	"regexp"
	"strings"
)

// Prose is what a reader of the rendered page sees of a chunk's text: Markdown and HTML markup
// that the extractor left in (HTML comments, reference definitions, link syntax, emphasis
// marks, tags of HTML elements, heading and list marks, table rules) is removed, and code blocks
// are left out. Chunks keep their source text (line numbers and citations depend on it, and
// chunks stored before the Markdown reader parsed structure hold raw Markdown), so the snippet
// cleans it at display time, for the few results shown. Whitespace is not collapsed.
func Prose(text string) string {
	p, _ := proseParts(text)
	return p
}

var (
	// An HTML comment, or one left open at the chunk's end (a chunk may cut it in two).
	htmlComment = regexp.MustCompile(`(?s)<!--.*?(-->|$)`)
	// The tail of a comment opened in the previous chunk: the chunk starts inside it. The
	// closer must end its line, so that an arrow in prose ("A --> B") is not taken for one.
	commentTail = regexp.MustCompile(`(?s)^[^<]*?-->[ \t]*(\n|$)`)
	// A link reference definition: "[label]: destination" (CommonMark allows 3 spaces of indent).
	refDef = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*\S`)
	// A fence line of a fenced code block.
	fence = regexp.MustCompile("^ {0,3}(```|~~~)")
	// Thematic breaks and table rules ("---", "|---|:--:|").
	rule      = regexp.MustCompile(`^\s*([-*_=]\s*){3,}$`)
	tableRule = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$`)
	// Line prefixes: ATX heading marks, block quotes, list bullets.
	headingMark = regexp.MustCompile(`^ {0,3}#{1,6}(\s+|$)`)
	quoteMark   = regexp.MustCompile(`^ {0,3}(>\s?)+`)
	bulletMark  = regexp.MustCompile(`^\s*[-*+]\s+`)
	// Inline: images and links keep their text; reference links "[text][label]" and "[text][]"
	// too; autolinks "<https://…>" keep the address.
	image    = regexp.MustCompile(`!\[([^\]]*)\]\([^)\s]*(\s+"[^"]*")?\)`)
	link     = regexp.MustCompile(`\[([^\]]+)\]\([^)\s]*(\s+"[^"]*")?\)`)
	refLink  = regexp.MustCompile(`\[([^\]]+)\]\[[^\]]*\]`)
	autolink = regexp.MustCompile(`<((https?|mailto):[^<>\s]+)>`)
	// Code spans keep their content without the backticks.
	codeSpan = regexp.MustCompile("(`+)([^`]+?)(`+)")
	// Strong and emphasis marks around words; a mark inside a word (snake_case) is not one, and
	// "__" is left alone: in plain text and code it is Python's __init__ far more often than
	// Markdown's rarer spelling of **strong**.
	strong   = regexp.MustCompile(`\*\*([^*\s](?:[^*]*[^*\s])?)\*\*`)
	emphasis = regexp.MustCompile(`(^|[\s(\["'])[*_]([^*_\s](?:[^*_]*[^*_\s])?)[*_]([\s)\]"'.,;:!?]|$)`)
	// A backslash escape of ASCII punctuation ("SSL\_get", "\<string\[]>").
	escaped = regexp.MustCompile("\\\\([!-/:-@\\[-`{-~])")
	// Tags of HTML elements. Only element names, and in lower case, so that generics in code
	// (Vec<String>, Option<T>) and comparisons (a < b) stay as they are.
	htmlTag = regexp.MustCompile(`</?(a|abbr|b|br|code|dd|del|details|div|dl|dt|em|h[1-6]|hr|i|img|ins|kbd|li|ol|p|pre|s|small|span|strong|sub|summary|sup|table|tbody|td|th|thead|tr|u|ul)(\s[^<>]*)?/?>`)
)

// proseParts splits text into its prose (markup removed, see Prose) and its code blocks.
func proseParts(text string) (prose, code string) {
	if m := commentTail.FindString(text); m != "" {
		text = strings.Repeat("\n", strings.Count(m, "\n")) + text[len(m):] // keep line structure
	}
	text = htmlComment.ReplaceAllStringFunc(text, func(c string) string {
		return strings.Repeat("\n", strings.Count(c, "\n")) // keep line structure
	})
	var p, c, para strings.Builder
	// Inline markup is removed per paragraph, not per line: a link's text is often wrapped
	// ("[Chrome's 'modern\ncryptography' setting][]").
	flush := func() {
		p.WriteString(inline(para.String()))
		para.Reset()
	}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if fence.MatchString(line) {
			flush()
			inFence = !inFence
			continue
		}
		if inFence {
			c.WriteString(line + "\n")
			continue
		}
		if refDef.MatchString(line) || rule.MatchString(line) || tableRule.MatchString(line) || strings.TrimSpace(line) == "" {
			flush()
			p.WriteString("\n")
			continue
		}
		para.WriteString(blockMarks(line) + "\n")
	}
	flush()
	return p.String(), c.String()
}

// blockMarks removes the marks that open a line: heading, block quote, list bullet, table pipes.
func blockMarks(line string) string {
	line = headingMark.ReplaceAllString(line, "")
	line = quoteMark.ReplaceAllString(line, "")
	line = bulletMark.ReplaceAllString(line, "")
	if t := strings.TrimSpace(line); strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|") {
		line = strings.ReplaceAll(strings.Trim(t, "|"), "|", " · ")
	}
	return line
}

// inline removes the inline markup of a paragraph.
func inline(text string) string {
	text = image.ReplaceAllString(text, "$1")
	text = link.ReplaceAllString(text, "$1")
	text = refLink.ReplaceAllString(text, "$1")
	text = autolink.ReplaceAllString(text, "$1")
	text = codeSpan.ReplaceAllString(text, "$2")
	text = strong.ReplaceAllString(text, "$1")
	text = emphasis.ReplaceAllString(text, "$1$2$3")
	text = htmlTag.ReplaceAllString(text, " ")
	text = escaped.ReplaceAllString(text, "$1")
	if strings.Contains(text, "&") {
		text = html.UnescapeString(text)
	}
	return text
}
