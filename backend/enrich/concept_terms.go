package enrich

import (
	"regexp"
	"strings"
	"unicode"
)

// conceptNames turns spellings into concept identity keys. The key is the whole identity: two
// spellings with one key are one concept entity (its ID derives from the key), decided before
// any similarity is used, so the same spellings give the same entity in any store and order.
type conceptNames struct {
	plural  map[string]bool   // words whose final s is not a plural (windows, news, series …)
	aliases map[string]string // normalised alias → normalised canonical key
	generic map[string]bool   // normalised generic headings (introduction, summary, see also …)
}

func newConceptNames(s conceptSettings) *conceptNames {
	n := &conceptNames{plural: map[string]bool{}, aliases: map[string]string{}, generic: map[string]bool{}}
	for _, w := range s.PluralExceptions {
		n.plural[strings.ToLower(strings.TrimSpace(w))] = true
	}
	for _, g := range s.Generic {
		if k := n.plain(g); k != "" {
			n.generic[k] = true
		}
	}
	for canon, list := range s.Aliases {
		c := n.plain(canon)
		for _, a := range list {
			if k := n.plain(a); k != "" && c != "" && k != c {
				n.aliases[k] = c
			}
		}
	}
	return n
}

// words splits a spelling into lower-case words of letters and digits: case, hyphens,
// underscores, dots and other punctuation only separate words ("Machine-Learning",
// "machine_learning", "#machine learning" are the same words).
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// singular undoes a regular English plural: ies → y, (s|x|z|ch|sh)es → drop es, s → drop s;
// not after ss/us/is, not for short words, not for the configured exceptions.
func (n *conceptNames) singular(w string) string {
	if n.plural[w] || len(w) <= 3 || !strings.HasSuffix(w, "s") {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	}
	return w[:len(w)-1]
}

// plain is the key of a spelling without aliases: its words, the last one singular (the head
// noun of an English noun phrase: "writable streams" → "writable stream", "Packages" →
// "package"), joined by one space.
func (n *conceptNames) plain(s string) string {
	ws := words(s)
	if len(ws) == 0 {
		return ""
	}
	ws[len(ws)-1] = n.singular(ws[len(ws)-1])
	return strings.Join(ws, " ")
}

// key is the concept identity key of a spelling: plain, then a declared alias resolved.
func (n *conceptNames) key(s string) string {
	k := n.plain(s)
	if c, ok := n.aliases[k]; ok {
		return c
	}
	return k
}

// Heading terms (the rule measured in docs/enrichments-research.md §2, heads5.py, 35/40
// judged right on a random sample): a heading segment names a concept only when it reads as a
// noun phrase of 1–3 content words, not as code, a question, a how-to or a generic section.
var (
	codeChars   = "*;!()[]{}<>=`'\"_/\\"
	codeDotted  = regexp.MustCompile(`\w[.:]\w`)
	codePrefix  = regexp.MustCompile(`^(?i)(event|class|static method|method|property|constructor|interface|type|module|modules):`)
	numbering   = regexp.MustCompile(`^(?:\d+(?:\.\d+)*\.?\s+|(?i:chapter|appendix|part)\s+[A-Za-z0-9]+[:.]?\s*|[A-Z0-9]{1,3}\s+-\s+)`)
	listSplit   = regexp.MustCompile(`,\s+and\s+|,\s+|\s+and\s+|\s+vs\.?\s+|:\s+`)
	questionLed = regexp.MustCompile(`^(?i)(what|which|who)\s+(is|are)\s+`)
	howWords    = map[string]bool{"how": true, "why": true, "what": true, "when": true, "where": true, "which": true, "who": true, "using": true, "use": true}
	leadDrop    = map[string]bool{"example": true, "two": true, "three": true, "one": true, "new": true, "other": true, "more": true, "some": true, "first": true, "our": true}
	stopWords   = map[string]bool{"the": true, "a": true, "an": true, "in": true, "of": true, "on": true, "for": true, "to": true, "with": true,
		"by": true, "from": true, "at": true, "as": true, "into": true, "about": true, "is": true, "are": true, "and": true, "or": true,
		"its": true, "your": true, "this": true, "that": true, "these": true, "those": true, "vs": true, "not": true, "be": true,
		"while": true, "when": true, "if": true, "via": true, "using": true, "without": true, "between": true, "within": true, "than": true}
	// labelWords make a heading a section label around a topic, not a topic ("Callback example",
	// "Performance considerations", "Additional notes": ✗ in the research sample).
	labelWords = map[string]bool{"example": true, "usage": true, "note": true, "consideration": true, "option": true}
)

func codeLike(seg string) bool {
	if strings.ContainsAny(seg, codeChars) || codeDotted.MatchString(seg) || codePrefix.MatchString(seg) ||
		strings.Contains(seg, "--") || strings.HasPrefix(seg, "-") {
		return true
	}
	for _, w := range strings.Fields(seg) {
		rs := []rune(w)
		for i := 1; i < len(rs); i++ {
			if unicode.IsLower(rs[i-1]) && unicode.IsUpper(rs[i]) {
				return true // EventEmitter, keyObject: an identifier
			}
		}
	}
	letters, upper := 0, 0
	for _, r := range seg {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	if letters >= 3 && upper == letters {
		return true // ALL CAPS: a constant or an error code (or a man page's SEE ALSO)
	}
	first := strings.Fields(seg)
	if len(first) > 0 {
		rs := []rune(first[0])
		if unicode.IsLower(rs[0]) {
			for _, r := range rs[1:] {
				if unicode.IsUpper(r) {
					return true // keyObject, readFile: an identifier
				}
			}
		}
	}
	return false
}

// headingTerms returns the concept spellings one heading segment names ("Packages and Crates"
// → Packages, Crates; "What Is Ownership?" → Ownership; "Introduction" → none).
func (n *conceptNames) headingTerms(seg string, maxWords int) []string {
	seg = strings.TrimSpace(numbering.ReplaceAllString(strings.TrimSpace(seg), ""))
	if seg == "" || codeLike(seg) {
		return nil
	}
	seg = strings.TrimRight(seg, "?!.: ")
	seg = questionLed.ReplaceAllString(seg, "") // "What Is Ownership" → "Ownership"
	ws := strings.Fields(seg)
	if len(ws) == 0 {
		return nil
	}
	lead := strings.ToLower(ws[0])
	if howWords[lead] || leadDrop[lead] {
		return nil
	}
	var out []string
	for _, part := range listSplit.Split(seg, -1) {
		pw := strings.Fields(part)
		for len(pw) > 0 && stopWords[strings.ToLower(pw[0])] {
			pw = pw[1:]
		}
		if len(pw) == 0 {
			return nil
		}
		if len(pw) > 1 {
			if f := strings.ToLower(pw[0]); strings.HasSuffix(f, "ing") || strings.HasSuffix(f, "ly") {
				return nil // "Creating a New String", "Selectively Responding": a how-to
			}
		}
		for _, w := range pw[1:] {
			if stopWords[strings.ToLower(w)] {
				return nil // "Validating References with Lifetimes": a sentence, not a name
			}
		}
		term := strings.Join(pw, " ")
		k := n.plain(term)
		if k == "" || len(strings.Fields(k)) > maxWords {
			return nil
		}
		for _, w := range strings.Fields(k) {
			if labelWords[n.singular(w)] {
				return nil
			}
		}
		allGeneric := true
		for _, w := range strings.Fields(k) {
			allGeneric = allGeneric && (n.generic[w] || n.generic[n.singular(w)])
		}
		if n.generic[k] || allGeneric {
			continue // a generic part falls silently: "References and Borrowing" → Borrowing
		}
		out = append(out, term)
	}
	return out
}

// textKeys returns the keys of every 1..maxWords-word run of a chunk's text (heading lines
// left out: a heading is structure, counted as a heading mention, not as text), last word
// singular, with the run's position in words for ordering. Cost: linear in the text.
func (n *conceptNames) textKeys(text string, maxWords int) map[string]int {
	out := map[string]int{}
	var ws []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			ws = append(ws, "\x00") // a break: no run spans a heading
			continue
		}
		ws = append(ws, words(line)...)
		ws = append(ws, "\x00")
	}
	for i := range ws {
		for l := 1; l <= maxWords && i+l <= len(ws); l++ {
			run := ws[i : i+l]
			if run[l-1] == "\x00" || stopWords[run[l-1]] {
				break // no name holds a stop word or spans a heading
			}
			last := n.singular(run[l-1])
			k := last
			if l > 1 {
				k = strings.Join(run[:l-1], " ") + " " + last
			}
			if _, ok := out[k]; !ok {
				out[k] = i
			}
		}
	}
	return out
}
