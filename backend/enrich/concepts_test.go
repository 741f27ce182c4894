package enrich

import (
	"encoding/json"
	"reflect"
	"testing"
)

func testNames(t *testing.T, params map[string]any) *conceptNames {
	t.Helper()
	var b TagConceptBridger
	if err := b.Configure(params); err != nil {
		t.Fatal(err)
	}
	return b.names
}

// Spellings of one concept resolve to one key before any similarity: case, punctuation,
// hyphens, underscores, the head noun's plural, declared aliases.
func TestConceptKeys(t *testing.T) {
	n := testNames(t, map[string]any{"aliases": map[string]any{"javascript": []any{"JS", "ECMAScript"}}})
	for in, want := range map[string]string{
		"Machine-Learning": "machine learning", "machine learning": "machine learning", "#machine_learning": "machine learning",
		"Writable Streams": "writable stream", "Libraries": "library", "Windows": "windows", "classes": "class", "status": "status",
		"js": "javascript", "ECMAScript": "javascript", "JavaScript": "javascript", "Crates": "crate", "boxes": "box",
	} {
		if got := n.key(in); got != want {
			t.Errorf("key(%q) = %q, want %q", in, got, want)
		}
	}
}

// The heading rule of the research notes (§2): code, numbering, questions, how-tos, lists,
// generic sections and section labels.
func TestHeadingTerms(t *testing.T) {
	n := testNames(t, nil)
	for in, want := range map[string][]string{
		"What Is Ownership?":                   {"Ownership"},
		"The Stack and the Heap":               {"Stack", "Heap"},
		"Packages and Crates":                  {"Packages", "Crates"},
		"References and Borrowing":             {"Borrowing"},
		"4.1. Slices":                          {"Slices"},
		"Introduction":                         nil,
		"Summary":                              nil,
		"See also":                             nil,
		"SEE ALSO":                             nil,
		"Options":                              nil,
		"Event: 'close'":                       nil,
		"fs.rmdir(path[, options])":            nil,
		"Class: FileHandle":                    nil,
		"EventEmitter":                         nil,
		"How to Write Tests":                   nil,
		"Creating a New String":                nil,
		"Validating References with Lifetimes": nil,
		"Callback example":                     nil,
		"Errors while reading":                 nil,
		"Integration Tests":                    {"Integration Tests"},
	} {
		if got := n.headingTerms(in, 3); !reflect.DeepEqual(got, want) {
			t.Errorf("headingTerms(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTextKeysSkipHeadingLines(t *testing.T) {
	n := testNames(t, nil)
	ks := n.textKeys("## The Heap\n\nData on the stack has a known size; writable streams buffer.", 3)
	for _, k := range []string{"stack", "writable stream", "known size"} {
		if _, ok := ks[k]; !ok {
			t.Errorf("%q not found in %v", k, ks)
		}
	}
	if _, ok := ks["heap"]; ok {
		t.Errorf("a heading line's words counted as text")
	}
}

func TestConceptSettingsRefused(t *testing.T) {
	var b TagConceptBridger
	if err := b.Configure(map[string]any{"heading_scor": 0.5}); err == nil {
		t.Fatal("a misspelt setting was accepted")
	}
	var c CoOccurrence
	if err := c.Configure(map[string]any{"min_dice": 2}); err == nil {
		t.Fatal("min_dice 2 was accepted")
	}
}

// A page's keywords that only repeat its title or description (what site generators write on
// every page of a manual) declare nothing; short keywords a person listed do.
func TestDeclaredKeyword(t *testing.T) {
	desc := json.RawMessage(`"Hashing (Quill: a small cryptography library)"`)
	for _, c := range []struct {
		kw   string
		want bool
	}{
		{"Hashing (Quill: a small cryptography library)", false}, // the title again
		{"hashing  (quill: a small cryptography library)", false},
		{"a keyword that is really a whole sentence about things", false},
		{"hashing", true},
		{"key exchange", true},
	} {
		if got := declaredKeyword(c.kw, "Hashing (Quill: a small cryptography library)", desc); got != c.want {
			t.Errorf("declaredKeyword(%q) = %v, want %v", c.kw, got, c.want)
		}
	}
	if declaredKeyword("Signing with Quill keys", "Signatures", desc) != true {
		t.Error("a keyword unlike the title was refused")
	}
}
