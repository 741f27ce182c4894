package engine_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/search/quality"
)

// Floors of TestAskQuality, measured when ask landed (2026-11-26: 226 of 295 answers held a
// sentence of a relevant document, 0.77; 0.71 of their sentences came from one), less 0.04–0.05.
const (
	askQualityAnswered  = 0.72 // share of questions whose answer holds a sentence of a relevant document
	askQualityPrecision = 0.67 // share of the answers' sentences that come from a relevant document
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
	questions, answered, withRelevant, sentences, relevant, cited, pages := 0, 0, 0, 0, 0, 0, 0
	for _, set := range qualitySets(t) {
		for _, q := range set.questions {
			questions++
			r, err := e.Ask(ctx, engine.AskRequest{Question: q.Question})
			if err != nil {
				t.Fatal(err)
			}
			checkCitations(t, r)
			rel := map[string]bool{}
			for _, p := range q.Relevant {
				rel[filepath.Base(p)] = true
			}
			if r.Answer != "" {
				answered++
			}
			hit := false
			for _, c := range r.Citations {
				cited++
				if c.Page > 0 {
					pages++
				}
			}
			for _, n := range answerMarkers(r.Answer) {
				sentences++
				if rel[filepath.Base(r.Citations[n-1].Path)] {
					relevant++
					hit = true
				}
			}
			if hit {
				withRelevant++
			}
		}
	}
	share := float64(withRelevant) / float64(questions)
	precision := float64(relevant) / float64(max(sentences, 1))
	t.Logf("%d questions: %d answered, %d with a sentence of a relevant document (%.2f); %d of %d sentences from one (%.2f); %d citations, %d of pages",
		questions, answered, withRelevant, share, relevant, sentences, precision, cited, pages)
	if share < askQualityAnswered || precision < askQualityPrecision {
		t.Errorf("answers fell below the floors: %.2f with a relevant sentence (floor %.2f), %.2f of sentences relevant (floor %.2f)",
			share, askQualityAnswered, precision, askQualityPrecision)
	}
}
