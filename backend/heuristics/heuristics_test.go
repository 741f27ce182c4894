package heuristics

import (
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	text := "Invoice INV-7 dated 2025-01-15, due March 3, 2025 (or 4th Apr 2025).\n" +
		"Total: €1,500.00 — also $20 and 300 EUR and USD 1,000.50.\n" +
		"Contact Ada.Lovelace@Example.com or see https://example.com/inv/7. #finance #Q3-review\n" +
		"Not a date: 2025-13-45. Not a tag: # heading, a#b."
	got := map[string][]string{}
	for _, f := range Find(text, nil) {
		got[f.Kind] = append(got[f.Kind], f.Value)
		if span := strings.ToLower(text[f.ByteStart:f.ByteEnd]); (f.Kind == "email" || f.Kind == "url" || f.Kind == "hashtag") && !strings.Contains(span, f.Value) {
			t.Errorf("%s %q: span %q does not hold it", f.Kind, f.Value, text[f.ByteStart:f.ByteEnd])
		}
	}
	want := map[string]string{
		"date":    "2025-01-15,2025-03-03,2025-04-04",
		"money":   "1500.00 EUR,20.00 USD,300.00 EUR,1000.50 USD",
		"email":   "ada.lovelace@example.com",
		"url":     "https://example.com/inv/7",
		"hashtag": "finance,q3-review",
	}
	for k, v := range want {
		if strings.Join(got[k], ",") != v {
			t.Errorf("%s: got %v, want %s", k, got[k], v)
		}
	}
}

func TestDocType(t *testing.T) {
	cases := map[string][3]string{
		"invoice":       {"pdf", "Invoice 7", "Bill to: Acme. Amount due: 100. Due date: soon"},
		"contract":      {"docx", "Lease", "This Agreement between the parties ... governing law ... In witness whereof"},
		"meeting-notes": {"markdown", "Weekly sync", "Attendees: A, B\nAgenda\nAction items"},
		"code":          {"code", "main.go", "package main"},
		"note":          {"text", "todo", "buy milk"},
	}
	for want, c := range cases {
		if got := DocType(c[0], c[1], c[2]); got != want {
			t.Errorf("DocType(%v) = %s, want %s", c, got, want)
		}
	}
}

func FuzzFind(f *testing.F) {
	f.Add("a@b.co 2025-01-01 $5 #tag https://x.y/z")
	f.Fuzz(func(t *testing.T, s string) {
		for _, x := range Find(s, nil) {
			if x.ByteStart < 0 || x.ByteEnd > len(s) || x.ByteStart > x.ByteEnd {
				t.Fatalf("bad span %+v in %q", x, s)
			}
		}
	})
}
