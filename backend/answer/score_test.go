package answer

import (
	"math"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/search"
)

func TestQueryShareIsIDFWeighted(t *testing.T) {
	q := NewQuery("how do I read a file asynchronously", []search.Term{
		{Tokens: []string{"read"}, IDF: 1, DF: 1},
		{Tokens: []string{"file"}, IDF: 1, DF: 1},
		{Tokens: []string{"asynchron"}, IDF: 6, DF: 1},
	})
	rare, _ := q.Share(search.Stems("Calls run asynchronously."))
	common, n := q.Share(search.Stems("Read the file first."))
	if math.Abs(rare-0.75) > 1e-9 || math.Abs(common-0.25) > 1e-9 || n != 2 {
		t.Fatalf("rare word %.2f, two common words %.2f (%d terms)", rare, common, n)
	}
	// Each term counts once, however often a sentence repeats it.
	if again, _ := q.Share(search.Stems("File, file, file.")); math.Abs(again-0.125) > 1e-9 {
		t.Fatalf("repeated word: %.3f", again)
	}
}

func TestQueryPhrasesAndCompounds(t *testing.T) {
	q := NewQuery(`"event loop" host name`, []search.Term{
		{Tokens: []string{"event", "loop"}, IDF: 2, DF: 1},
		{Tokens: []string{"host"}, IDF: 1, DF: 1},
		{Tokens: []string{"name"}, IDF: 1, DF: 1},
		{Tokens: []string{"hostnam"}, IDF: 3, DF: 1, Compound: true, Of: []string{"host", "name"}},
	})
	if s, _ := q.Share(search.Stems("The loop of events.")); s != 0 {
		t.Fatalf("a phrase matches only in order: %.2f", s)
	}
	if s, _ := q.Share(search.Stems("The event loop runs callbacks.")); s != 0.5 {
		t.Fatalf("phrase: %.2f", s)
	}
	if s, _ := q.Share(search.Stems("Set the hostname.")); s != 0.5 {
		t.Fatalf("the joined word stands for both words: %.2f", s)
	}
}

// TestQueryWithoutTerms: when keyword search did not weigh the question, its content words
// weigh the same.
func TestQueryWithoutTerms(t *testing.T) {
	q := NewQuery("What is the event loop?", nil)
	if q.Terms() != 2 {
		t.Fatalf("terms: %d", q.Terms())
	}
	if s, _ := q.Share(search.Stems("Each loop runs.")); s != 0.5 {
		t.Fatalf("share: %.2f", s)
	}
	if !NewQuery("what is it?", nil).Empty() {
		t.Fatal("a question of stop words has nothing to score by")
	}
}

func TestQueryKnown(t *testing.T) {
	q := NewQuery("airspeed of an unladen swallow", []search.Term{
		{Tokens: []string{"airspe"}, IDF: 9}, {Tokens: []string{"unladen"}, IDF: 9}, {Tokens: []string{"swallow"}, IDF: 5, DF: 3},
	})
	if q.Known() != 1.0/3 || strings.Join(q.Unknown(), " ") != "airspe unladen" {
		t.Fatalf("known: %.2f, unknown %v", q.Known(), q.Unknown())
	}
	if w := UnknownWords("Airspeed of an unladen swallow, much?", q); strings.Join(w, " ") != "airspeed unladen" {
		t.Fatalf("unknown words: %v", w)
	}
	ps := []Passage{passage(0, 1, "Multiple resolutions of a promise are silently swallowed by the runtime.")}
	if got := Pick(ps, q, DefaultOptions); len(got) != 0 {
		t.Fatalf("a question the store does not know got %v", pickedTexts(ps, got))
	}
}

// TestQueryKnownThroughACompound: "host name" whose words the index holds only as "hostname".
func TestQueryKnownThroughACompound(t *testing.T) {
	q := NewQuery("host name", []search.Term{
		{Tokens: []string{"host"}, IDF: 9}, {Tokens: []string{"name"}, IDF: 9},
		{Tokens: []string{"hostnam"}, IDF: 4, DF: 2, Compound: true, Of: []string{"host", "name"}},
	})
	if q.Known() != 1 {
		t.Fatalf("known: %.2f", q.Known())
	}
}

// TestQueryWeightHasNoFloor: a word in most chunks of a small index still weighs something
// (FTS5's IDF weighs it a millionth), less than a rare one.
func TestQueryWeightHasNoFloor(t *testing.T) {
	q := NewQuery("tomato sunlight", []search.Term{
		{Tokens: []string{"tomato"}, IDF: 1e-6, DF: 6, N: 8},
		{Tokens: []string{"sunlight"}, IDF: 1.2, DF: 1, N: 8},
	})
	common, _ := q.Share(search.Stems("A tomato."))
	rare, _ := q.Share(search.Stems("Sunlight."))
	if common < 0.1 || common >= rare || math.Abs(common+rare-1) > 1e-9 {
		t.Fatalf("common %.3f rare %.3f", common, rare)
	}
}
