package engine_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/search/quality"
)

// Floors of TestAskQuality, measured 2026-11-29 (issue 24: an answer only from passages that
// say what the question asks, by its words, not their stems): 168 of 295 answers held a
// sentence of a relevant document (0.57; 0.77 before, when any sentence sharing enough stems
// answered), and 0.78 of their sentences came from one (0.71 before), less 0.03. The quality
// questions are phrased on purpose in other words than their documents ("shrink a web
// server's reply body with Google's newer compression algorithm" for Brotli): a question so
// unlike its answer's words is "not found" now rather than answered with sentences that share
// its stems.
//
// Second session (2026-11-29): 163 of 295 (0.55), 524 of 703 sentences (0.745). The precision
// fell from 0.76 when an introduction ending in a colon ("The 'error' event is emitted
// whenever:") began to come with the list it announces: three answers changed, each now the
// introduction and its items, each item cited on its own; the documents the answers cite are
// the same. Its floor is 0.74 since.
//
// Third session (2026-11-29): 145 of 295 (0.49), 486 of 632 sentences (0.77). An answer's own
// sentences are now held to the rule its passage is (ask.unsaidBy): 30 answers became "not
// found". Read by hand, 26 of them did not answer (15 cited no relevant document: "find files
// bigger than 100 MB" answered with a tool's size suffixes, "limit the heap size of a worker
// thread" with "Small values may lead to unusable Worker instances"); 4 did (git-bisect,
// crypto's random bytes, process.hrtime, fontconfig's sub-pixel order) in other words than the
// question's. This share counts answers citing a relevant document, right or not: it fell by
// what was wrong more than by what was right, and the precision rose. A question's kind read
// after a leading clause ("In a bash pipeline, how do I …" asks how to) changed one answer, to
// another that does not name pipefail either: 485 of 640 sentences (0.758).
const (
	askQualityAnswered  = 0.48 // share of questions whose answer holds a sentence of a relevant document
	askQualityPrecision = 0.75 // share of the answers' sentences that come from a relevant document
)

// TestAskQuality asks the quality corpus's 295 questions (real documents no one here wrote:
// Debian manuals and licences, the Rust book's HTML as chapters and on one page, the Node.js API
// reference in Markdown and HTML, PDFs, copies; questions phrased in other words than the
// text) and checks two things. Every citation lands on lines of its file that hold every word
// of its quote (PDFs cite pages). And the answers are about the question: enough of them hold a
// sentence of a document judged relevant, and enough of their sentences come from one.
func TestAskQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests an 11 MB corpus")
	}
	e := askQualityStore(t)
	q := askQualityOf(t, e, nil, true)
	t.Logf("%s; %d citations, %d of pages", q, q.cited, q.pages)
	if q.share() < askQualityAnswered || q.precision() < askQualityPrecision {
		t.Errorf("answers fell below the floors: %.2f with a relevant sentence (floor %.2f), %.2f of sentences relevant (floor %.2f)",
			q.share(), askQualityAnswered, q.precision(), askQualityPrecision)
	}
}

// TestFitAsk (-fit) prints the quality figures of the extractive answer for a grid of its
// options around the defaults: what answer.DefaultOptions' figures come from.
func TestFitAsk(t *testing.T) {
	if !*fit {
		t.Skip("fitting runs with -fit")
	}
	e := askQualityStore(t)
	for _, floor := range []float64{0.2, 0.25, 0.3} {
		for _, rank := range []struct{ decay, power float64 }{{0, 0}, {0.2, 0}, {0, 2}, {0.2, 2}} {
			for _, most := range []int{3, 4} {
				o := answer.DefaultOptions
				o.MinShare, o.RankDecay, o.ScorePower, o.MaxSentences = floor, rank.decay, rank.power, most
				t.Logf("floor %.2f decay %.1f power %.0f sentences %d: %s", floor, rank.decay, rank.power, most, askQualityOf(t, e, &o, false))
			}
		}
	}
}

// askQualityStore is an engine holding the quality corpus.
func askQualityStore(t *testing.T) *engine.Engine {
	t.Helper()
	ctx := context.Background()
	e := open(t, func(c *engine.Config) { c.Now = nil })
	res, err := e.IngestPaths(ctx, local, []string{quality.CorpusDir()})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range res {
		if r.Result == nil {
			t.Fatalf("%s: %v", r.Path, r.Error)
		}
		ids = append(ids, r.Result.DocumentID)
	}
	settle(t, e, ids...)
	return e
}

// askQuality counts how the answers to the quality questions fare.
type askQuality struct {
	questions, answered, withRelevant, sentences, relevant, cited, pages int
}

func (q askQuality) share() float64     { return float64(q.withRelevant) / float64(q.questions) }
func (q askQuality) precision() float64 { return float64(q.relevant) / float64(max(q.sentences, 1)) }

func (q askQuality) String() string {
	return fmt.Sprintf("%d questions: %d answered, %d with a sentence of a relevant document (%.2f); %d of %d sentences from one (%.2f)",
		q.questions, q.answered, q.withRelevant, q.share(), q.relevant, q.sentences, q.precision())
}

// askQualityOf asks every quality question with the given options (nil: the defaults),
// checking every citation's lines when check is set.
func askQualityOf(t *testing.T, e *engine.Engine, o *answer.Options, check bool) askQuality {
	t.Helper()
	e.SetAskOptions(o)
	defer e.SetAskOptions(nil)
	var q askQuality
	for _, set := range qualitySets(t) {
		for _, qq := range set.questions {
			q.questions++
			r, err := e.Ask(context.Background(), engine.AskRequest{Question: qq.Question})
			if err != nil {
				t.Fatal(err)
			}
			if check {
				checkCitations(t, r)
			}
			rel := map[string]bool{}
			for _, p := range qq.Relevant {
				rel[filepath.Base(p)] = true
			}
			if r.Answer != "" {
				q.answered++
			}
			for _, c := range r.Citations {
				q.cited++
				if c.Page > 0 {
					q.pages++
				}
			}
			hit := false
			for _, n := range answerMarkers(r.Answer) {
				q.sentences++
				if rel[filepath.Base(r.Citations[n-1].Path)] {
					q.relevant++
					hit = true
				}
			}
			if hit {
				q.withRelevant++
			}
		}
	}
	return q
}
