package answer

import (
	"slices"
	"testing"

	"github.com/strata-app/strata/backend/search"
)

func TestNameWords(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
	}{
		{"Acme Corp.", []string{"acme"}},
		{"ACME Co. Ltd", []string{"acme"}},
		{"Müller GmbH", []string{"müller"}},
		{"Ada Lovelace", []string{"ada", "lovelace"}},
		{"Company", []string{"company"}}, // nothing but a legal form keeps its word
		{"a", nil},
		{"The", nil},
		{"2025", nil},
		{"of the", nil},
	} {
		if got := NameWords(c.name); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestNameAtWholeWords(t *testing.T) {
	q := search.Words("What did Acme invoice in March? Ask ada lovelace.")
	if NameAt(q, NameWords("Acme Corp")) != 2 {
		t.Error("Acme Corp")
	}
	if NameAt(q, NameWords("Ada Lovelace")) < 0 {
		t.Error("Ada Lovelace")
	}
	for _, n := range []string{"Acm", "Acmeville", "Lovelace Ada", "Invoice Ltd Acme"} {
		if NameAt(q, NameWords(n)) >= 0 {
			t.Errorf("%q matched", n)
		}
	}
}
