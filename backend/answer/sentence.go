// Package answer is the pure part of asking (issue 15): it splits passages into sentences,
// scores them against a question, picks the few that answer it, and checks a chat model's
// sentences against the passages they cite. It reads no store and no file: the engine gives it
// text and takes back offsets into that text, which it maps to the file's lines itself.
package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/heuristics"
)

// Sentence is one sentence of prose in a text: Text[Start:End] of the text it was split from,
// and the same words with their whitespace collapsed (and a list item's bullet dropped), as an
// answer quotes them.
type Sentence struct {
	Start, End int
	Text       string
	// Para is the index of the paragraph (or list item) the sentence belongs to: a sentence
	// that leans on the one before it ("It returns …") is read with it only inside one.
	Para int
	// Unit says what the sentence is when it is not prose: a table's row or a code block,
	// each a unit of meaning of its own (issue 24: the answer to "which …" is often a table's
	// rows, to "how do I …" a block of commands).
	Unit Unit
	// Item marks a sentence of a list item; Header a table's header row; Step a sentence of
	// a numbered list item ("1. rsync …"), one step of a procedure.
	Item, Header, Step bool
}

// Unit is the kind of a Sentence.
type Unit int

const (
	UnitProse Unit = iota
	UnitRow        // one row of a table; its text is the row's cells, whitespace collapsed
	UnitCode       // one fenced code block, its lines verbatim (without the fences)
	// UnitTitle is a Markdown heading that holds a number ("## 1.9.0 2024-04-04"): a
	// changelog's release and its date are often written only there. It answers a question
	// for a date or a version, nothing else.
	UnitTitle
)

// Bounds of a code block quoted whole: longer is a program, not an answer's steps.
const (
	maxCodeLines = 12
	maxCodeBytes = 700
)

// Sentence bounds: shorter is a label or a fragment ("See below."), longer is a run-on that a
// reader cannot take in as one claim (a PDF page whose punctuation was lost, a table read as
// text). Measured in words of letters or digits.
const (
	labelWords = 12 // an unterminated line shorter than this, not in a list, is a label
	minWords   = 4
	maxWords   = 80
	maxBytes   = 700
)

// Split returns the sentences of the prose in text, in order. Text is a chunk's extracted text:
// Markdown-flavoured, with code blocks fenced (the Markdown and HTML readers fence them) and
// headings as '#' lines. What is not prose is left out, because a line of code or a heading is
// not an answer: fenced and indented code, headings, table rows, shell and debugger prompts,
// and lines whose characters are mostly symbols. A chunk may begin inside a code block that the
// chunker cut in two (see codeHead). A paragraph may be wrapped over several lines.
func Split(text string) []Sentence { return split(text, false) }

// SplitLines is Split for text whose every line is a block of its own: the HTML reader writes
// each paragraph, list item, caption or cell on one line, so a line that does not end a
// sentence ("Listing 21-11: Spawning a new thread") still ends its block.
func SplitLines(text string) []Sentence { return split(text, true) }

func split(text string, perLine bool) []Sentence {
	var out []Sentence
	para := 0
	bs := blocks(text, perLine)
	for k, b := range bs {
		if k+1 < len(bs) {
			b.introduces = introduces(text, bs[k+1])
		}
		if b.unit != UnitProse {
			if s, ok := unitSentence(text, b); ok {
				s.Para = para
				out = append(out, s)
			}
			para++
			continue
		}
		for _, s := range splitBlock(text, b) {
			s.Para = para
			out = append(out, s)
		}
		para++
	}
	return out
}

// unitSentence is a table row or a code block as one sentence, when it is one a reader can
// take in: a row with at least two cells of words, a block of at most maxCodeLines lines.
func unitSentence(text string, b block) (Sentence, bool) {
	raw := text[b.start:b.end]
	switch b.unit {
	case UnitRow:
		cells := 0
		for _, c := range heuristics.RowCells(raw) {
			if countWords(c) > 0 {
				cells++
			}
		}
		if cells < 2 || len(raw) > maxBytes {
			return Sentence{}, false
		}
		return Sentence{Start: b.start, End: b.end, Text: strings.Join(strings.Fields(raw), " "), Unit: UnitRow, Header: b.header}, true
	case UnitCode:
		if strings.Count(raw, "\n")+1 > maxCodeLines || len(raw) > maxCodeBytes || countWords(raw) == 0 {
			return Sentence{}, false
		}
		return Sentence{Start: b.start, End: b.end, Text: strings.TrimRight(raw, " \t\n"), Unit: UnitCode}, true
	case UnitTitle:
		t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(raw), "#"))
		if t == "" || len(t) > maxBytes {
			return Sentence{}, false
		}
		return Sentence{Start: b.start, End: b.start + len(t), Text: strings.Join(strings.Fields(t), " "), Unit: UnitTitle}, true
	}
	return Sentence{}, false
}

// block is a run of lines [start, end) of the text: a paragraph or one list item of prose, a
// table row, or a fenced code block's inside.
type block struct {
	start, end int
	unit       Unit
	header     bool // a table's header row
	introduces bool // a list item, a table row or a code block comes next
}

// introduces reports whether a block is what an introduction ending with a colon announces: a
// list item, a table row or a code block.
func introduces(text string, next block) bool {
	return next.unit == UnitRow || next.unit == UnitCode || next.unit == UnitProse && listMark(strings.TrimLeft(text[next.start:next.end], " \t")) > 0
}

// tableRule reports whether a table row is its header's rule ("|---|:---:|").
func tableRule(t string) bool {
	return strings.Trim(t, "|-: \t") == "" && strings.Contains(t, "-")
}

type textLine struct {
	start, end int // without the newline
}

func lines(text string) []textLine {
	var out []textLine
	for at := 0; at <= len(text); {
		nl := strings.IndexByte(text[at:], '\n')
		if nl < 0 {
			if at < len(text) {
				out = append(out, textLine{at, len(text)})
			}
			break
		}
		out = append(out, textLine{at, at + nl})
		at += nl + 1
	}
	return out
}

// blocks groups the prose lines of text into paragraphs and list items.
func blocks(text string, perLine bool) []block {
	ls := lines(text)
	code := codeLines(text, ls)
	var out []block
	cur := block{start: -1, end: -1, unit: UnitProse}
	flush := func() {
		if cur.start >= 0 {
			out = append(out, cur)
		}
		cur = block{start: -1, end: -1, unit: UnitProse}
	}
	// A code block is quoted whole only when the text holds both its fences: a chunk that
	// begins or ends inside one (codeHead) holds part of it.
	codeBlock := block{start: -1, end: -1, unit: UnitCode}
	fenceOpen := false
	dropCode := func() { codeBlock = block{start: -1, end: -1, unit: UnitCode} }
	prevBlank := true
	inIndented := false
	for i, l := range ls {
		s := text[l.start:l.end]
		trimmed := strings.TrimSpace(s)
		blank := trimmed == ""
		indented := strings.HasPrefix(s, "    ") || strings.HasPrefix(s, "\t")
		switch {
		case code[i]:
			flush()
			switch {
			case isFence(s):
				if fenceOpen && codeBlock.start >= 0 {
					out = append(out, codeBlock)
				}
				dropCode()
				fenceOpen = !fenceOpen
			case !fenceOpen:
				// inside a block the chunk began in: not quoted
			case blank:
				if codeBlock.start >= 0 {
					codeBlock.end = l.end // a blank line inside a block is part of it
				}
			default:
				if codeBlock.start < 0 {
					codeBlock.start = l.start
				}
				codeBlock.end = l.end
			}
		case blank:
			flush()
			inIndented = false
		case isTableRow(trimmed):
			flush()
			if n := len(out); n > 0 && i > 0 && out[n-1].unit == UnitRow && !out[n-1].header && out[n-1].end == ls[i-1].end &&
				continuesRow(s, strings.HasPrefix(strings.TrimSpace(text[out[n-1].start:ls[i-1].end]), "|")) {
				// A row whose first cell is empty, right under another, goes on with it: a log's
				// "  |  | -> next service at 164,000 km" belongs to the service above it.
				out[n-1].end = l.end
				break
			}
			if !tableRule(trimmed) {
				// A table's header (the row over its rule) names columns: it answers nothing on
				// its own, but comes with the rows an introduction brings.
				header := i+1 < len(ls) && tableRule(strings.TrimSpace(text[ls[i+1].start:ls[i+1].end]))
				out = append(out, block{start: l.start, end: l.end, unit: UnitRow, header: header})
			}
		case isHeading(s):
			flush()
			if t := strings.TrimLeft(trimmed, "#"); strings.IndexFunc(t, unicode.IsDigit) >= 0 {
				at := l.start + strings.Index(s, t)
				out = append(out, block{start: at + len(t) - len(strings.TrimLeft(t, " \t")), end: l.end, unit: UnitTitle})
			}
		case capsHeading(trimmed), isPrompt(trimmed), symbolic(trimmed):
			flush()
		case indented && (prevBlank || inIndented) && codeish(trimmed):
			// An indented block of code in plain text (four spaces after a blank line): prose
			// indented as a whole (a man page) is not code, so the line must also look like it.
			flush()
			inIndented = true
		default:
			inIndented = false
			if isListItem(trimmed) || perLine {
				flush()
			}
			if cur.start < 0 {
				cur.start = l.start
			}
			cur.end = l.end
		}
		prevBlank = blank
	}
	flush()
	return out
}

// codeLines marks the lines inside fenced code blocks (the fences included). A chunk whose
// fences do not pair up was cut inside a block: whichever end of it looks less like prose is
// taken to be the code (codeHead).
func codeLines(text string, ls []textLine) []bool {
	code := make([]bool, len(ls))
	var fences []int
	for i, l := range ls {
		if isFence(text[l.start:l.end]) {
			fences = append(fences, i)
		}
	}
	if len(fences) == 0 {
		return code
	}
	inside := false
	if len(fences)%2 == 1 && codeHead(text, ls, fences[0], fences[len(fences)-1]) {
		inside = true
	}
	f := 0
	for i := range ls {
		if f < len(fences) && fences[f] == i {
			code[i] = true
			inside = !inside
			f++
			continue
		}
		code[i] = inside
	}
	return code
}

// codeHead decides, for a chunk with an odd number of fence lines, whether it begins inside a
// code block (the lines before the first fence are code) or ends inside one (the lines after
// the last fence are): the side with less prose on it is the code.
func codeHead(text string, ls []textLine, first, last int) bool {
	prose := func(from, to int) float64 {
		n, p := 0, 0
		for _, l := range ls[from:to] {
			t := strings.TrimSpace(text[l.start:l.end])
			if t == "" {
				continue
			}
			n++
			if proseLike(t) {
				p++
			}
		}
		if n == 0 {
			return 1 // nothing there: the other side decides
		}
		return float64(p) / float64(n)
	}
	return prose(0, first) < prose(last+1, len(ls))
}

// proseLike reports whether a line reads as words: several words, mostly letters, not code.
func proseLike(t string) bool {
	return countWords(t) >= 4 && !codeish(t) && !symbolic(t)
}

func isFence(s string) bool {
	t := strings.TrimLeft(s, " \t")
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// isHeading: an ATX heading line, as the readers write headings.
func isHeading(s string) bool {
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
}

// capsHeading: a short line in capitals, as manual pages and plain-text documents write their
// section headings ("NAME", "SEE ALSO", "1. INTRODUCTION").
func capsHeading(t string) bool {
	if countWords(t) > 5 {
		return false
	}
	letters := 0
	for _, r := range t {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			letters++
		}
	}
	return letters >= 2
}

// continuesRow reports whether a table line leaves its first cell empty: the text before its
// first bar is blank, or, in a table whose rows begin with a bar (pipeLed), the text between
// its first two bars.
func continuesRow(line string, pipeLed bool) bool {
	t := strings.TrimLeft(line, " \t")
	if !pipeLed {
		return strings.HasPrefix(t, "|") && strings.TrimSpace(t) != "|"
	}
	rest, ok := strings.CutPrefix(t, "|")
	if !ok {
		return false
	}
	cell, _, ok := strings.Cut(rest, "|")
	return ok && strings.TrimSpace(cell) == ""
}

// isTableRow: a row of a table as the readers write them ("a | b | c") or Markdown source does.
func isTableRow(t string) bool {
	return strings.HasPrefix(t, "|") || strings.Count(t, " | ") >= 1 && strings.Count(t, "|") >= 2
}

// isPrompt: a shell, REPL or debugger prompt line, or a comment line of a script.
func isPrompt(t string) bool {
	for _, p := range []string{"$ ", "% ", "> ", ">>> ", "(gdb) ", "# ", "// ", "#!", "C:\\>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func isListItem(t string) bool {
	if len(t) >= 2 && strings.ContainsRune("-*+•", rune(t[0])) && t[1] == ' ' {
		return true
	}
	if strings.HasPrefix(t, "• ") {
		return true
	}
	i := 0
	for i < len(t) && i < 3 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// listMark is the length of a list item's bullet or number and the space after it.
func listMark(t string) int {
	if !isListItem(t) {
		return 0
	}
	if strings.HasPrefix(t, "• ") {
		return len("• ")
	}
	if strings.ContainsRune("-*+", rune(t[0])) {
		return 2
	}
	return strings.IndexByte(t, ' ') + 1
}

// codeish reports whether a line looks like a line of code: it ends like a statement or a
// block, or holds an operator that prose does not use.
func codeish(t string) bool {
	if t == "" {
		return false
	}
	switch t[len(t)-1] {
	case ';', '{', '}', '(', '[':
		return true
	}
	for _, op := range []string{" = ", "==", "=>", "->", "::", "&&", "||", "();", "){", "} ", "</", "/>", "#include", "import ", "func ", "fn ", "let ", "const ", "var ", "def ", "return "} {
		if strings.Contains(t, op) {
			if op == "import " || op == "return " || op == "let " || op == "const " || op == "var " {
				// Words prose uses too ("it is important to return early"): code only at the start.
				if !strings.HasPrefix(t, op) {
					continue
				}
			}
			return true
		}
	}
	return false
}

// symbolic reports whether a line is mostly symbols rather than words (a rule, a diagram, an
// option table, output): fewer than three in five of its non-space characters are letters or
// digits.
func symbolic(t string) bool {
	letters, other := 0, 0
	for _, r := range t {
		switch {
		case unicode.IsSpace(r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			letters++
		default:
			other++
		}
	}
	return letters+other > 0 && float64(letters) < 0.6*float64(letters+other)
}

// fieldLine reports whether a short line states a field's value — "Amount due: EUR 1,540.00",
// "Due date: 15 March 2024", "Net total 664.75": words, then a value with digits, after a colon
// or at the line's end. Such a line is a statement, however short and unterminated, not a
// label standing alone; "Listing 21-11: Spawning a new thread" (its digits are in the label)
// stays a label.
func fieldLine(s string) bool {
	if strings.ContainsAny(s, "\n") {
		return false
	}
	label, value, colon := strings.Cut(s, ": ")
	if !colon {
		f := strings.Fields(s)
		if len(f) < 2 {
			return false
		}
		label, value = strings.Join(f[:len(f)-1], " "), f[len(f)-1]
	}
	hasLetter := strings.IndexFunc(label, unicode.IsLetter) >= 0
	return hasLetter && strings.IndexFunc(label, unicode.IsDigit) < 0 && strings.IndexFunc(value, unicode.IsDigit) >= 0
}

// countWords counts the words of letters or digits in s.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// codeSentence reports whether a sentence holds code or data rather than prose: escaped quotes
// or newlines (text inside a string literal, a search index), braces, statement ends, or JSON's
// "key": "value" punctuation.
func codeSentence(s string) bool {
	if strings.Contains(s, `\"`) || strings.Contains(s, `\n`) || strings.Contains(s, "{") && strings.Contains(s, "}") ||
		strings.Count(s, ";") >= 2 || symbolic(s) {
		return true
	}
	// A command's synopsis or a grammar: "ssh [-46AaC] [-B bind_interface] [-b bind_address] …".
	if strings.Count(s, "[")+strings.Count(s, "|")+strings.Count(s, "<")+strings.Count(s, "=") >= 4 {
		return true
	}
	// A C declaration: "const unsigned char ** str, unsigned int * str_len".
	if strings.Count(s, "*") >= 2 && strings.Contains(s, "(") {
		return true
	}
	for _, p := range []string{`":`, `",`, `");`, `');`, "();", "=>", "::<"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// splitBlock cuts one block into sentences: a sentence ends at '.', '!' or '?' (closing quotes
// and brackets included) followed by a space and a word that can begin a sentence, unless the
// word before it is an abbreviation or an initial; the block's end ends its last sentence.
func splitBlock(text string, b block) []Sentence {
	var out []Sentence
	start := b.start
	// A list item's bullet is not part of its sentence.
	item, step := false, false
	if first := strings.TrimLeft(text[b.start:b.end], " \t"); listMark(first) > 0 {
		start = b.end - len(first) + listMark(first)
		item, step = true, first[0] >= '0' && first[0] <= '9'
	}
	emit := func(s, e int) {
		for s < e && isSpaceByte(text[s]) {
			s++
		}
		for e > s && isSpaceByte(text[e-1]) {
			e--
		}
		if e <= s {
			return
		}
		raw := text[s:e]
		n := countWords(raw)
		field := fieldLine(raw)
		// "The currently available quantization types are:", "Install by running:" before the
		// list or the commands they announce: an introduction, however short, not a label.
		intro := b.introduces && e == b.end && strings.HasSuffix(raw, ":") && n >= 2
		// A numbered step is an instruction however short ("1. Create the dictionary").
		if n < minWords && !intro && !(step && n >= 2) || n > maxWords || len(raw) > maxBytes || !hasLowerWord(raw) && !field || codeSentence(raw) {
			return
		}
		if !item && e == b.end && n < labelWords && !terminated(raw) && !field && !intro {
			return // a title, caption or label standing alone ("Listing 21-11: Spawning a new thread")
		}
		out = append(out, Sentence{Start: s, End: e, Text: strings.Join(strings.Fields(raw), " "), Item: item, Step: step})
	}
	i := start
	for i < b.end {
		c := text[i]
		if c != '.' && c != '!' && c != '?' {
			i++
			continue
		}
		j := i + 1
		for j < b.end && strings.IndexByte(`"')]`, text[j]) >= 0 {
			j++
		}
		for j < b.end && strings.HasPrefix(text[j:], "’") || j < b.end && strings.HasPrefix(text[j:], "”") {
			j += len("’")
		}
		if j < b.end && !isSpaceByte(text[j]) {
			i++ // "1.5", "fs.readFile", "e.g.x": not an end
			continue
		}
		k := j
		for k < b.end && isSpaceByte(text[k]) {
			k++
		}
		if k < b.end && (!startsSentence(text[k:]) || c == '.' && abbreviation(text[start:i])) {
			i = j
			continue
		}
		emit(start, j)
		start, i = k, k
	}
	emit(start, b.end)
	return out
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// startsSentence reports whether s can begin a sentence: a capital letter, a digit, or an
// opening quote or bracket.
func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune("\"'(“‘[`", r) || unicode.IsLetter(r) && !unicode.IsLower(r)
}

// abbreviations end with a period that does not end a sentence (lower case, without the period).
var abbreviations = map[string]bool{}

func init() {
	for _, a := range strings.Fields(`e.g i.e cf vs etc al approx mr mrs ms dr prof sr jr st no nos fig figs
		eq eqs sec ch vol pp p ed eds inc ltd corp co dept est jan feb mar apr jun jul aug sep sept oct nov dec u.s`) {
		abbreviations[a] = true
	}
	delete(abbreviations, "etc") // "… and so on, etc. The next …" ends a sentence more often than not
}

// abbreviation reports whether the text before a period ends in an abbreviation or an
// initial ("J. R. R. Tolkien"), so that the period is not a sentence's end.
func abbreviation(before string) bool {
	k := len(before)
	for k > 0 {
		r, n := utf8.DecodeLastRuneInString(before[:k])
		if !(unicode.IsLetter(r) || r == '.') {
			break
		}
		k -= n
	}
	w := strings.ToLower(before[k:])
	if abbreviations[w] {
		return true
	}
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(before[k:])
		return unicode.IsUpper(r) // an initial; a lower-case one-letter word ends a sentence ("… of x.")
	}
	return false
}

// hasLowerWord reports whether s has a word in lower case: a sentence, not a title or a name.
func hasLowerWord(s string) bool {
	for _, f := range strings.Fields(s) {
		r, _ := utf8.DecodeRuneInString(f)
		if unicode.IsLower(r) && len(f) > 2 {
			return true
		}
	}
	return false
}
