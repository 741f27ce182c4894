package answer

import (
	"slices"
	"testing"
)

func norms(ns []Number) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Norm)
	}
	return out
}

func TestNumbersAreComparedInOneSpelling(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"1,540 and 1540 and 1540.00", []string{"1540", "1540", "1540"}},
		{"15.4 is not 154", []string{"15.4", "154"}},
		{"due 2025-03-04", []string{"2025", "3", "4"}},
		{"node v18.0.0 at 10.1.2.3", []string{"18.0.0", "10.1.2.3"}},
		{"ES2015 and sha256", []string{"2015", "256"}},
		{"1,5 million", []string{"1", "5"}}, // a decimal comma is two numbers: both sides split alike
		{"0.50 EUR, 007", []string{"0.5", "7"}},
		{"no numbers here", nil},
	} {
		if got := norms(Numbers(c.text)); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
	if n := Numbers("it cost 1,540.00 EUR"); len(n) != 1 || n[0].Raw != "1,540.00" {
		t.Errorf("raw: %+v", n)
	}
}
