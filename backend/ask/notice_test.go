package ask

import (
	"testing"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/search"
)

// TestDifferingValues: the answer's documents write different amounts for one record — the
// notice gives each document's; the same amount twice, or one document alone, says nothing.
func TestDifferingValues(t *testing.T) {
	mk := func(path, text string) *passage {
		return &passage{result: search.Result{Path: path}, sents: answer.Split(text)}
	}
	reminder := mk("/n/reminder.txt", "The outstanding balance is £2,148.60.\n")
	notes := mk("/n/phone notes.txt", "4 Apr — paid BPS-2024-0117, £2,184.60 by BACS.\n")
	same := mk("/n/copy.txt", "The outstanding balance is now £2,148.60 in all.\n")
	pick := []answer.Picked{{Passage: 0}, {Passage: 1}}
	got := differingValues(answer.KindMoney, pick, []*passage{reminder, notes})
	if got != "the sources give different amounts: £2,148.60 (reminder.txt); £2,184.60 (phone notes.txt)" {
		t.Errorf("differ: %q", got)
	}
	if got := differingValues(answer.KindMoney, pick, []*passage{reminder, same}); got != "" {
		t.Errorf("the same amount: %q", got)
	}
	if got := differingValues(answer.KindMoney, pick[:1], []*passage{reminder}); got != "" {
		t.Errorf("one document: %q", got)
	}
	if got := differingValues(answer.KindAny, pick, []*passage{reminder, notes}); got != "" {
		t.Errorf("a question that asks no value: %q", got)
	}
}

// TestRender: each sentence ends with its citations before its own stop; a code block is
// fenced on its own with its citation after it.
func TestRender(t *testing.T) {
	got := render([]answerSentence{{text: "It returns a Promise.", cites: []int{2}}, {text: "npm i x", cites: []int{1}, code: true},
		{text: "Done", cites: []int{1, 3}}})
	want := "It returns a Promise [2].\n\n```\nnpm i x\n```\n[1]\n\nDone [1][3]"
	if got != want {
		t.Errorf("render:\n%q\nwant\n%q", got, want)
	}
}
