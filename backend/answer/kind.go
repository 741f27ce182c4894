package answer

import (
	"strings"

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
)

func (k Kind) String() string {
	return [...]string{"any", "date", "quantity", "version", "how-to"}[k]
}

// quantityNouns make "what is the X" ask for a number.
var quantityNouns = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`size price cost costs total amount fee fees rent number count percentage rate budget
		limit length width height weight duration timeout port salary balance`) {
		quantityNouns[w] = true
	}
}

// KindOf reads what a question asks for from its first words.
func KindOf(question string) Kind {
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
			for _, v := range ws[i+1 : min(len(ws), i+5)] {
				switch {
				case v == "version" || v == "versions" || v == "release":
					return KindVersion
				case v == "date" || v == "day" || v == "year" || v == "month" || v == "time":
					return KindDate
				case quantityNouns[v]:
					return KindQuantity
				}
			}
			return KindAny
		case "who", "where", "why", "whose", "whom":
			return KindAny
		}
		if i >= 2 {
			break // the question word comes first ("So, when …" at most)
		}
	}
	return KindAny
}

// Holds reports whether a sentence holds a value of the kind other than the ones the question
// itself names (its identifiers: "1.9.0" in "When was 1.9.0 released?" is not the answer).
func (k Kind) Holds(sentence string, r Required) bool {
	if k == KindAny || k == KindHowTo {
		return true
	}
	own := map[string]bool{}
	for _, p := range append([]Required{r}, r.Parts...) {
		for _, id := range p.Idents {
			own[id] = true
		}
	}
	if k == KindDate && hasMonthOrDay(sentence) {
		return true
	}
	if k == KindQuantity && hasNumberWord(sentence) {
		return true
	}
	for _, t := range identTokens(sentence) {
		if !hasDigit(t) || own[normIdent(t)] {
			continue
		}
		switch k {
		case KindQuantity:
			return true
		case KindVersion:
			if strings.Contains(t, ".") || len(t) <= 3 {
				return true
			}
		case KindDate:
			if isDateToken(t) {
				return true
			}
		}
	}
	return false
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
// 4/4, 1998.
func isDateToken(t string) bool {
	if isYear(t) {
		return true
	}
	digitsOnly := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, t)
	return len(digitsOnly) >= 3 && strings.ContainsAny(t, "-./") && len(digitsOnly) == len(t)-strings.Count(t, "-")-strings.Count(t, ".")-strings.Count(t, "/")
}

// numberWords are numbers written out ("at least six hours", "twice a week").
var numberWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`one two three four five six seven eight nine ten eleven twelve thirteen fourteen
		fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
		thousand million billion dozen half twice once double triple`) {
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
