package answer

import (
	"regexp"
	"strconv"
	"strings"
)

// Citation markers as a chat model writes them: "[2]", "[1, 3]", "[1][2]", "[1-3]".
var marker = regexp.MustCompile(`\[\s*\d+(?:\s*(?:[,;]|-|–)\s*\d+)*\s*\]`)

// maxRange bounds a marker range ("[1-20]"): no answer sends more passages than this.
const maxRange = 20

// Markers returns the passage numbers a sentence cites, in the order it cites them, each once,
// and the sentence without its markers (and without the space before each). A bracket right
// after a word ("a[0]") is an index, not a citation.
func Markers(s string) (cites []int, text string) {
	seen := map[int]bool{}
	add := func(n int) {
		if !seen[n] {
			seen[n] = true
			cites = append(cites, n)
		}
	}
	var b strings.Builder
	last := 0
	for _, m := range marker.FindAllStringIndex(s, -1) {
		if m[0] > 0 && isWordByte(s[m[0]-1]) {
			continue
		}
		b.WriteString(s[last:m[0]])
		last = m[1]
		inner := strings.Trim(s[m[0]:m[1]], "[] ")
		for _, part := range strings.FieldsFunc(inner, func(r rune) bool { return r == ',' || r == ';' }) {
			part = strings.TrimSpace(strings.ReplaceAll(part, "–", "-"))
			if a, z, ok := strings.Cut(part, "-"); ok {
				lo, err1 := strconv.Atoi(strings.TrimSpace(a))
				hi, err2 := strconv.Atoi(strings.TrimSpace(z))
				if err1 == nil && err2 == nil && lo <= hi && hi-lo < maxRange {
					for n := lo; n <= hi; n++ {
						add(n)
					}
				}
				continue
			}
			if n, err := strconv.Atoi(part); err == nil {
				add(n)
			}
		}
	}
	b.WriteString(s[last:])
	text = strings.Join(strings.Fields(b.String()), " ")
	text = strings.NewReplacer(" .", ".", " ,", ",", " ;", ";", " :", ":", " !", "!", " ?", "?").Replace(text)
	return cites, text
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// SplitAnswer splits a chat model's answer into its sentences, each with the markers that
// follow it: "… a Promise. [2] It …" gives "… a Promise [2]." and "It …". Unlike Split it
// keeps every sentence, however short: each is a claim that must be checked, and dropping one
// unseen would let it through. List bullets and heading marks are dropped.
func SplitAnswer(text string) []string {
	// Markers written after the period belong to the sentence before it.
	text = trailing.ReplaceAllString(text, " $2$1")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		t = strings.TrimLeft(t, "#")
		t = strings.TrimSpace(t)
		if m := listMark(t); m > 0 {
			t = t[m:]
		}
		if t == "" {
			continue
		}
		start := 0
		for i := 0; i < len(t); i++ {
			c := t[i]
			if c != '.' && c != '!' && c != '?' {
				continue
			}
			j := i + 1
			for j < len(t) && strings.IndexByte(`"')]`, t[j]) >= 0 {
				j++
			}
			if j < len(t) && t[j] != ' ' {
				continue
			}
			k := j
			for k < len(t) && t[k] == ' ' {
				k++
			}
			if k < len(t) && (!startsSentence(t[k:]) || c == '.' && abbreviation(t[start:i])) {
				continue
			}
			if s := strings.Join(strings.Fields(t[start:j]), " "); s != "" {
				out = append(out, s)
			}
			start = k
			i = k - 1
		}
		if s := strings.Join(strings.Fields(t[start:]), " "); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// trailing is a sentence end followed by markers: "Promise. [2][3]".
var trailing = regexp.MustCompile(`([.!?])((?:\s*\[\s*\d+(?:\s*(?:[,;]|-|–)\s*\d+)*\s*\])+)`)

// EscapeMarkers escapes what would read as a citation marker in a quoted sentence ("see
// How to use bzip2 [2]" quotes the source's own reference): "\[2\]", which Markdown shows as
// "[2]" and which is no citation of the answer's.
func EscapeMarkers(s string) string {
	return marker.ReplaceAllStringFunc(s, func(m string) string {
		return `\[` + m[1:len(m)-1] + `\]`
	})
}
