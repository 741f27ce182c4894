package enrich

import (
	"hash/fnv"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// A document's names are what a reader takes as the evidence that two texts are about the
// same things: the proper nouns they use (a project, a vendor, a person, a place, an invoice
// number, an API's identifier). Two notes that look alike by their vectors share words; two
// that name Lantern, Kestrel Digital and Priya Raman are about the same project. A name is a
// word the text writes with a capital where a sentence does not start, never writes in lower
// case, and that is not a calendar word; lines written in capitals (a licence's disclaimer, a
// heading in capitals) are shouting, not naming, and are left out.

// maxDocNames bounds the names a document contributes (the first ones): a document's work is
// bounded whatever its size.
const maxDocNames = 200

// maxNameLines bounds the uses kept per name (their contexts), to tell a name used in a
// document's own words from one only inside a passage copied into another.
const maxNameLines = 8

// docName is one name of a document: its key (lower case), as first written, and the hashes of
// the lines it is used on.
type docName struct {
	key   string
	shown string
	lines []uint64
}

// calendarWords are month and weekday names: capitalised in English, names of nothing.
var calendarWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`january february march april may june july august september october november december
		jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday
		mon tue tues wed thu thur thurs fri sat sun`) {
		calendarWords[w] = true
	}
}

// nameTokens splits a line into tokens: a letter, then letters, digits, hyphens and apostrophes
// (Jean-Loup, O'Neill, INV-10482, IPv4Addr); it reports for each whether a sentence starts
// there (start: at the line's first token) and returns whether the line ends one.
func nameTokens(line string, fn func(tok string, start bool)) bool {
	return nameTokensFrom(line, true, fn)
}

func nameTokensFrom(line string, start bool, fn func(tok string, start bool)) bool {
	rs := []rune(line)
	for i := 0; i < len(rs); {
		r := rs[i]
		if !unicode.IsLetter(r) {
			switch r {
			case '.', '!', '?', ')', ';':
				// not ':' — "Owner: Marisol Vega", "Present: Priya Raman". After a closing bracket
				// or a semicolon a capital is most often a description after a signature
				// ("xsltFree (ctxt) Frees the context") or a statement after code; a name used there
				// is used elsewhere too.
				if i+1 >= len(rs) || unicode.IsSpace(rs[i+1]) {
					start = true
				}
			}
			if unicode.IsDigit(r) {
				for i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i])) {
					i++
				}
				start = false
				continue
			}
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '-' || rs[j] == '\'' || rs[j] == '’') {
			j++
		}
		tok := strings.TrimRight(string(rs[i:j]), "-'’")
		fn(tok, start)
		start = false
		i = j
	}
	return start
}

// lineBody strips a line's Markdown furniture: heading marks, list bullets and numbers, quote
// marks, table pipes; marked reports whether it had any (a list item starts a sentence).
func lineBody(line string) (body string, marked bool) {
	s := strings.TrimSpace(line)
	for {
		t := strings.TrimLeft(s, "#>*-+| \t")
		if i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) }); i > 0 && i < len(t) && (t[i] == '.' || t[i] == ')') {
			t = strings.TrimSpace(t[i+1:])
		}
		if t == s {
			return s, marked
		}
		s, marked = t, true
	}
}

// shouting reports whether a line is written in capitals (most of its letters, at least 8).
func shouting(line string) bool {
	letters, upper := 0, 0
	for _, r := range line {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	return letters >= 8 && upper*10 > letters*6
}

// titleCase reports whether a line is a title: most of its words capitalised, joined by small
// words written in lower case ("Referring to Paths in the Module Tree"), no commas, no sentence
// end. There the capitals mark the title, not names; a list of names ("Priya Raman, Tomas
// Ferreira") has commas, a sentence ends with its mark.
func titleCase(line string) bool {
	l := strings.TrimSpace(line)
	if strings.Contains(l, ",") || strings.HasSuffix(l, ".") || strings.HasSuffix(l, "!") || strings.HasSuffix(l, "?") {
		return false // a list of names, or a sentence
	}
	words, caps, joins := 0, 0, 0
	nameTokens(line, func(tok string, _ bool) {
		r := []rune(tok)
		if len(r) < 4 {
			if unicode.IsLower(r[0]) {
				joins++
			}
			return
		}
		words++
		if unicode.IsUpper(r[0]) {
			caps++
		}
	})
	return words >= 2 && joins > 0 && caps*10 >= words*7
}

// unquoted removes what a line quotes: a title cited in running text ("see “Comparing the
// Guess to the Secret Number”") is written in capitals that name nothing.
func unquoted(line string) string {
	var b strings.Builder
	depth := 0
	straight := strings.Count(line, "\"")%2 == 0
	for _, r := range line {
		switch {
		case r == '“' || r == '«':
			depth++
			continue
		case (r == '”' || r == '»') && depth > 0:
			depth--
			b.WriteRune(' ')
			continue
		case r == '"' && straight:
			if depth > 0 {
				depth--
				b.WriteRune(' ')
			} else {
				depth++
			}
			continue
		}
		if depth == 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// shoutedWord reports whether a word is written in capitals and too long for an acronym
// (MERCHANTABILITY, ABSOLUTELY: a disclaimer's shouting inside a line); acronyms and codes
// (SKU, IETF, PS1, INV-10482) stay names.
func shoutedWord(tok string) bool {
	letters := 0
	for _, r := range tok {
		switch {
		case unicode.IsDigit(r) || r == '-':
			return false
		case unicode.IsLetter(r):
			if !unicode.IsUpper(r) {
				return false
			}
			letters++
		}
	}
	return letters > 5
}

// docNames reads a document's names from its chunks' texts, at most maxDocNames, by first use.
// Each use is kept as the hash of its context (the two words before and after it, across line
// ends), so that a name two documents use only inside the same words — an address, a licence
// clause, a template, however the lines are wrapped — can be told from one each uses in its own
// words.
func docNames(texts []string) []docName {
	lower := map[string]bool{}
	for _, t := range texts {
		for _, line := range strings.Split(t, "\n") {
			nameTokens(line, func(tok string, _ bool) {
				if r := []rune(tok); unicode.IsLower(r[0]) {
					lower[strings.ToLower(tok)] = true
				}
			})
		}
	}
	type use struct {
		key, shown string
		at         int  // index in words
		lineStart  bool // the line's first word
	}
	midLine := map[string]bool{} // keys used after a line's first word somewhere
	var words []string           // the text's words, lower case, in order (every line's)
	var uses []use
	for _, t := range texts {
		start := true   // a sentence starts: the text's start, after a blank line, a heading or a sentence's end
		wrapped := true // the line continues the one before's words (which ended in a word or a comma)
		for _, line := range strings.Split(t, "\n") {
			if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
				start = true // a heading: title case marks the line, not a name
				continue
			}
			raw, marked := lineBody(line)
			body := unquoted(raw)
			skip := strings.TrimSpace(body) == "" || shouting(body) || titleCase(body)
			first := true
			start = nameTokensFrom(body, start || marked, func(tok string, start bool) {
				atLineStart := first && !wrapped
				first = false
				if start {
					words = append(words, "") // a sentence's boundary: no context crosses it
				}
				words = append(words, strings.ToLower(tok))
				r := []rune(tok)
				if skip || start || len(r) < 3 || !unicode.IsUpper(r[0]) {
					return
				}
				for _, suf := range []string{"'s", "’s"} {
					tok = strings.TrimSuffix(tok, suf)
				}
				key := strings.ToLower(tok)
				if len([]rune(key)) < 3 || lower[key] || calendarWords[key] || shoutedWord(tok) {
					return
				}
				if !atLineStart {
					midLine[key] = true
				}
				uses = append(uses, use{key, tok, len(words) - 1, atLineStart})
			})
			wrapped = endsInWords(body)
		}
	}
	// A capital at a line's start may be a sentence's start the text does not mark (a
	// description under a function's signature, an item after a code line): there it counts
	// only for a word the document also capitalises inside a line.
	uses = slices.DeleteFunc(uses, func(u use) bool { return u.lineStart && !midLine[u.key] })
	byKey := map[string]*docName{}
	var order []*docName
	for _, u := range uses {
		n := byKey[u.key]
		if n == nil {
			if len(order) >= maxDocNames {
				continue
			}
			n = &docName{key: u.key, shown: u.shown}
			byKey[u.key] = n
			order = append(order, n)
		}
		if len(n.lines) >= maxNameLines {
			continue
		}
		h := contextHash(words, u.at)
		if !slices.Contains(n.lines, h) {
			n.lines = append(n.lines, h)
		}
	}
	out := make([]docName, len(order))
	for i, n := range order {
		out[i] = *n
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// endsInWords reports whether a line ends as wrapped prose does, in a word, a number or a
// comma: the next line continues its sentence. A line ending in a bracket, a semicolon or a
// colon (a function's signature, a code line, a label) does not say whether the next starts one.
func endsInWords(line string) bool {
	line = strings.TrimSpace(line)
	if line == "" {
		return false
	}
	r := []rune(line)
	last := r[len(r)-1]
	return unicode.IsLetter(last) || unicode.IsDigit(last) || last == ','
}

// contextHash hashes the words around words[at] in its sentence: two before, the word, two
// after ("" marks a sentence's boundary).
func contextHash(words []string, at int) uint64 {
	h := fnv.New64a()
	lo, hi := at, at
	for lo > 0 && lo > at-2 && words[lo-1] != "" {
		lo--
	}
	for hi < len(words)-1 && hi < at+2 && words[hi+1] != "" {
		hi++
	}
	for i := lo; i <= hi; i++ {
		h.Write([]byte(words[i]))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// ownUse reports whether a document uses a name in words of its own: not only in contexts the
// other document has word for word (an address, a licence, a template, a quoted passage).
func ownUse(mine, theirs []uint64) bool {
	if len(mine) >= maxNameLines {
		return true // used on more lines than kept: not one copied passage
	}
	set := map[uint64]bool{}
	for _, h := range theirs {
		set[h] = true
	}
	for _, h := range mine {
		if !set[h] {
			return true
		}
	}
	return false
}

// proseWords counts the words of prose in texts: tokens of 2–24 letters (a trailing
// punctuation mark allowed) separated by white space. Minified code, a search index, a source
// map or a line of numbers has next to none; "moved file 12" has two. A document with fewer
// than minProseWords is not linked to anything by similarity and raises no suggestion.
func proseWords(texts []string) int {
	n := 0
	for _, t := range texts {
		for _, f := range strings.Fields(t) {
			f = strings.TrimRight(f, ".,;:!?)\"'’")
			f = strings.TrimLeft(f, "(\"'‘")
			rs := []rune(f)
			if len(rs) < 2 || len(rs) > 24 {
				continue
			}
			ok := true
			for _, r := range rs {
				if !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '’' {
					ok = false
					break
				}
			}
			if ok {
				n++
			}
		}
	}
	return n
}

// minProseWords is about 200 bytes of prose: below it a file says too little to be related to
// anything by what it says.
const minProseWords = 35
