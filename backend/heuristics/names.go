package heuristics

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// NameBeside returns the personal name a text writes beside the e-mail address at
// text[start:end], on the same line: "Daniel Stenberg <daniel@haxx.se>", "Linus Nielsen
// Feltzing (linus@haxx.se)", "daniel@haxx.se (Daniel Stenberg)", or after a label with no
// bracket, "Attendees: Tomás Reyes tomas.reyes@…"; "" when there is none.
// The address is what identifies a person, and without the name beside it every person
// read from a Debian copyright file or a list of authors was shown by address alone.
//
// A name is two to five capitalised words (initials and particles such as "van" or "de"
// inside it allowed) right next to the bracket around the address; a label ("Maintainer:"), a
// year, "(C)" or a comma ends it, so "Copyright: 2011 Jane Roe <j@r.org>" gives "Jane Roe".
func NameBeside(text string, start, end int) string {
	if start < 0 || end > len(text) || start >= end {
		return ""
	}
	lineStart := strings.LastIndexByte(text[:start], '\n') + 1
	lineEnd := len(text)
	if i := strings.IndexByte(text[end:], '\n'); i >= 0 {
		lineEnd = end + i
	}
	if n := nameInRow(text, lineStart, lineEnd, start); n != "" {
		return n
	}
	before := strings.TrimRight(text[lineStart:start], " \t")
	after := strings.TrimLeft(text[end:lineEnd], " \t")
	// Name <addr> or Name (addr); Debian copyright files also write "Name, <addr>".
	if n := len(before); n > 0 && (before[n-1] == '<' || before[n-1] == '(') {
		if name := trailingName(strings.TrimRight(before[:n-1], " ,")); name != "" {
			return name
		}
	}
	// Name addr, with no bracket (plain text, or an HTML mailto link's text): only when the
	// name is all there is since the line's start or a label's colon, a comma or a semicolon
	// ("Attendees: Tomás Reyes tomas.reyes@…"), so that words of a sentence are not taken for
	// a name.
	if seg := before[strings.LastIndexAny(before, ":,;")+1:]; !strings.ContainsAny(seg, "<>()") {
		if n := trailingName(seg); n != "" && n == strings.Join(strings.Fields(seg), " ") {
			return n
		}
	}
	// addr (Name) or <addr> (Name).
	if rest, ok := strings.CutPrefix(strings.TrimLeft(strings.TrimPrefix(after, ">"), " \t"), "("); ok {
		if inner, _, closed := strings.Cut(rest, ")"); closed {
			if n := trailingName(inner); n != "" && n == strings.Join(strings.Fields(inner), " ") {
				return n
			}
		}
	}
	return ""
}

// nameHeaders are the column headings under which a table writes a person's name.
var nameHeaders = map[string]bool{"name": true, "full name": true, "contact": true, "contact name": true, "person": true}

// nameInRow is the name a table row writes in its name column, when the address at
// text[at:] is in a cell of that row: a Markdown table row ("Derek Ashworth | … |
// derek@…") under a header whose cell says "Name", or a spreadsheet row as the CSV reader
// renders it ("name: Jonas Weitkamp | … | email: j.w@…"). A contact list is a table more
// often than prose, and without this every person in one was known by address alone. The
// cell must be a personal name as a whole (see trailingName): a company's name is not one.
func nameInRow(text string, lineStart, lineEnd, at int) string {
	line := text[lineStart:lineEnd]
	if !strings.Contains(line, "|") {
		return ""
	}
	cells := RowCells(line)
	if len(cells) < 2 {
		return ""
	}
	// A rendered spreadsheet row labels each cell with its column.
	for _, c := range cells {
		if k, v, ok := strings.Cut(c, ": "); ok && nameHeaders[strings.ToLower(strings.TrimSpace(k))] {
			return wholeName(v)
		}
	}
	// A Markdown table: its header is the first of the lines above with as many cells,
	// separator rows (|---|:--|) skipped.
	header := ""
	for end := lineStart - 1; end > 0; {
		from := strings.LastIndexByte(text[:end], '\n') + 1
		l := text[from:end]
		if !strings.Contains(l, "|") {
			break
		}
		if strings.Trim(l, " \t|:-") != "" {
			if cellCount(l) != len(cells) {
				break
			}
			header = l
		}
		end = from - 1
	}
	if header == "" {
		return ""
	}
	for i, h := range RowCells(header) {
		if nameHeaders[strings.ToLower(h)] {
			return wholeName(cells[i])
		}
	}
	return ""
}

// cellCount is len(RowCells(line)) without splitting it: the walk up to a table's header reads
// every row above an address.
func cellCount(line string) int { return strings.Count(rowBody(line), "|") + 1 }

// rowBody is a row without its outer pipes, when it is written with them.
func rowBody(line string) string {
	line = strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(line, "|"); ok {
		line = strings.TrimSuffix(rest, "|")
	}
	return line
}

// RowCells are a table row's cells, trimmed. A row written with outer pipes ("| a | b |")
// loses them; one without ("a | b | ", as the Markdown reader renders a row) keeps its last,
// empty cell, so the row has as many cells as its header.
func RowCells(line string) []string {
	cells := strings.Split(rowBody(line), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// wholeName is s when all of it is a personal name, else "".
func wholeName(s string) string {
	if n := trailingName(s); n != "" && n == strings.Join(strings.Fields(s), " ") {
		return n
	}
	return ""
}

// trailingName is the name that ends s (see NameBeside), or "".
func trailingName(s string) string {
	words := strings.Fields(s)
	var name []string
	for i := len(words) - 1; i >= 0 && len(name) < 5; i-- {
		w := words[i]
		switch {
		case nameWord(w):
			name = append(name, w)
			continue
		case len(name) > 0 && nameParticles[w]:
			name = append(name, w)
			continue
		}
		break
	}
	// A particle does not begin a name ("de" in "… de Jong" belongs to it; alone in front it is
	// the text's word).
	for len(name) > 0 && nameParticles[name[len(name)-1]] {
		name = name[:len(name)-1]
	}
	if len(name) < 2 {
		return ""
	}
	for i, j := 0, len(name)-1; i < j; i, j = i+1, j-1 {
		name[i], name[j] = name[j], name[i]
	}
	return strings.Join(name, " ")
}

// nameWord reports a word that can be part of a personal name: capitalised letters (with
// apostrophes and hyphens inside, "O'Brien", "Jean-loup"), or an initial ("J.").
func nameWord(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) || notNames[w] {
		return false
	}
	rest := w[n:]
	if rest == "." {
		return true // an initial
	}
	if rest == "" {
		return false
	}
	letters := 0
	for _, r := range rest {
		switch {
		case unicode.IsLetter(r):
			letters++
		case r == '\'' || r == '’' || r == '-':
		default:
			return false
		}
	}
	return letters > 0
}

// nameParticles may stand inside a name in lower case.
var nameParticles = map[string]bool{"van": true, "von": true, "de": true, "der": true, "den": true, "da": true, "di": true,
	"du": true, "del": true, "della": true, "dos": true, "das": true, "la": true, "le": true, "bin": true, "ibn": true, "al": true, "ten": true, "ter": true}

// notNames are capitalised words that begin a sentence or label a field more often than they
// are part of a name.
var notNames = map[string]bool{"The": true, "A": true, "An": true, "And": true, "Or": true, "Of": true, "For": true, "To": true,
	"By": true, "With": true, "From": true, "See": true, "Contact": true, "Email": true, "E-mail": true, "Mail": true,
	"Write": true, "Send": true, "Thanks": true, "Copyright": true, "Author": true, "Authors": true, "Maintainer": true,
	"Written": true, "Please": true, "Reported": true, "Signed-off-by": true, "Reviewed-by": true, "Cc": true, "Team": true,
	"Project": true, "Foundation": true, "Inc.": true, "Ltd.": true, "Corp.": true, "Corporation": true, "Software": true,
	"University": true, "Group": true, "Developers": true, "Contributors": true, "Others": true, "Debian": true, "Ubuntu": true}
