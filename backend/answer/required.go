package answer

import (
	"slices"
	"strings"
	"unicode"

	"github.com/strata-app/strata/backend/heuristics"
	"github.com/strata-app/strata/backend/search"
)

// Required is what a passage must say for its sentences to answer a question (issue 24): the
// things the question names and the words that carry it. Search and sentence scoring compare
// Porter stems, which is right for finding passages and wrong for deciding that one answers:
// "capital" and "capitalization" share a stem, and a passage about capital letters says nothing
// of a country's capital. So a required word is matched as a word: the same word or an
// inflection of it (plural, past, -ing, possessive), never a derivation.
//
//   - Identifiers: a token with a digit (an invoice number KP-2025-0117, a version 3.9 or
//     v1.19.2, a year): the passage must hold that token.
//   - Names: words the question capitalises where a sentence does not start (Ollama, Derek
//     Ashworth, Turkey), and words it writes in mixed case (fsnotify's sibling PyYAML).
//   - Content words: the rest of its words that are not stop words, generic verbs or the
//     question's own frame ("how much", "what kind").
//
// A question of two questions ("How much sun do tomatoes need, and does basil tolerate
// frost?") requires one of its parts of each passage (Parts).
type Required struct {
	Idents []string // lower case, a leading "v" of a version dropped
	Names  []string // lower case, one word each
	Words  []string // lower case
	Parts  []Required
}

// secondQuestion finds where a second question begins: ", and" or "and" before a question
// word or an auxiliary ("…, and does basil tolerate frost?", "… and what does it cost?").
func secondQuestion(q string) int {
	l := strings.ToLower(q)
	for at := 0; ; {
		i := strings.Index(l[at:], " and ")
		if i < 0 {
			return -1
		}
		i += at
		rest := strings.Fields(l[i+len(" and "):])
		if len(rest) > 0 {
			switch strings.Trim(rest[0], ",?.!") {
			case "what", "when", "where", "which", "who", "how", "why", "does", "do", "did", "is", "are", "was", "were", "can", "could", "should", "will":
				return i
			}
		}
		at = i + len(" and ")
	}
}

// frameWords make a question a question without saying what it is about.
var frameWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`what whats when where which who whom whose why how much many long often far old big large
		tell show explain find know please anything something someone somebody there here ever exactly currently actually
		right ok okay happen happens happened come comes came done`) {
		frameWords[w] = true
	}
}

// identTokens splits text into tokens that keep the punctuation inside an identifier: letters
// and digits joined by . - _ / : + (KP-2025-0117, 1.19.2, node.js, x86_64); trailing
// punctuation is dropped.
func identTokens(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		t := strings.TrimRight(b.String(), ".-_/:+")
		t = strings.TrimLeft(t, ".-_/:+")
		if t != "" {
			out = append(out, t)
		}
		b.Reset()
	}
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case b.Len() > 0 && strings.ContainsRune(".-_/:+", r):
			b.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// normIdent writes an identifier as it is compared: lower case, "v1.2" as "1.2".
func normIdent(t string) string {
	if len(t) > 1 && t[0] == 'v' && t[1] >= '0' && t[1] <= '9' {
		return t[1:]
	}
	return t
}

// RequiredTerms reads what a question requires of a passage.
func RequiredTerms(question string) Required {
	if i := secondQuestion(question); i > 0 {
		return Required{Parts: []Required{RequiredTerms(question[:i]), RequiredTerms(question[i+len(" and "):])}}
	}
	var r Required
	seen := map[string]bool{}
	add := func(list *[]string, w string) {
		if !seen[w] {
			seen[w] = true
			*list = append(*list, w)
		}
	}
	idents := map[string]bool{}
	for _, t := range identTokens(question) {
		if hasDigit(t) {
			t = normIdent(t)
			add(&r.Idents, t)
			for _, w := range search.Words(t) {
				idents[w] = true
			}
		}
	}
	// Names: capitalised words after the question's first word, and mixed-case words anywhere.
	first := true
	afterHow := false
	for _, raw := range strings.FieldsFunc(question, func(r rune) bool { return unicode.IsSpace(r) }) {
		word := strings.TrimFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		word = strings.TrimSuffix(strings.TrimSuffix(word, "'s"), "’s")
		start := first
		first = false
		if word == "" {
			continue
		}
		for _, w := range search.Words(word) {
			switch {
			case idents[w] || search.IsStopWord(w) || frameWords[w] || genericWords[w]:
				if w == "how" {
					afterHow = true
					continue
				}
			case afterHow:
				// "how long", "how big": the kind of answer, not its subject.
			case isName(word, start):
				add(&r.Names, w)
			case len(w) >= 3 && !isNumberWord(w):
				add(&r.Words, w)
			}
			afterHow = false
		}
	}
	return r
}

// isName reports whether a word of a question is written as a name: capitalised where a
// sentence does not start, or in mixed case anywhere (PyYAML, macOS). "I" is not one.
func isName(word string, start bool) bool {
	rs := []rune(word)
	if len(rs) < 2 {
		return false
	}
	upperAfter := false
	for _, r := range rs[1:] {
		if unicode.IsUpper(r) {
			upperAfter = true
		}
	}
	return upperAfter || !start && unicode.IsUpper(rs[0])
}

// Missing returns what of r the text does not hold that rules it out as an answer, in the
// question's order: any identifier (as a token) or name (as a word), and the content words
// (as words or their inflections) when more of them are missing than a question's own
// phrasing explains — a person asks in other words than a document writes ("how much do I
// owe" of an invoice's "total due"), so a third of them, rounded up past one of two, may be
// missing; more, and the passage is about something else.
func (r Required) Missing(text string) []string {
	return r.missing(readText(text))
}

// textTerms are a text's identifier tokens and word forms, read once for every part.
type textTerms struct {
	toks, forms map[string]bool
}

func readText(text string) textTerms {
	t := textTerms{toks: map[string]bool{}, forms: map[string]bool{}}
	for _, tok := range identTokens(text) {
		t.toks[normIdent(tok)] = true
	}
	for _, w := range search.Words(text) {
		for _, f := range Inflections(w) {
			t.forms[f] = true
		}
	}
	return t
}

func (r Required) missing(t textTerms) []string {
	if len(r.Parts) > 0 {
		// one part is enough: the fewest missing. A part that requires nothing ("…, and
		// when?") is not one a passage can say: it does not make every passage qualify.
		var best []string
		first := true
		for _, p := range r.Parts {
			if p.empty() {
				continue
			}
			m := p.missing(t)
			if first || len(m) < len(best) {
				best, first = m, false
			}
		}
		return best
	}
	var out []string
	for _, id := range r.Idents {
		if !t.toks[id] {
			out = append(out, id)
		}
	}
	for _, w := range r.Names {
		if !holds(t.forms, w) {
			out = append(out, w)
		}
	}
	var words []string
	for _, w := range r.Words {
		if !holds(t.forms, w) && !slices.Contains(out, w) { // a strict word is a name too
			words = append(words, w)
		}
	}
	if len(out) > 0 || len(words) > allowedMissing(len(r.Words)) {
		out = append(out, words...)
	}
	return out
}

// holds reports whether a text's word forms hold w or an inflection of it.
func holds(forms map[string]bool, w string) bool {
	for _, f := range Inflections(w) {
		if forms[f] {
			return true
		}
	}
	return false
}

// Inflections are the bases a word may be an inflection of, itself first: "plots" → plot,
// "released" → releas, release; "copies" → copy; "running" → runn, run. Two words match when
// they share one. Derivations ("capitalization", "interested") are not undone: they are other
// words.
func Inflections(w string) []string {
	out := []string{w}
	if base, ok := irregular[w]; ok {
		return append(out, base) // "paid" is a form of "pay"
	}
	if m, ok := months[w]; ok && w != "may" && w != "mar" {
		return append(out, strings.ToLower(monthNames[m-1])) // "Sept" is September, written short
	}
	addBase := func(b string) {
		if len(b) >= 2 {
			out = append(out, b)
			// a doubled last consonant ("running" → runn → run, "stopped" → stopp → stop)
			if n := len(b); n >= 3 && b[n-1] == b[n-2] && !strings.ContainsRune("aeiouls", rune(b[n-1])) {
				out = append(out, b[:n-1])
			}
		}
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		addBase(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "zes"):
		addBase(w[:len(w)-2])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") && len(w) > 3:
		addBase(w[:len(w)-1])
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		addBase(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		addBase(w[:len(w)-2])
		addBase(w[:len(w)-1]) // "released" → release
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		addBase(w[:len(w)-3])
		addBase(w[:len(w)-3] + "e") // "using" → use
	case strings.HasSuffix(w, "ly") && len(w) > 5:
		addBase(w[:len(w)-2]) // "yearly" → year: the same word's adverb
	}
	return out
}

// PastForm reports whether a word is written as a verb's past ("brought", "released",
// "included"): it says what happened to the thing a question asks about, not what that thing
// is. A short word ending in -ed ("speed", "bed") is taken for what it is written as.
func PastForm(w string) bool {
	_, irr := irregular[w]
	return irr || len(w) >= 6 && strings.HasSuffix(w, "ed")
}

// irregular maps the irregular past forms of common verbs to their base.
var irregular = map[string]string{}

func init() {
	for _, p := range strings.Fields(`paid:pay bought:buy sold:sell sent:send spent:spend made:make went:go gone:go got:get
		gotten:get gave:give given:give took:take taken:take wrote:write written:write ran:run began:begin begun:begin
		built:build chose:choose chosen:choose found:find held:hold kept:keep left:leave lost:lose meant:mean met:meet
		said:say saw:see seen:see told:tell thought:think brought:bring caught:catch taught:teach fell:fall felt:feel
		knew:know known:know led:lead drove:drive driven:drive grew:grow grown:grow won:win hung:hang shown:show
		drew:draw drawn:draw ate:eat eaten:eat rose:rise risen:rise broke:break broken:break spoke:speak spoken:speak`) {
		form, base, _ := strings.Cut(p, ":")
		irregular[form] = base
	}
}

// allowedMissing is how many of a question's n content words a passage may leave out: a third,
// rounded up past one of two (0 of 1, 1 of 2–4, 2 of 5–7). Fitted on the tune set
// (engine/testdata/ask/tune): half let 4 of its 12 unanswerable questions through against 3,
// for 2 more right answers of 42.
func allowedMissing(n int) int { return (n + 1) / 3 }

// Flat is every part's identifiers, names and words together, in the question's order.
func (r Required) Flat() Required {
	out := Required{Idents: r.Idents, Names: r.Names, Words: r.Words}
	for _, p := range r.Parts {
		f := p.Flat()
		out.Idents = append(append([]string{}, out.Idents...), f.Idents...)
		out.Names = append(append([]string{}, out.Names...), f.Names...)
		out.Words = append(append([]string{}, out.Words...), f.Words...)
	}
	return out
}

// identSet is every identifier the question names, in all its parts.
func (r Required) identSet() map[string]bool {
	set := map[string]bool{}
	for _, id := range r.Flat().Idents {
		set[id] = true
	}
	return set
}

// namesIdent reports whether text holds one of the question's identifiers (ids, identSet), or
// the question names none: a value asked of "grep 3.8" is the one written next to 3.8, not
// another release's date in the same file.
func namesIdent(text string, ids map[string]bool) bool {
	if len(ids) == 0 {
		return true
	}
	for _, t := range identTokens(text) {
		if ids[normIdent(t)] {
			return true
		}
	}
	return false
}

// emptyCell are what a table writes in a cell that says nothing.
var emptyCell = map[string]bool{"": true, "-": true, "—": true, "–": true, "n/a": true, "?": true}

// onlyInEmptyCells reports whether a table row says a required word only through the heading
// of one of its empty cells: under "Name | Email | Phone", the row "Derek Ashworth |
// derek@… | " has no phone, however much "phone" the passage holds (issue 24: an empty cell
// is not an answer). Rows and header of different widths are not compared.
func (r Required) onlyInEmptyCells(row, header string) bool {
	if header == "" {
		return false
	}
	cells, heads := heuristics.RowCells(row), heuristics.RowCells(header)
	var empty []string
	if labels := labelled(cells); labels != nil {
		// A spreadsheet row as the CSV reader writes it ("Name: … | Email: …") leaves out its
		// empty cells: a column of the header it does not label is empty in this row.
		for _, h := range heads {
			if !labels[strings.ToLower(h)] {
				empty = append(empty, h)
			}
		}
	} else {
		if len(cells) != len(heads) {
			return false
		}
		for i, c := range cells {
			if emptyCell[strings.ToLower(c)] {
				empty = append(empty, heads[i])
			}
		}
	}
	if len(empty) == 0 {
		return false
	}
	inEmpty, inRow := readText(strings.Join(empty, " ")), readText(row)
	for _, w := range r.Flat().Words {
		if inEmpty.forms[w] && !inRow.forms[w] {
			return true
		}
	}
	return false
}

// Unnamed is r without its names: what an answer's own sentences must say once their passage
// has said whom or what they are about (a name is often said once, in a heading or a first
// line, and not in the sentence that answers).
func (r Required) Unnamed() Required {
	out := Required{Idents: r.Idents, Words: r.Words}
	for _, p := range r.Parts {
		out.Parts = append(out.Parts, p.Unnamed())
	}
	return out
}

// empty reports whether a question (part) requires nothing of a passage.
func (r Required) empty() bool {
	for _, p := range r.Parts {
		if !p.empty() {
			return false
		}
	}
	return len(r.Idents) == 0 && len(r.Names) == 0 && len(r.Words) == 0
}

// Strict moves the content words that name a subject (subject reports it) among the names,
// which a passage must say: "tinyexec" in "Which Node.js version does tinyexec need?" names a
// document of the store (tinyexec-README.md), and a passage about another package's Node.js
// versions does not answer it, however many other words it holds.
//
// A strict word stays among the words too: the share of them a passage may leave out is a
// share of all the question's content words.
func (r Required) Strict(subject func(word string) bool) Required {
	out := Required{Idents: r.Idents, Names: append([]string{}, r.Names...), Words: r.Words}
	for _, w := range r.Words {
		if subject(w) {
			out.Names = append(out.Names, w)
		}
	}
	for _, p := range r.Parts {
		out.Parts = append(out.Parts, p.Strict(subject))
	}
	return out
}

// labelled is the set of a row's cell labels (lower case) when every cell is written
// "label: value", else nil.
func labelled(cells []string) map[string]bool {
	out := map[string]bool{}
	for _, c := range cells {
		k, _, ok := strings.Cut(c, ": ")
		if !ok {
			return nil
		}
		out[strings.ToLower(strings.TrimSpace(k))] = true
	}
	return out
}
