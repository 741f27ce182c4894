package search

import (
	"strings"
	"testing"
)

func TestMatchExpr(t *testing.T) {
	cases := map[string]string{
		"invoice acme":             `"invoice" OR "acme"*`,
		"can I sell the software?": `"sell" OR "software"*`,
		"what is it":               `"what" OR "is" OR "it"*`,
		"invoice acme ":            `"invoice" OR "acme"`,
		`"due date" acme`:          `"due date" OR "acme"*`,
		`NEAR(a b) AND x* -y ^z:`:  `"near" OR "b" OR "x" OR "y" OR "z"`,
		`unbalanced "quote`:        `"unbalanced" OR "quote"*`,
		"   ":                      "",
		"€ — !!":                   "",
		"Ünïcode café":             `"ünïcode" OR "café"*`,
		`col:value OR {x} "" ''`:   `"col" OR "value" OR "x"`,
	}
	for in, want := range cases {
		if got := MatchExpr(in); got != want {
			t.Errorf("MatchExpr(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestHighlight(t *testing.T) {
	text := "Preamble. The licenses for most software are designed to take away your freedom to share and change it. By contrast, the GNU General Public License is intended to guarantee your freedom to share and change free software."
	got := Highlight(text, "can I share free softwares?", 12)
	for _, want := range []string{"«share»", "«free»", "«software»"} {
		if !strings.Contains(got, want) {
			t.Errorf("highlight %q lacks %s", got, want)
		}
	}
	if strings.Contains(got, "«can»") || !strings.HasPrefix(got, "…") {
		t.Errorf("stop words are not highlighted and a cut start is marked: %q", got)
	}
	if Highlight("", "x", 5) != "" || Highlight("a b c", "", 5) != "a b c" {
		t.Error("edge cases")
	}
}
