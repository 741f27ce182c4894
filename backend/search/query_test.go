package search

import (
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
