// Package heuristics finds facts in extracted text without a language model: dates, money
// amounts, e-mail addresses, URLs, hashtags, and a guess at the document's type. Each finding
// keeps its byte span so an observation can cite where in the file it was seen.
package heuristics

import (
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

var months = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
var symbols = map[string]string{"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}

func date(y, m, d string) (string, bool) {
	t, err := time.Parse("2006-01-02", y+"-"+m+"-"+d)
	if err != nil || t.Year() < 1900 || t.Year() > 2200 {
		return "", false
	}
	return t.Format("2006-01-02"), true
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
