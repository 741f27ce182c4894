package enrich

import (
	"slices"
	"testing"
)

func nameKeys(texts ...string) []string {
	var out []string
	for _, n := range docNames(texts) {
		out = append(out, n.shown)
	}
	return out
}

// A document's names are the capitalised words a reader takes for names: not a sentence's first
// word, not a word the text also writes in lower case, not a month or a weekday, not in a line
// written in capitals, a title, or a quoted title.
func TestDocNames(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"We met Priya Raman at Kestrel Digital on Monday.", []string{"Digital", "Kestrel", "Priya", "Raman"}},
		{"Budget was approved. The budget grows in March.", nil},                                   // sentence starts; lower case elsewhere; a month
		{"Invoice INV-10482 from Dockside is due.", []string{"Dockside", "INV-10482"}},             // codes are names
		{"THIS SOFTWARE IS PROVIDED BY THE AUTHORS AS IS AND ANY WARRANTIES", nil},                 // shouting
		{"the software is provided WITHOUT WARRANTY OF MERCHANTABILITY by Acme", []string{"Acme"}}, // shouted words
		{"Referring to Paths in the Module Tree", nil},                                             // a title
		{"See the section “Comparing the Guess to the Secret Number” for details.", nil},           // a quoted title
		{"# Lantern Kickoff\n\nnotes for the team", nil},                                           // a heading
		{"- Priya Raman, Tomas Ferreira", []string{"Ferreira", "Raman", "Tomas"}},                  // a list of names: the first word starts the line
		{"ok so Joost's bike is at Henk's", []string{"Henk", "Joost"}},                             // possessives
		{"we use a DB and a UI here", nil},                                                         // under three letters
		{"int hash(ctx *c);\nComputes the digest with Quill.", []string{"Quill"}},                  // a line after code starts a sentence
		{"void xsltFree (ctxt) Frees the context", nil},                                            // a description after a signature, on its line
		{"void free(ctx *c);\nReleases a context.", nil},                                           // … unless the word is capitalised inside a line too
		{"the office of Riku at 51\nFranklin Street", []string{"Franklin", "Riku", "Street"}},      // wrapped prose: a line continues a sentence
	} {
		got := nameKeys(c.text)
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("docNames(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// A name two documents use only inside the same words (an address, a licence clause, however it
// is wrapped) is not one each uses in its own words; a name used in other words is.
func TestNameOwnUse(t *testing.T) {
	a := docNames([]string{"Alpha is free software from the Free Software Foundation, 51 Franklin\nStreet, Fifth Floor, Boston, MA. Riku Salonen wrote Alpha for Acme."})
	b := docNames([]string{"Beta is free software from the Free Software Foundation, 51\nFranklin Street, Fifth Floor, Boston, MA. We sold Beta to Acme last year."})
	get := func(list []docName, key string) docName {
		for _, n := range list {
			if n.key == key {
				return n
			}
		}
		t.Fatalf("no name %q in %+v", key, list)
		return docName{}
	}
	for _, k := range []string{"franklin", "boston"} {
		if ownUse(get(a, k).lines, get(b, k).lines) {
			t.Errorf("%s: used only inside the shared clause, yet counted as own use", k)
		}
	}
	if !ownUse(get(a, "acme").lines, get(b, "acme").lines) {
		t.Error("acme: used in each document's own words, yet not counted")
	}
}

// Prose words: minified code, a stub and numbers are not prose.
func TestProseWords(t *testing.T) {
	if n := proseWords([]string{"!function(e){var t={};function n(r){if(t[r])return t[r].exports;}"}); n > 2 {
		t.Errorf("minified code: %d prose words", n)
	}
	if n := proseWords([]string{"moved file 12"}); n >= minProseWords {
		t.Errorf("a stub: %d prose words", n)
	}
	if n := proseWords([]string{"Planted tomatoes and basil along the south fence, and next weekend we sow the carrots."}); n != 15 {
		t.Errorf("a sentence: %d prose words, want 15", n)
	}
}
