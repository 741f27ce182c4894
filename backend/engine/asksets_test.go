package engine_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

// askDump writes each ask set's answers to DIR/<set>.json, for a person to read:
// go test ./backend/engine -run TestAskSets -args -ask-dump=DIR.
var askDump = flag.String("ask-dump", "", "write each ask set's answers as JSON into this folder")

// askQuestion is one question of an ask set (testdata/ask/<set>/questions.json), written with
// its expected answer before ask was run on it.
type askQuestion struct {
	ID         string   `json:"id"`
	Question   string   `json:"question"`
	Kind       string   `json:"kind"`
	Answerable bool     `json:"answerable"`
	Expected   string   `json:"expected"`
	MustHave   []string `json:"must_have"`
	Source     string   `json:"source"`
	Trap       string   `json:"trap"`
}

// Verdicts of an ask set's answers.
const (
	verdictRight    = "right"     // answerable; the answer holds every value it must
	verdictPartial  = "partial"   // answerable; it holds some of them
	verdictNotFound = "not found" // answerable, and ask said it found no answer
	verdictWrong    = "wrong"     // an answer holding none of what it must, or any answer to an unanswerable question
	verdictAbstain  = "abstained" // unanswerable, and ask said so
)

// judgeAnswer gives an answer its verdict by the question's must_have values: each must appear
// in the answer (case and spacing aside). The answer's text is what ask asserts; passages it
// returns apart from an answer assert nothing.
func judgeAnswer(q askQuestion, resp *engine.AskResponse) (verdict string, held []string) {
	text := normAnswer(resp.Answer)
	if text == "" {
		if q.Answerable {
			return verdictNotFound, nil
		}
		return verdictAbstain, nil
	}
	if !q.Answerable {
		return verdictWrong, nil
	}
	for _, m := range q.MustHave {
		if strings.Contains(text, normAnswer(m)) {
			held = append(held, m)
		}
	}
	switch {
	case len(held) == len(q.MustHave):
		return verdictRight, held
	case len(held) > 0:
		return verdictPartial, held
	}
	return verdictWrong, held
}

func normAnswer(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// askTally counts an ask set's verdicts.
type askTally struct {
	answerable, unanswerable int
	by                       map[string]int
	cited, verbatim          int
}

func (t askTally) share(v string, of int) float64 {
	if of == 0 {
		return 1
	}
	return float64(t.by[v]) / float64(of)
}

func (t askTally) String() string {
	return fmt.Sprintf("answerable %d: right %d, partial %d, not found %d, wrong %d; unanswerable %d: abstained %d, answered %d; citations verbatim %d/%d",
		t.answerable, t.by[verdictRight], t.by[verdictPartial], t.by[verdictNotFound], t.by[verdictWrong]-t.unansweredWrong(),
		t.unanswerable, t.by[verdictAbstain], t.unansweredWrong(), t.verbatim, t.cited)
}

func (t askTally) unansweredWrong() int { return t.unanswerable - t.by[verdictAbstain] }

// askSetFloors are what TestAskSets asserts of each set, measured 2026-11-29 (second session)
// less a little: held-out right 31 of 76, wrong 15, 20 of 23 unanswerable said "not found";
// tune 27 of 42, 1, 12 of 12; dev 10 of 44, 10, 13 of 16 (dev's first run, before any rule was
// fitted on it: 9, 16, 10 of 16). Issue 24's targets are far above the held-out figures
// (right ≥ 60 %, wrong ≤ 5 %, ≥ 90 % of the unanswerable "not found"): the floors keep what
// has been reached from falling back. tune and dev are fitted on; heldout never is.
//
// Third session (2026-11-29), an answer's sentences held to the rule its passage is
// (ask.unsaidBy, chosen on dev: wrong 10 → 6, right unchanged; tune unchanged), and a table
// line with an empty first cell read with the row above it (dev's car log): held-out right
// 32, wrong 11, 20 of 23; dev 12, 5, 14 of 16; tune 27, 1, 12 of 12. Then a release's
// version or date read from the title of the section over the line naming the change (tune's
// gzip NEWS): tune 28, 1, 12 of 12; dev and held-out unchanged. Then a question's kind read
// after a leading clause, an amount asked by its verb ("what's left to pay", "what did they
// charge"): dev 13, 4, 14 of 16; tune and held-out unchanged. Then a table row read with its
// header's words: dev 14, 3, 14 of 16; tune and held-out unchanged.
var askSetFloors = map[string]struct{ right, wrong, abstained int }{
	"heldout": {right: 31, wrong: 12, abstained: 19},
	"tune":    {right: 27, wrong: 3, abstained: 11},
	"dev":     {right: 13, wrong: 4, abstained: 13},
}

// TestAskSets asks three sets of questions written with their answers before ask was run on
// them, over documents of kinds the search quality corpus does not hold (READMEs, changelogs
// and specs of other projects, notes, minutes, invoices and reminders as people write them;
// testdata/ask/README.md): tune and dev, which ask's rules may be fitted on, and heldout,
// which they never are. It reports the verdicts of each and asserts each set's floors.
func TestAskSets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a store of each set")
	}
	for _, set := range []string{"tune", "dev", "heldout"} {
		t.Run(set, func(t *testing.T) {
			t.Parallel()
			dir, err := filepath.Abs(filepath.Join("testdata", "ask", set))
			if err != nil {
				t.Fatal(err)
			}
			var qs []askQuestion
			raw, err := os.ReadFile(filepath.Join(dir, "questions.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &qs); err != nil {
				t.Fatal(err)
			}
			e := open(t, func(c *engine.Config) { c.Now = nil })
			ingestEnriched(t, e, filepath.Join(dir, "docs"))
			ctx := context.Background()
			tally := askTally{by: map[string]int{}}
			var dump []map[string]any
			for _, q := range qs {
				resp, err := e.Ask(ctx, engine.AskRequest{Question: q.Question})
				if err != nil {
					t.Fatalf("%s: %v", q.ID, err)
				}
				v, held := judgeAnswer(q, resp)
				tally.by[v]++
				if q.Answerable {
					tally.answerable++
				} else {
					tally.unanswerable++
				}
				for _, c := range resp.Citations {
					tally.cited++
					if c.Path == "" || c.LineStart == 0 || citedLinesMiss(t, c) == "" { // a PDF page or a fact is checked elsewhere
						tally.verbatim++
					}
				}
				dump = append(dump, map[string]any{"id": q.ID, "question": q.Question, "verdict": v, "held": held,
					"must_have": q.MustHave, "expected": q.Expected, "answer": resp.Answer, "notice": resp.Notice, "citations": resp.Citations, "facts": resp.Facts})
			}
			t.Logf("%s: %s", set, tally)
			if *askDump != "" {
				b, _ := json.MarshalIndent(dump, "", " ")
				if err := os.WriteFile(filepath.Join(*askDump, set+".json"), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tally.verbatim != tally.cited {
				t.Errorf("%d of %d citations do not hold their quote on their lines", tally.cited-tally.verbatim, tally.cited)
			}
			f := askSetFloors[set]
			wrong := tally.by[verdictWrong] - tally.unansweredWrong()
			if tally.by[verdictRight] < f.right || wrong > f.wrong || tally.by[verdictAbstain] < f.abstained {
				t.Errorf("%s: below its floors (right ≥ %d, wrong ≤ %d, unanswerable abstained ≥ %d)", tally, f.right, f.wrong, f.abstained)
			}
		})
	}
}
