// Package heuristics finds facts in extracted text without a language model: dates, money
// amounts, e-mail addresses, URLs, hashtags, and a guess at the document's type. Each finding
// keeps its byte span so an observation can cite where in the file it was seen.
package heuristics

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Finding is one fact and where it is in the text.
type Finding struct {
	Kind      string // date | money | email | url | hashtag
	Value     string // normalised: YYYY-MM-DD, "1500.00 EUR", lower-case e-mail, URL, tag
	Amount    float64
	Currency  string
	ByteStart int
	ByteEnd   int
}

// MaxPerKind bounds the findings of each kind in one document (the first ones win).
const MaxPerKind = 50

var (
	reEmail   = regexp.MustCompile(`\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`)
	reURL     = regexp.MustCompile(`\bhttps?://[^\s<>"'()\[\]{}]+[^\s<>"'()\[\]{}.,;:!?]`)
	reHashtag = regexp.MustCompile(`(?:^|[\s(])#([A-Za-z][A-Za-z0-9_-]{1,49})\b`)
	reISO     = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	reDMY     = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+(\d{4})\b`)
	reMDY     = regexp.MustCompile(`(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	reMoney   = regexp.MustCompile(`(?i)(?:([$€£¥])\s?(\d{1,3}(?:[,\s]\d{3})+|\d+)(?:\.(\d{1,2}))?)|(?:\b(USD|EUR|GBP|CHF|JPY|CAD|AUD)\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\b)|(?:\b(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s?(USD|EUR|GBP|CHF|JPY|CAD|AUD|€|\$)(?:\W|$))`)
)

var months = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
var symbols = map[string]string{"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}

// Find returns the findings in text in order of position (ties by kind), at most MaxPerKind
// of each kind.
func Find(text string) []Finding {
	var out []Finding
	count := map[string]int{}
	add := func(f Finding) {
		if count[f.Kind] < MaxPerKind {
			count[f.Kind]++
			out = append(out, f)
		}
	}
	for _, m := range reEmail.FindAllStringIndex(text, -1) {
		add(Finding{Kind: "email", Value: strings.ToLower(text[m[0]:m[1]]), ByteStart: m[0], ByteEnd: m[1]})
	}
	for _, m := range reURL.FindAllStringIndex(text, -1) {
		add(Finding{Kind: "url", Value: text[m[0]:m[1]], ByteStart: m[0], ByteEnd: m[1]})
	}
	for _, m := range reHashtag.FindAllStringSubmatchIndex(text, -1) {
		add(Finding{Kind: "hashtag", Value: strings.ToLower(text[m[2]:m[3]]), ByteStart: m[2] - 1, ByteEnd: m[3]})
	}
	for _, m := range reISO.FindAllStringSubmatchIndex(text, -1) {
		if d, ok := date(text[m[2]:m[3]], text[m[4]:m[5]], text[m[6]:m[7]]); ok {
			add(Finding{Kind: "date", Value: d, ByteStart: m[0], ByteEnd: m[1]})
		}
	}
	for _, m := range reDMY.FindAllStringSubmatchIndex(text, -1) {
		if d, ok := dateNamed(text[m[6]:m[7]], text[m[4]:m[5]], text[m[2]:m[3]]); ok {
			add(Finding{Kind: "date", Value: d, ByteStart: m[0], ByteEnd: m[1]})
		}
	}
	for _, m := range reMDY.FindAllStringSubmatchIndex(text, -1) {
		if d, ok := dateNamed(text[m[6]:m[7]], text[m[2]:m[3]], text[m[4]:m[5]]); ok {
			add(Finding{Kind: "date", Value: d, ByteStart: m[0], ByteEnd: m[1]})
		}
	}
	for _, m := range reMoney.FindAllStringSubmatchIndex(text, -1) {
		if f, ok := money(text, m); ok {
			add(f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].ByteStart != out[j].ByteStart {
			return out[i].ByteStart < out[j].ByteStart
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

func date(y, m, d string) (string, bool) {
	t, err := time.Parse("2006-01-02", y+"-"+m+"-"+d)
	if err != nil || t.Year() < 1900 || t.Year() > 2200 {
		return "", false
	}
	return t.Format("2006-01-02"), true
}

func dateNamed(y, mon, d string) (string, bool) {
	mo, ok := months[strings.ToLower(mon)]
	if !ok {
		return "", false
	}
	day, _ := strconv.Atoi(d)
	return date(y, strconv.Itoa(int(mo)+100)[1:], strconv.Itoa(day+100)[1:])
}

func money(text string, m []int) (Finding, bool) {
	group := func(i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return text[m[2*i]:m[2*i+1]]
	}
	var cur, whole, cents string
	switch {
	case group(1) != "":
		cur, whole, cents = symbols[group(1)], group(2), group(3)
	case group(4) != "":
		cur, whole, cents = strings.ToUpper(group(4)), group(5), group(6)
	default:
		cur, whole, cents = strings.ToUpper(group(9)), group(7), group(8)
		if c, ok := symbols[cur]; ok {
			cur = c
		}
	}
	digits := strings.NewReplacer(",", "", " ", "").Replace(whole)
	if cents != "" {
		digits += "." + cents
	}
	amt, err := strconv.ParseFloat(digits, 64)
	if err != nil || cur == "" {
		return Finding{}, false
	}
	end := m[1]
	for end > m[0] && !isMoneyEnd(text[end-1]) { // the suffix form may have eaten one trailing byte
		end--
	}
	return Finding{Kind: "money", Value: strconv.FormatFloat(amt, 'f', 2, 64) + " " + cur, Amount: amt, Currency: cur, ByteStart: m[0], ByteEnd: end}, true
}

func isMoneyEnd(b byte) bool {
	return (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') || b >= 0x80 || b == '$'
}

// Types a document can be guessed as.
var docTypes = []struct {
	name  string
	words []string
}{
	{"invoice", []string{"invoice", "invoice number", "invoice no", "bill to", "amount due", "due date", "vat"}},
	{"receipt", []string{"receipt", "subtotal", "total paid", "thank you for your purchase", "change due", "cashier"}},
	{"contract", []string{"agreement", "hereinafter", "the parties", "governing law", "term of", "witnesseth", "in witness whereof"}},
	{"meeting-notes", []string{"attendees", "action items", "agenda", "minutes", "next steps", "decisions"}},
	{"report", []string{"executive summary", "findings", "conclusion", "recommendations", "methodology"}},
}

// DocType guesses a document's type from its format kind and words: invoice, receipt,
// contract, meeting-notes, report, code, data, article or note.
func DocType(kind, title, text string) string {
	switch kind {
	case "code":
		return "code"
	case "csv", "json":
		return "data"
	}
	sample := strings.ToLower(title + "\n" + text)
	if len(sample) > 20000 {
		sample = sample[:20000]
	}
	best, bestScore := "", 1
	for _, t := range docTypes {
		score := 0
		for _, w := range t.words {
			if strings.Contains(sample, w) {
				score++
			}
		}
		if strings.Contains(strings.ToLower(title), t.name) {
			score += 2
		}
		if score > bestScore {
			best, bestScore = t.name, score
		}
	}
	if best != "" {
		return best
	}
	if len(text) > 3000 {
		return "article"
	}
	return "note"
}
