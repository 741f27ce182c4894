package answer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/strata-app/strata/backend/search"
)

// Period is a stretch of time a question names: a year, a month (of a year, or of any year:
// "in March"), or a day. Zero fields are unnamed.
type Period struct {
	Year, Month, Day int
}

// IsZero reports whether no period was named.
func (p Period) IsZero() bool { return p.Year == 0 && p.Month == 0 && p.Day == 0 }

// String writes the period as a person reads it: "2025-03", "March", "2025".
func (p Period) String() string {
	switch {
	case p.Day > 0 && p.Year > 0:
		return fmt.Sprintf("%04d-%02d-%02d", p.Year, p.Month, p.Day)
	case p.Month > 0 && p.Year > 0:
		return fmt.Sprintf("%04d-%02d", p.Year, p.Month)
	case p.Month > 0:
		return monthNames[p.Month-1]
	case p.Year > 0:
		return strconv.Itoa(p.Year)
	}
	return ""
}

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September",
	"October", "November", "December"}

// months maps month names and their abbreviations to their number. "may" is a month only where
// a date makes it one (see ParsePeriod): alone it is a verb far more often.
var months = map[string]int{}

func init() {
	for i, m := range monthNames {
		l := strings.ToLower(m)
		months[l] = i + 1
		months[l[:3]] = i + 1
	}
	months["sept"] = 9
}

// ParsePeriod finds the period a question names: an ISO date (2025-03-04) or month (2025-03),
// a month name with or without a year ("March", "Mar 2025", "March 4, 2025"), or a year
// (1900–2199) on its own. The first one named counts. "May" counts as the month only next to a
// year or a day, or after "in", "of", "since", "during", "until", "before" or "after".
//
// An identifier's digits are not a period: "invoice INV-2025-031" names no year.
func ParsePeriod(question string) Period {
	q := strings.ToLower(question)
	for _, t := range identTokens(q) {
		if hasDigit(t) && strings.IndexFunc(t, unicode.IsLetter) >= 0 && !ordinal(t) {
			q = strings.ReplaceAll(q, t, " ")
		}
	}
	for _, f := range strings.FieldsFunc(q, func(r rune) bool { return r == ' ' || r == ',' || r == '?' || r == '(' || r == ')' }) {
		f = strings.TrimRight(f, ".!;:")
		if p, ok := isoPeriod(f); ok {
			return p
		}
	}
	ws := search.Words(q)
	for i, w := range ws {
		m, ok := months[w]
		if !ok {
			continue
		}
		p := Period{Month: m}
		k := i + 1
		if d, ok := dayOf(ws, k); ok { // "March 4"
			p.Day = d
			k++
		} else if d, ok := dayOf(ws, i-1); ok { // "4 March"
			p.Day = d
		}
		if k < len(ws) && isYear(ws[k]) {
			p.Year, _ = strconv.Atoi(ws[k])
		}
		if w == "may" && p.Year == 0 && p.Day == 0 && (i == 0 || !mayPrefix[ws[i-1]]) {
			continue
		}
		if p.Year == 0 {
			p.Day = 0 // "March 4" of any year is too loose to name a day
		}
		return p
	}
	for _, w := range ws {
		if isYear(w) {
			y, _ := strconv.Atoi(w)
			return Period{Year: y}
		}
	}
	return Period{}
}

var mayPrefix = map[string]bool{"in": true, "of": true, "since": true, "during": true, "until": true, "before": true, "after": true}

func isYear(w string) bool {
	if len(w) != 4 || !isNumberWord(w) {
		return false
	}
	y, _ := strconv.Atoi(w)
	return y >= 1900 && y < 2200
}

// dayOf reads ws[i] as a day of a month ("4", "4th", "21st").
func dayOf(ws []string, i int) (int, bool) {
	if i < 0 || i >= len(ws) {
		return 0, false
	}
	w := ws[i]
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		w = strings.TrimSuffix(w, suf)
	}
	if len(w) == 0 || len(w) > 2 || !isNumberWord(w) {
		return 0, false
	}
	d, _ := strconv.Atoi(w)
	return d, d >= 1 && d <= 31
}

// isoPeriod reads 2025-03-04 or 2025-03.
func isoPeriod(f string) (Period, bool) {
	parts := strings.Split(f, "-")
	if len(parts) < 2 || len(parts) > 3 || !isYear(parts[0]) || len(parts[1]) != 2 || !isNumberWord(parts[1]) {
		return Period{}, false
	}
	y, _ := strconv.Atoi(parts[0])
	m, _ := strconv.Atoi(parts[1])
	if m < 1 || m > 12 {
		return Period{}, false
	}
	p := Period{Year: y, Month: m}
	if len(parts) == 3 {
		if len(parts[2]) != 2 || !isNumberWord(parts[2]) {
			return Period{}, false
		}
		p.Day, _ = strconv.Atoi(parts[2])
	}
	return p, true
}

// Contains reports whether a date value (an ISO date or time, "2025-03-04" or
// "2025-03-04T10:00:00Z") falls in the period. A value that is not such a date is in no period.
func (p Period) Contains(value string) bool {
	if len(value) < 10 || value[4] != '-' || value[7] != '-' {
		return false
	}
	y, err1 := strconv.Atoi(value[:4])
	m, err2 := strconv.Atoi(value[5:7])
	d, err3 := strconv.Atoi(value[8:10])
	if err1 != nil || err2 != nil || err3 != nil {
		return false
	}
	return (p.Year == 0 || p.Year == y) && (p.Month == 0 || p.Month == m) && (p.Day == 0 || p.Day == d)
}

// ordinal reports a day written as an ordinal: 4th, 1st, 22nd.
func ordinal(t string) bool {
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) })
	return i > 0 && (t[i:] == "st" || t[i:] == "nd" || t[i:] == "rd" || t[i:] == "th")
}
