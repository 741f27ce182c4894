package answer

import (
	"fmt"
	"math"
	"strings"

	"github.com/strata-app/strata/backend/search"
)

// A chat model's sentence is kept only if the passages it cites bear it out. The check is
// mechanical and errs towards refusing: a sentence that is true but not said by its passages is
// removed (and listed, so nothing disappears unseen), because an answer that shows something
// false is worse than a shorter one.
//
//   - It must cite: a sentence with no [n] has no source.
//   - Every [n] must name a passage that was sent: a citation to nothing is invented.
//   - Every number it writes must be written in its cited passages (compared normalised:
//     "1,540" = "1540" = "1540.00"): numbers are where a model's answer goes wrong in ways that
//     read as right, and no share of other words makes a wrong amount right.
//   - Its key terms (content words, stemmed as the index stems them) must be in its cited
//     passages together: at least three in four of them (KeyTermShare). Not all: a faithful
//     sentence links the passage's words with a few of its own ("allows", "typically"), and
//     demanding every word refused most faithful sentences of the test answers; a sentence
//     that imports a claim from elsewhere brings that claim's words, and half of its words
//     missing is not a paraphrase. Words that say nothing about the claim (stop words, and the
//     generic verbs and nouns below) are not key terms.

// KeyTermShare is the least share of a sentence's key terms its cited passages must hold.
const KeyTermShare = 0.75

// Verdict is the outcome of checking one sentence.
type Verdict struct {
	Cites  []int  // the passage numbers it cites, in order
	Text   string // the sentence without its markers
	OK     bool
	Reason string // why not, in words a person reads: "no citation", "[2] does not say 1,540", "cites no passage [9]"
}

// Check checks one sentence of a chat model's answer against the passages it was given
// (passage number → text).
func Check(sentence string, passages map[int]string) Verdict {
	cites, text := Markers(sentence)
	v := Verdict{Cites: cites, Text: text}
	if len(cites) == 0 {
		v.Reason = "no citation"
		return v
	}
	var missing []string
	for _, n := range cites {
		if _, ok := passages[n]; !ok {
			missing = append(missing, fmt.Sprintf("[%d]", n))
		}
	}
	if len(missing) > 0 {
		v.Reason = "cites no passage " + strings.Join(missing, ", ")
		return v
	}
	var cited strings.Builder
	for _, n := range cites {
		cited.WriteString(passages[n])
		cited.WriteString("\n")
	}
	src := cited.String()
	who := citeList(cites)
	verb := "does not say"
	if len(cites) > 1 {
		verb = "do not say"
	}
	have := map[string]bool{}
	for _, n := range Numbers(src) {
		have[n.Norm] = true
	}
	var absent []string
	seenNum := map[string]bool{}
	for _, n := range Numbers(text) {
		if w := n.Written(text); !have[n.Norm] && !seenNum[w] {
			seenNum[w] = true
			absent = append(absent, w)
		}
	}
	if len(absent) > 0 {
		v.Reason = fmt.Sprintf("%s %s %s", who, verb, strings.Join(absent, ", "))
		return v
	}
	keys := KeyTerms(text)
	if len(keys) > 0 {
		srcStems := map[string]bool{}
		for _, s := range search.Stems(src) {
			srcStems[s] = true
		}
		var lacking []string
		found := 0
		for _, k := range keys {
			if srcStems[k.Stem] {
				found++
			} else {
				lacking = append(lacking, "“"+k.Word+"”")
			}
		}
		if need := int(math.Ceil(KeyTermShare * float64(len(keys)))); found < need {
			v.Reason = fmt.Sprintf("%s %s %s", who, verb, strings.Join(lacking, ", "))
			return v
		}
	}
	v.OK = true
	return v
}

// citeList writes passage numbers as markers: "[2]", "[1], [3]".
func citeList(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("[%d]", n)
	}
	return strings.Join(parts, ", ")
}

// KeyTerm is a content word of a sentence and its stem.
type KeyTerm struct{ Word, Stem string }

// KeyTerms returns the distinct content words of a sentence, in order: no stop words, no
// generic words, no numbers (checked on their own), nothing shorter than two letters.
func KeyTerms(text string) []KeyTerm {
	var out []KeyTerm
	seen := map[string]bool{}
	for _, w := range search.Words(text) {
		if len(w) < 2 || search.IsStopWord(w) || genericWords[w] || isNumberWord(w) {
			continue
		}
		for _, s := range search.Stems(w) {
			if !seen[s] {
				seen[s] = true
				out = append(out, KeyTerm{Word: w, Stem: s})
			}
		}
	}
	return out
}

func isNumberWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) {
			return false
		}
	}
	return true
}

// genericWords are words a sentence uses to link its claim, not to make it: a model writes
// "you can use X to do Y" where the passage says "X does Y".
var genericWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`use uses used using make makes made making allow allows allowed allowing
		provide provides provided providing let lets need needs needed want wants get gets got give gives given
		way ways also like called call example instance various several many much may might must shall
		one ones thing things kind kinds type types able well yes according passage passages source sources document
		documents text mention mentions mentioned state states stated says said describe describes described`) {
		genericWords[w] = true
	}
}
