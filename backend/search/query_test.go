package search

import "testing"

func TestMatchExpr(t *testing.T) {
	cases := map[string]string{
		"invoice acme":            `"invoice" OR "acme"*`,
		"invoice acme ":           `"invoice" OR "acme"`,
		`"due date" acme`:         `"due date" OR "acme"*`,
		`NEAR(a b) AND x* -y ^z:`: `"near" OR "a" OR "b" OR "and" OR "x" OR "y" OR "z"`,
		`unbalanced "quote`:       `"unbalanced" OR "quote"*`,
		"   ":                     "",
		"€ — !!":                  "",
		"Ünïcode café":            `"ünïcode" OR "café"*`,
		`col:value OR {x} "" ''`:  `"col" OR "value" OR "or" OR "x"`,
	}
	for in, want := range cases {
		if got := MatchExpr(in); got != want {
			t.Errorf("MatchExpr(%q) = %s, want %s", in, got, want)
		}
	}
}
