package answer

import (
	"github.com/strata-app/strata/backend/search"
)

// A question names an entity when the entity's name, as words, stands in the question as whole
// words: "What did Acme invoice?" names "Acme Corp" (a legal form is no part of the name a
// person says), "acme" names "ACME Corp." (case and punctuation do not count), but "Acmeville"
// does not name "Acme" and "a" or "the" name nothing. Matching is on words, never on
// substrings of a word.

// legalForms are the words of a company's legal form, dropped from the end of its name.
var legalForms = map[string]bool{}

func init() {
	for _, w := range []string{"corp", "corporation", "inc", "incorporated", "ltd", "limited", "llc", "llp", "lp", "plc",
		"gmbh", "ag", "kg", "ug", "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "oy", "ab", "as", "aps", "pty", "co", "company", "kk"} {
		legalForms[w] = true
	}
}

// NameWords are the words a name is matched by: its lower-case words of letters and digits
// without the legal form at its end ("Acme Corp." → [acme]; "Acme Co. Ltd" → [acme]). A name
// that is nothing but a legal form keeps its words. Nil when the name cannot name anything in
// a question: no word, or a single word that is one letter, a stop word or a number.
func NameWords(name string) []string {
	ws := search.Words(name)
	end := len(ws)
	for end > 1 && legalForms[ws[end-1]] {
		end--
	}
	ws = ws[:end]
	switch {
	case len(ws) == 0:
		return nil
	case len(ws) == 1 && (len([]rune(ws[0])) < 2 || search.IsStopWord(ws[0]) || isNumberWord(ws[0])):
		return nil
	}
	stop := 0
	for _, w := range ws {
		if search.IsStopWord(w) {
			stop++
		}
	}
	if stop == len(ws) {
		return nil
	}
	return ws
}

// NameAt returns where the name's words (NameWords) stand in the question's words
// (search.Words of the question) as a run of whole words, or -1.
func NameAt(question, name []string) int {
	if len(name) == 0 {
		return -1
	}
	for i := 0; i+len(name) <= len(question); i++ {
		ok := true
		for j, w := range name {
			if question[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}
