package answer

import (
	"regexp"
	"slices"
	"strings"

	"github.com/strata-app/strata/backend/heuristics"
	"github.com/strata-app/strata/backend/search"
)

// Kind is what a question asks for (issue 24): a value of some sort, or anything a sentence
// says. A question that asks for a value is answered by a sentence holding one: "When was 1.9.0
// released?" is not answered by "1.9.0 dropped support for Go 1.16", however many of its words
// that holds.
type Kind int

const (
	KindAny      Kind = iota
	KindDate          // when, what date, which day/year
	KindQuantity      // how much/many/long/big/old/often, what size/price/cost/total/amount
	KindVersion       // which/what version or release
	KindHowTo         // how do I, how to: steps, commands and code are answers
	KindDefine        // what is X, what does X mean: the sentence that defines X
	KindMoney         // how much does it cost / do I owe, what is the price or fee: an amount of money
	KindPerson        // who was at …, who should …: a person, by name or address
	KindList          // which backends …, what were the action items: a list, table rows or an enumeration
)

func (k Kind) String() string {
	return [...]string{"any", "date", "quantity", "version", "how-to", "definition", "money", "person", "list"}[k]
}

// quantityNouns make "what is the X" ask for a number.
var quantityNouns = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`size price cost costs total amount fee fees rent number count percentage rate budget
		limit length width height weight duration timeout port salary balance`) {
		quantityNouns[w] = true
	}
}

// moneyFrame are the money words that only say a question asks for an amount ("How much does
// it cost me?"): a passage writing the amount answers them without the word.
var moneyFrame = map[string]bool{}

// moneyWords make a question for a quantity ask for an amount of money: "How much do I owe
// …", "How much is invoice …", "What is the rent …": the frame's words and those that name what
// an amount is of (rent, fee, invoice), which stay required. A sentence answering one writes a
// currency with its number; "Invoice date: 14 February 2024" holds numbers and is no answer.
var moneyWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`cost costs price prices priced pay paid pays owe owed owing charge charged charges spend spent`) {
		moneyFrame[w], moneyWords[w] = true, true
	}
	for _, w := range strings.Fields(`fee fees rent rents bill billed invoice invoiced invoices balance salary wage wages budget
		refund deposit quote quoted`) {
		moneyWords[w] = true
	}
}

// kindWords are, for a kind of value, the words that name the kind a question asks for
// ("Which release added …", "What date is …"): never a thing the store must name.
var kindWords = map[Kind]map[string]bool{
	KindVersion: {"version": true, "versions": true, "release": true, "releases": true},
	KindDate:    {"date": true, "dates": true},
}

// Holds reports whether text holds a value of kind k (a version, a date, an amount …), issue
// numbers aside.
func (k Kind) Holds(text string) bool { return k.holds(text, nil) }

// NamesKind reports whether w only names the kind of value k asks for: a changelog that never
// writes "release" still answers "which release added …" with its headings.
func (k Kind) NamesKind(w string) bool {
	if k == KindMoney {
		return moneyFrame[w]
	}
	return kindWords[k][w]
}

// ForKind is what a passage must say of a question of kind k: for an amount of money, not the
// words that only ask for one (the amount the passage writes is what they ask).
func (r Required) ForKind(k Kind) Required {
	if k != KindMoney {
		return r
	}
	out := Required{Idents: r.Idents, Names: r.Names}
	for _, w := range r.Words {
		if !moneyFrame[w] {
			out.Words = append(out.Words, w)
		}
	}
	for _, p := range r.Parts {
		out.Parts = append(out.Parts, p.ForKind(k))
	}
	return out
}

// KindOf reads what a question asks for from its first words; a yes-or-no question followed by
// a second asks for what the second does ("Did I already pay Brackwater, and when?" asks a
// date; "Who is Priya and how do I reach her?" asks about her, not for steps).
func KindOf(question string) Kind {
	k := kindOf(question)
	if k == KindAny {
		// "After the credit note, what's left to pay …?": the question begins after the clause.
		if _, rest, ok := strings.Cut(question, ", "); ok {
			k = kindOf(rest)
		}
	}
	if i := secondQuestion(question); k == KindAny && i > 0 {
		if ws := search.Words(question); len(ws) > 0 && auxiliaries[ws[0]] {
			k = kindOf(question[i+len(" and "):])
		}
	}
	if k == KindQuantity {
		ws := search.Words(question)
		// "how many invoices" counts them; "how much … invoice" asks what it comes to.
		counts := slices.Contains(ws, "many")
		for _, w := range ws {
			if moneyWords[w] && !counts {
				return KindMoney
			}
		}
	}
	return k
}

func kindOf(question string) Kind {
	ws := search.Words(question)
	for i, w := range ws {
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		switch w {
		case "when":
			// "When was it released?", "When is the open day?" ask for a date; "When should I
			// pinch the buds?" for a moment or a condition ("as soon as they appear").
			switch next {
			case "":
				return KindDate // "…, and when?"
			case "was", "were", "did", "is", "are", "will", "does", "do":
				if next == "does" || next == "do" {
					// "When does the sale start?" asks a date, "When do I water?" does not.
					if i+2 < len(ws) && (ws[i+2] == "i" || ws[i+2] == "we" || ws[i+2] == "you") {
						return KindAny
					}
				}
				return KindDate
			}
			return KindAny
		case "how":
			switch next {
			case "much", "many", "long", "big", "large", "old", "often", "far", "fast", "small", "heavy":
				return KindQuantity
			case "do", "does", "can", "could", "should", "would", "to", "shall", "must":
				return KindHowTo
			}
			return KindAny
		case "what", "which":
			// "what version", "which release", "what date", "what size" and "what is the total …":
			// the kind is named in the next few words.
			if DefinedTerm(question) != nil {
				return KindDefine
			}
			for k, v := range ws[i+1 : min(len(ws), i+6)] {
				switch {
				case v == "version" || v == "versions" || v == "release":
					return KindVersion // "what is the minimum Go version": five words in
				case k == 4:
					continue // the other kinds are named within four
				case v == "date" || v == "day" || v == "year" || v == "month" || v == "time":
					return KindDate
				case moneyFrame[v]:
					return KindMoney // "what did they charge", "what's left to pay", "what is the price"
				case quantityNouns[v]:
					return KindQuantity
				}
			}
			if plural(headNoun(ws[i+1:])) {
				return KindList
			}
			for _, v := range ws[i+1 : min(len(ws), i+4)] {
				if v == "included" || v == "include" || v == "includes" || v == "contain" || v == "contains" {
					return KindList // "what's included in the quote": its items
				}
			}
			return KindAny
		case "who", "whom":
			// "Who was at the kickoff?", "Who should invoices go to?": a person. "Who is X?"
			// asks about X, whom the answer names anyway.
			if next == "is" || next == "are" || next == "was" && i+2 < len(ws) && ws[i+2] != "at" && ws[i+2] != "in" {
				return KindAny
			}
			return KindPerson
		case "where", "why", "whose":
			return KindAny
		}
		if i >= 2 {
			break // the question word comes first ("So, when …" at most)
		}
	}
	return KindAny
}

// auxiliaries end the noun phrase a "which"/"what" question asks about.
var auxiliaries = map[string]bool{"did": true, "does": true, "do": true, "can": true, "could": true, "are": true, "were": true,
	"is": true, "was": true, "should": true, "will": true, "would": true, "have": true, "has": true, "s": true}

// phraseEnds end the noun phrase after "what are the …" ("the action items from the meeting").
var phraseEnds = map[string]bool{"from": true, "of": true, "in": true, "for": true, "on": true, "at": true, "that": true,
	"which": true, "to": true, "with": true, "by": true}

// headNoun is the last word of the noun phrase a question's words begin with ("coffee blends"
// of "coffee blends did I design", "action items" of "were the action items from …"), "" when
// there is none.
func headNoun(ws []string) string {
	if len(ws) > 0 && auxiliaries[ws[0]] {
		ws = ws[1:] // "what were the action items …"
		for len(ws) > 0 && articles[ws[0]] {
			ws = ws[1:]
		}
		for i, w := range ws {
			if phraseEnds[w] || auxiliaries[w] {
				ws = ws[:i]
				break
			}
		}
	} else {
		for i, w := range ws {
			if auxiliaries[w] {
				ws = ws[:i]
				break
			}
			if i == len(ws)-1 {
				return "" // no verb after it: not a noun phrase followed by its question
			}
		}
	}
	if len(ws) == 0 || len(ws) > 5 {
		return ""
	}
	return ws[len(ws)-1]
}

// plural reports whether a noun is written as a plural: "blends", "backends", "items", not
// "process", "status", "analysis".
func plural(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}

// holds reports whether a sentence holds a value of the kind other than the ones the question
// itself names (own, its identifiers: "1.9.0" in "When was 1.9.0 released?" is not the answer).
func (k Kind) holds(sentence string, own map[string]bool) bool {
	if k == KindVersion {
		sentence = withoutRefs(sentence)
	}
	switch k {
	case KindAny, KindHowTo, KindDefine:
		return true
	case KindDate:
		if hasMonthOrDay(sentence) {
			return true
		}
	case KindQuantity:
		if hasNumberWord(sentence) {
			return true
		}
	case KindMoney:
		return holdsMoney(sentence, false)
	case KindPerson:
		return false // see holdsPerson: it needs the persons the store knows
	}
	for _, t := range identTokens(sentence) {
		if !hasDigit(t) || own[normIdent(t)] {
			continue
		}
		switch {
		case k == KindQuantity,
			k == KindVersion && (strings.Contains(t, ".") || len(t) <= 3),
			k == KindDate && isDateToken(t):
			return true
		}
	}
	return false
}

// holdsPerson reports whether a sentence names a person: an e-mail address, or a person the
// store knows (people: each name's words) by full name. A first name alone ("Abi pays
// invoices", "Hi Bernadette") is too often another person's or a greeting, and capitalised
// words alone are no person: "Annual General Meeting" and "Fenwick Coffee Roasters" look like
// names.
func holdsPerson(sentence string, people [][]string) bool {
	for _, f := range heuristics.Find(sentence, nil) {
		if f.Kind == "email" {
			return true
		}
	}
	ws := search.Words(sentence)
	for _, p := range people {
		if len(p) > 1 && NameAt(ws, p) >= 0 {
			return true
		}
	}
	return false
}

// enumerates reports whether a sentence lists things: three or more items separated by commas
// ("inotify, kqueue, ReadDirectoryChangesW and FEN").
func enumerates(sentence string) bool {
	return strings.Count(sentence, ",") >= 2
}

// holdsMoney reports whether a sentence writes an amount of money: a currency with its number
// ("£2,148.60", "2,450.00 EUR"), or, when the passage names a currency elsewhere (an invoice's
// "Qty £" column heading), a number written with cents ("TOTAL 3,135.00").
func holdsMoney(sentence string, currencyNear bool) bool {
	for _, f := range heuristics.Find(sentence, nil) {
		if f.Kind == "money" {
			return true
		}
	}
	if currencyNear {
		for _, n := range Numbers(sentence) {
			if i := strings.IndexByte(n.Raw, '.'); i > 0 && len(n.Raw)-i == 3 {
				return true
			}
		}
	}
	return false
}

// currencies name money in a text: symbols, ISO codes as amounts are written with them, words.
var currencies = []string{"£", "$", "€", "¥", "EUR", "USD", "GBP", "CHF", "CZK", "SEK", "NOK", "DKK", "PLN", "JPY", "CAD", "AUD"}

// namesCurrency reports whether a passage names a currency anywhere.
func namesCurrency(ss []Sentence) bool {
	for _, s := range ss {
		for _, c := range currencies {
			if strings.Contains(s.Text, c) {
				return true
			}
		}
	}
	return false
}

// AsksValue reports whether the kind is a value's (a date, a quantity, an amount, a version).
func (k Kind) AsksValue() bool {
	return k == KindDate || k == KindQuantity || k == KindVersion || k == KindMoney
}

// hasMonthOrDay reports whether a sentence names a month or a weekday, as a date is written in
// words ("Sat 15 June", "14 February 2024").
func hasMonthOrDay(s string) bool {
	for _, w := range search.Words(s) {
		if _, ok := months[w]; ok && w != "may" {
			return true
		}
		switch w {
		case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "wed", "thu", "fri", "sat", "sun":
			return true
		}
	}
	return false
}

// isDateToken reports whether a token is written as a date or a year: 2024-04-04, 04.04.2024,
// 4/4, 1998 — digits (at least three) and the separators of a date only.
func isDateToken(t string) bool {
	if isYear(t) {
		return true
	}
	digits := 0
	for _, r := range t {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r != '-' && r != '.' && r != '/':
			return false
		}
	}
	return digits >= 3 && digits < len(t)
}

// numberWords are numbers written out ("at least six hours", "twice a week").
var numberWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`one two three four five six seven eight nine ten eleven twelve thirteen fourteen
		fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
		thousand million billion dozen half twice double triple`) {
		numberWords[w] = true
	}
}

func hasNumberWord(s string) bool {
	for _, w := range search.Words(s) {
		if numberWords[w] {
			return true
		}
	}
	return false
}

// articles open the term a definition question asks about.
var articles = map[string]bool{"a": true, "an": true, "the": true}

// DefinedTerm is the term a definition question asks about, as its words ("What is a dpkg
// trigger?" → dpkg trigger; "What does context length mean for an Ollama model?" → context
// length), or nil when the question is not one: "what is/are X", "what's X", "what does X
// mean", "define X". A term of more than four words is a question, not a term.
func DefinedTerm(question string) []string {
	ws := search.Words(question)
	var term []string
	meaning := false
	switch {
	case len(ws) >= 3 && ws[0] == "what" && (ws[1] == "is" || ws[1] == "are" || ws[1] == "s"):
		term = ws[2:]
	case len(ws) >= 4 && ws[0] == "what" && (ws[1] == "does" || ws[1] == "do"):
		i := slices.Index(ws, "mean")
		if i < 3 {
			return nil
		}
		term, meaning = ws[2:i], true
	case len(ws) >= 2 && ws[0] == "define":
		term = ws[1:]
	default:
		return nil
	}
	for len(term) > 0 && articles[term[0]] {
		term = term[1:]
	}
	// The term ends where its context begins ("context length for an Ollama model"); a stop
	// word inside it makes it a clause ("what is it that …"), not a term.
	for i, w := range term {
		if w == "for" || w == "in" || w == "of" || w == "on" || w == "to" || w == "with" {
			term = term[:i]
			break
		}
		if search.IsStopWord(w) {
			return nil
		}
	}
	if len(term) == 0 || len(term) > 4 {
		return nil
	}
	if len(term) == 1 && PastForm(term[0]) {
		return nil // "what is included in …", "what is required", "what's left to pay": a clause, not a term
	}
	if meaning {
		return term // "what does context length mean": a meaning, whatever the words
	}
	for _, w := range term {
		if quantityNouns[w] || w == "version" || w == "date" || w == "difference" || w == "best" || w == "default" {
			return nil // "what is the total", "what is the default …": a value
		}
	}
	return term
}

// defineVerbs follow a term its sentence defines: "X is …", "X means …", "X makes …".
var defineVerbs = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`is are means mean refers refer makes make lets let provides provide describes describe
		stands denotes represents represent specifies specify allows allow was were consists`) {
		defineVerbs[w] = true
	}
}

// Defines reports whether a sentence defines the term: the term among its first words (after
// an article or a bullet's label), followed soon by a defining verb, or the sentence "X — …"
// / "X: …" of a glossary.
func Defines(sentence string, term []string) bool {
	if definesAs(sentence, term, false) {
		return true
	}
	// "A trigger is an event …" defines a dpkg trigger in a document about dpkg; "A file
	// trigger is …" defines another kind of trigger.
	return len(term) > 1 && definesAs(sentence, term[len(term)-1:], true)
}

// HoldsTerm reports whether a sentence names a definition question's term, or its head word
// (the last: "trigger" of "dpkg trigger").
func HoldsTerm(sentence string, term []string) bool {
	ws := search.Words(sentence)
	return NameAt(ws, term) >= 0 || NameAt(ws, term[len(term)-1:]) >= 0
}

// definesAs is Defines for one spelling of the term; bare, the term (a head word alone) must
// stand with nothing but an article before it.
func definesAs(sentence string, term []string, bare bool) bool {
	ws := search.Words(sentence)
	at := NameAt(ws, term)
	if at < 0 || at > 3 || bare && at > 0 && !articles[ws[at-1]] {
		return false
	}
	rest := ws[at+len(term):]
	for i, w := range rest {
		if i > 3 {
			break
		}
		if defineVerbs[w] {
			return true
		}
	}
	// a glossary's "Bleed — extra image area …", "trigger: an event …"
	after := strings.ToLower(sentence)
	if i := strings.Index(after, strings.ToLower(term[len(term)-1])); i >= 0 {
		tail := strings.TrimLeft(after[i+len(term[len(term)-1]):], " s")
		return strings.HasPrefix(tail, "—") || strings.HasPrefix(tail, "–") || strings.HasPrefix(tail, ":") || strings.HasPrefix(tail, "- ") || strings.HasPrefix(tail, "(")
	}
	return false
}

// Values are the values of the kind a text writes, as written, with their normal form: the
// amounts of money for KindMoney, the dates for KindDate; none for other kinds.
func (k Kind) Values(text string) (written, norm []string) {
	want := map[Kind]string{KindMoney: "money", KindDate: "date"}[k]
	if want == "" {
		return nil, nil
	}
	for _, f := range heuristics.Find(text, nil) {
		if f.Kind == want {
			written, norm = append(written, text[f.ByteStart:f.ByteEnd]), append(norm, f.Value)
		}
	}
	return written, norm
}

// issueRef is an issue or pull request's number as a changelog writes it ("#149", "GH-12").
var issueRef = regexp.MustCompile(`(?i)(#|\bgh-)\d+\b`)

// withoutRefs is a text without its issue and pull request numbers: "add Max UUID constant
// (#149)" names no version, however much 149 looks like one.
func withoutRefs(text string) string {
	return issueRef.ReplaceAllString(text, " ")
}
