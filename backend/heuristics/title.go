package heuristics

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Title finds the title of a text that declares none (plain text, PDF and Word files without
// metadata): the first line, among the first few, that stands alone as a heading — short, a
// paragraph of its own (or underlined), not a sentence, not a pointer ("See README.md"), not
// an address, a changelog entry or an editor mode line. It returns "" when no line qualifies,
// and the caller falls back to the file name: no title is better than a wrong one.
//
// In a paged document (kind pdf or docx) lines are layout, not paragraphs: there the first
// title-like line among the first three is taken.
func Title(kind, text string) string {
	paged := kind == "pdf" || kind == "docx"
	lines := strings.Split(text[:min(len(text), 8192)], "\n")
	seen := 0
	for i := 0; i < len(lines) && seen < 6; i++ {
		l := cleanTitleLine(lines[i])
		if l == "" {
			continue
		}
		seen++
		if paged {
			if titleLike(l) {
				return l
			}
			if seen == 3 {
				return ""
			}
			continue
		}
		if prev := ""; i > 0 {
			prev = strings.TrimSpace(lines[i-1])
			if prev != "" && strings.Trim(prev, "=-~*^") != "" { // inside a paragraph (an overline is not)
				continue
			}
		}
		next := ""
		if i+1 < len(lines) {
			next = strings.TrimSpace(lines[i+1])
		}
		underline := next != "" && strings.Trim(next, "=-~*") == ""
		if next != "" && !underline { // wraps into a paragraph: a sentence, not a heading
			continue
		}
		if titleLike(l) {
			return l
		}
	}
	return ""
}

// cleanTitleLine trims a line, its Markdown heading marks, an editor mode line (-*- … -*-)
// and bracketed status notes.
func cleanTitleLine(l string) string {
	l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
	if i := strings.Index(l, "-*-"); i >= 0 {
		l = strings.TrimSpace(l[:i])
	}
	return l
}

func titleLike(l string) bool {
	n := utf8.RuneCountInString(l)
	words := strings.Fields(l)
	last, _ := utf8.DecodeLastRuneInString(l)
	first, _ := utf8.DecodeRuneInString(l)
	lower := strings.ToLower(l)
	switch {
	case n < 3 || n > 80 || len(words) > 12:
		return false
	case strings.Trim(l, "=-~*_#+. ") == "": // a rule
		return false
	case strings.ContainsRune(",;:", last) || strings.HasSuffix(l, "..."): // continues below
		return false
	case last == '.': // a sentence, or the end of one
		return false
	case strings.Contains(l, "@") || strings.Contains(l, "://") || strings.Contains(lower, "urgency="): // an address or a changelog entry
		return false
	case strings.HasPrefix(lower, "see ") || strings.HasPrefix(lower, "please ") || strings.HasPrefix(lower, "note:"):
		return false
	case first == '[' || first == '(' || first == '<' || first == '!' || first == '|' || first == '`':
		return false
	case !unicode.IsLetter(first) && !unicode.IsDigit(first):
		return false
	}
	return true
}
