package search

// The Porter stemmer exactly as FTS5's `porter` tokenizer applies it (see tokenize.go for why it
// is reproduced): byte-wise, on tokens of 3 to 64 bytes, with FTS5's reading of each rule's
// condition. In particular a rule whose suffix matches but whose condition fails ends its step
// (no later suffix of the same step is tried), and 'y' is a vowel after any letter in (*v*).

const porterMaxToken = 64

// porterStem stems w in place and returns the stem (a prefix of w's backing array, possibly
// one byte longer than w's length but never longer than its original length).
func porterStem(w []byte) []byte {
	if len(w) < 3 || len(w) > porterMaxToken {
		return w
	}
	b := w
	b = porterStep1A(b)
	if nb, ok := porterStep1B(b); ok {
		b = nb
		if nb, ok := porterApply(b, step1B2); ok {
			b = nb
		} else {
			n := len(b)
			c := b[n-1]
			if !porterVowel(c, false) && c != 'l' && c != 's' && c != 'z' && n >= 2 && c == b[n-2] {
				b = b[:n-1]
			} else if porterMEq1(b) && porterOStar(b) {
				b = append(b, 'e')
			}
		}
	} else {
		b = nb
	}
	// Step 1c.
	if n := len(b); b[n-1] == 'y' && porterHasVowel(b[:n-1]) {
		b[n-1] = 'i'
	}
	b, _ = porterApply(b, step2)
	b, _ = porterApply(b, step3)
	b, _ = porterApply(b, step4)
	// Step 5a.
	if n := len(b); b[n-1] == 'e' {
		stem := b[:n-1]
		if porterMGt1(stem) || (porterMEq1(stem) && !porterOStar(stem)) {
			b = stem
		}
	}
	// Step 5b.
	if n := len(b); n > 1 && b[n-1] == 'l' && b[n-2] == 'l' && porterMGt1(b[:n-1]) {
		b = b[:n-1]
	}
	return b
}

func porterVowel(c byte, yIsVowel bool) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || (yIsVowel && c == 'y')
}

// porterVC skips to the first vowel and then past the next consonant, returning the index just
// after that consonant, or 0 if there is no vowel-consonant sequence. prevCons says whether the
// letter before stem[0] was a consonant (it decides whether a leading 'y' is a vowel).
func porterVC(stem []byte, prevCons bool) int {
	cons := prevCons
	i := 0
	for ; i < len(stem); i++ {
		cons = !porterVowel(stem[i], cons)
		if !cons {
			break
		}
	}
	for i++; i < len(stem); i++ {
		cons = !porterVowel(stem[i], cons)
		if cons {
			return i + 1
		}
	}
	return 0
}

// porterMGt0 is the condition m > 0 on stem.
func porterMGt0(stem []byte) bool { return porterVC(stem, false) != 0 }

// porterMGt1 is m > 1.
func porterMGt1(stem []byte) bool {
	n := porterVC(stem, false)
	return n != 0 && porterVC(stem[n:], true) != 0
}

// porterMEq1 is m = 1.
func porterMEq1(stem []byte) bool {
	n := porterVC(stem, false)
	return n != 0 && porterVC(stem[n:], true) == 0
}

// porterOStar is *o: the stem ends consonant-vowel-consonant, the last not w, x or y.
func porterOStar(stem []byte) bool {
	last := stem[len(stem)-1]
	if last == 'w' || last == 'x' || last == 'y' {
		return false
	}
	var mask uint
	cons := false
	for _, c := range stem {
		cons = !porterVowel(c, cons)
		mask <<= 1
		if cons {
			mask |= 1
		}
	}
	return mask&7 == 5
}

// porterHasVowel is *v*.
func porterHasVowel(stem []byte) bool {
	for i, c := range stem {
		if porterVowel(c, i > 0) {
			return true
		}
	}
	return false
}

func porterMGt1SorT(stem []byte) bool {
	last := stem[len(stem)-1]
	return (last == 's' || last == 't') && porterMGt1(stem)
}

func porterStep1A(b []byte) []byte {
	n := len(b)
	if b[n-1] != 's' {
		return b
	}
	switch {
	case b[n-2] == 'e':
		if (n > 4 && b[n-4] == 's' && b[n-3] == 's') || (n > 3 && b[n-3] == 'i') {
			return b[:n-2]
		}
		return b[:n-1]
	case b[n-2] != 's':
		return b[:n-1]
	}
	return b
}

// porterStep1B removes -eed/-ed/-ing; ok reports whether -ed or -ing went (which triggers the
// clean-up of step 1b's second half).
func porterStep1B(b []byte) ([]byte, bool) {
	n := len(b)
	switch {
	case n > 3 && string(b[n-3:]) == "eed":
		if porterMGt0(b[:n-3]) {
			return b[:n-1], false
		}
	case n > 2 && string(b[n-2:]) == "ed":
		if porterHasVowel(b[:n-2]) {
			return b[:n-2], true
		}
	case n > 3 && string(b[n-3:]) == "ing":
		if porterHasVowel(b[:n-3]) {
			return b[:n-3], true
		}
	}
	return b, false
}

type porterRule struct {
	suffix, repl string
	cond         func([]byte) bool // nil: always
}

// porterStepRules are a step's rules by the next-to-last letter of their suffix (as FTS5's
// generated code switches on it): only those can end a word with that letter there.
type porterStepRules [256][]porterRule

func indexRules(rules []porterRule) *porterStepRules {
	var t porterStepRules
	for _, r := range rules {
		c := r.suffix[len(r.suffix)-2]
		t[c] = append(t[c], r)
	}
	return &t
}

// porterApply applies the first rule whose suffix ends b (with at least one byte before it); if
// its condition fails nothing changes. ok reports whether a rule was applied.
func porterApply(b []byte, step *porterStepRules) ([]byte, bool) {
	n := len(b)
	if n < 2 {
		return b, false
	}
	for _, r := range step[b[n-2]] {
		k := len(r.suffix)
		if n <= k || string(b[n-k:]) != r.suffix {
			continue
		}
		if r.cond != nil && !r.cond(b[:n-k]) {
			return b, false
		}
		return append(b[:n-k], r.repl...), true
	}
	return b, false
}

var step1B2 = indexRules([]porterRule{{"at", "ate", nil}, {"bl", "ble", nil}, {"iz", "ize", nil}})

var step2 = indexRules([]porterRule{
	{"ational", "ate", porterMGt0}, {"tional", "tion", porterMGt0},
	{"enci", "ence", porterMGt0}, {"anci", "ance", porterMGt0},
	{"izer", "ize", porterMGt0},
	{"logi", "log", porterMGt0},
	{"bli", "ble", porterMGt0}, {"alli", "al", porterMGt0}, {"entli", "ent", porterMGt0}, {"eli", "e", porterMGt0}, {"ousli", "ous", porterMGt0},
	{"ization", "ize", porterMGt0}, {"ation", "ate", porterMGt0}, {"ator", "ate", porterMGt0},
	{"alism", "al", porterMGt0}, {"iveness", "ive", porterMGt0}, {"fulness", "ful", porterMGt0}, {"ousness", "ous", porterMGt0},
	{"aliti", "al", porterMGt0}, {"iviti", "ive", porterMGt0}, {"biliti", "ble", porterMGt0},
})

var step3 = indexRules([]porterRule{
	{"ical", "ic", porterMGt0},
	{"ness", "", porterMGt0},
	{"icate", "ic", porterMGt0}, {"iciti", "ic", porterMGt0},
	{"ful", "", porterMGt0},
	{"ative", "", porterMGt0},
	{"alize", "al", porterMGt0},
})

var step4 = indexRules([]porterRule{
	{"al", "", porterMGt1},
	{"ance", "", porterMGt1}, {"ence", "", porterMGt1},
	{"er", "", porterMGt1},
	{"ic", "", porterMGt1},
	{"able", "", porterMGt1}, {"ible", "", porterMGt1},
	{"ant", "", porterMGt1}, {"ement", "", porterMGt1}, {"ment", "", porterMGt1}, {"ent", "", porterMGt1},
	{"ion", "", porterMGt1SorT}, {"ou", "", porterMGt1},
	{"ism", "", porterMGt1},
	{"ate", "", porterMGt1}, {"iti", "", porterMGt1},
	{"ous", "", porterMGt1},
	{"ive", "", porterMGt1},
	{"ize", "", porterMGt1},
})
