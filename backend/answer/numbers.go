package answer

import "strings"

// Number is a number as a text writes it (Raw) and in one spelling (Norm), so that "1,540",
// "1540" and "1540.00" are the same number and "15.4" is not.
type Number struct {
	Raw        string
	Norm       string
	Start, End int // Raw's place in the text
}

// Numbers returns the numbers written in text, in order: runs of digits with thousands
// separators ("1,540") and a decimal part ("1540.00"); a dotted run of three or more parts
// ("18.0.0", "10.1.2.3") is one number written as is. Digits inside a word count ("ES2015",
// "sha256"): the check compares both sides the same way. A number is normalised by dropping its
// thousands separators, its leading zeros and a decimal part's trailing zeros, so a date's
// "03" is 3.
func Numbers(text string) []Number {
	var out []Number
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		start := i
		j := digits(text, i)
		intPart := text[i:j]
		// thousands separators: ",ddd" groups after one to three digits
		if j-i <= 3 {
			for j+4 <= len(text) && text[j] == ',' && digits(text, j+1) == j+4 {
				intPart += text[j+1 : j+4]
				j += 4
			}
		}
		frac := ""
		var dotted []string
		for j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]) {
			k := digits(text, j+1)
			dotted = append(dotted, text[j+1:k])
			j = k
		}
		switch len(dotted) {
		case 0:
		case 1:
			frac = dotted[0]
		default:
			// a version or an address: compare as written
			out = append(out, Number{Raw: text[start:j], Norm: text[start:j], Start: start, End: j})
			i = j
			continue
		}
		out = append(out, Number{Raw: text[start:j], Norm: normNumber(intPart, frac), Start: start, End: j})
		i = j
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits returns the end of the run of digits starting at i.
func digits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func normNumber(intPart, frac string) string {
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	frac = strings.TrimRight(frac, "0")
	if frac == "" {
		return intPart
	}
	return intPart + "." + frac
}

// Written is the number as a reader sees it written: with what it is part of up to the spaces
// around it ("2025-04-02" for its 04, "v18.0.0", "1,540.00"), without the punctuation that ends
// a sentence or a clause.
func (n Number) Written(text string) string {
	i, j := n.Start, n.End
	for i > 0 && text[i-1] != ' ' && text[i-1] != '(' && text[i-1] != '\n' {
		i--
	}
	for j < len(text) && text[j] != ' ' && text[j] != ')' && text[j] != '\n' {
		j++
	}
	return strings.TrimRight(text[i:j], ".,;:!?")
}
