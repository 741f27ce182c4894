package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
)

// Fixture documents with known answers: a Markdown note (soft-wrapped lines, a code block), a
// plain-text manual, an HTML page whose paragraphs are wrapped over several file lines (the
// reader folds each into one line of text), a source file, and a document about something else.
const askMarkdown = `---
title: Tomato growing notes
---
# Growing tomatoes

Tomato plants need at least six hours of direct sunlight every day to set
fruit. Water them deeply twice a week rather than a little every day, so that
the roots grow down into the soil.

` + "```" + `
water --deep --twice-a-week tomatoes
echo "Tomato plants need direct sunlight for many hours every day to set fruit."
` + "```" + `

## Harvest

Pick the fruit when it is fully coloured and slightly soft to the touch.
`

const askText = `BASIL CARE

Basil is an annual herb that dies after flowering.
Pinch off the flower buds as soon as they appear to keep the leaves growing.
Basil does not tolerate frost and should be brought indoors when nights turn cold.
`

const askHTML = `<!DOCTYPE html>
<html><head><title>Composting guide</title></head>
<body><main>
<h1>Composting</h1>
<p>A compost heap turns kitchen scraps and garden waste into humus.
The heap needs a balance of green material, rich in nitrogen, and brown
material, rich in carbon. Turning the heap every week lets air in and
speeds up decomposition considerably.</p>
<p>A finished compost smells of earth and crumbles in the hand.</p>
</main></body></html>
`

// askCode is a source file whose comment reads like prose: code is no answer.
const askCode = `package garden

/*
Every tomato plant in these garden tests gets sunlight for hours each day, as the tests need.
*/
func Sunlight() int { return 6 }
`

const askOther = `# Bicycle maintenance

Clean and oil the chain every few hundred kilometres. Check the tyre pressure
before every long ride, and replace brake pads when the grooves are worn away.
`

// askStore ingests the fixture documents into a fresh engine and waits for them.
func askStore(t testing.TB, opts ...opt) (*engine.Engine, string) {
	t.Helper()
	e := open(t, opts...)
	dir := t.TempDir()
	var ids []string
	for name, content := range map[string]string{"tomatoes.md": askMarkdown, "basil.txt": askText, "compost.html": askHTML, "bicycle.md": askOther, "garden.go": askCode} {
		ids = append(ids, ingestFile(t, e, write(t, filepath.Join(dir, name), content)).DocumentID)
	}
	for _, d := range settle(t, e, ids...) {
		if d.Status != "analyzed" {
			t.Fatalf("%s: %+v", d.Path, d)
		}
	}
	return e, dir
}

func ask(t testing.TB, e *engine.Engine, r engine.AskRequest) *engine.AskResponse {
	t.Helper()
	resp, err := e.Ask(context.Background(), r)
	if err != nil {
		t.Fatalf("ask %q: %v", r.Question, err)
	}
	return resp
}

var markerRe = regexp.MustCompile(`\[(\d+)\]`)

// answerMarkers are the citation numbers of an answer, in order; a bracketed number that a
// quoted sentence holds itself is escaped ("\\[2\\]") and is none.
func answerMarkers(answer string) []int {
	var out []int
	for _, m := range markerRe.FindAllStringSubmatchIndex(answer, -1) {
		if m[0] > 0 && answer[m[0]-1] == '\\' {
			continue
		}
		n, _ := strconv.Atoi(answer[m[2]:m[3]])
		out = append(out, n)
	}
	return out
}

// checkCitations fails unless every citation is used in the answer, numbered 1..n in order of
// first use, and cites lines of its file that hold its quote's words (pages are not checked).
func checkCitations(t testing.TB, r *engine.AskResponse) {
	t.Helper()
	next := 1
	for _, n := range answerMarkers(r.Answer) {
		if n == next {
			next++
		} else if n > next {
			t.Errorf("citation [%d] is used before [%d]: %s", n, next, r.Answer)
		}
	}
	if next-1 != len(r.Citations) {
		t.Errorf("the answer uses %d citations, the response lists %d: %s", next-1, len(r.Citations), r.Answer)
	}
	for i, c := range r.Citations {
		if c.N != i+1 || c.DocumentID == "" || c.ChunkID == "" || c.Quote == "" || c.LineStart < 1 || c.LineEnd < c.LineStart {
			t.Errorf("citation %d: %+v", i+1, c)
			continue
		}
		if c.Page > 0 || c.Path == "" {
			continue
		}
		if bad := citedLinesMiss(t, c); bad != "" {
			t.Errorf("[%d] %s:%d-%d does not hold %q of %q", c.N, filepath.Base(c.Path), c.LineStart, c.LineEnd, bad, c.Quote)
		}
	}
}

// citedLinesMiss returns a word of the citation's quote that its cited lines of the file do not
// hold ("" when they hold them all); the words are compared on the file's text with markup
// (tags, backticks, link syntax) left in, so only words of letters and digits are looked for.
func citedLinesMiss(t testing.TB, c engine.Citation) string {
	t.Helper()
	data, err := os.ReadFile(c.Path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if c.LineEnd > len(lines) {
		return "(past the end of the file)"
	}
	// The lines as written, and without tags: a word may be written across them
	// ("2<sup>n</sup>"), or be in one (an image's alt text).
	raw := strings.Join(lines[c.LineStart-1:c.LineEnd], " ")
	cited := strings.ToLower(raw + " " + tagRe.ReplaceAllString(raw, ""))
	for _, w := range regexp.MustCompile(`[\p{L}\p{N}]+`).FindAllString(strings.ToLower(c.Quote), -1) {
		if !strings.Contains(cited, w) {
			return w
		}
	}
	return ""
}

// TestAskExtractive: without a chat model the answer is the sentences that hold the question,
// each ending with its citation, and each citation lands on the file's own lines of the quoted
// sentence — in Markdown (soft-wrapped), plain text and HTML (a paragraph folded into one line
// of text, a sentence in its middle).
var tagRe = regexp.MustCompile(`<[^<>]*>`)

func TestAskExtractive(t *testing.T) {
	e, dir := askStore(t)
	for _, c := range []struct {
		question string
		want     string // a sentence the answer must hold
		file     string
		line     int // the file line where it starts, which its citation must hold among at most three
	}{
		{"How much sunlight do tomato plants need?", "Tomato plants need at least six hours of direct sunlight every day to set fruit.", "tomatoes.md", 6},
		{"When should basil flower buds be pinched off?", "Pinch off the flower buds as soon as they appear to keep the leaves growing.", "basil.txt", 4},
		{"Why turn a compost heap every week?", "Turning the heap every week lets air in and speeds up decomposition considerably.", "compost.html", 7},
	} {
		r := ask(t, e, engine.AskRequest{Question: c.question})
		if r.Mode != engine.AskExtractive || r.Model != "" || len(r.Unsupported) != 0 {
			t.Errorf("%q: mode %s model %q unsupported %v", c.question, r.Mode, r.Model, r.Unsupported)
		}
		if !strings.Contains(r.Answer, strings.TrimSuffix(c.want, ".")+" [") {
			t.Errorf("%q: the answer does not hold %q, each sentence ending with its citation:\n%s", c.question, c.want, r.Answer)
		}
		checkCitations(t, r)
		found := false
		for _, cit := range r.Citations {
			if strings.Contains(cit.Quote, c.want) {
				found = true
				if cit.Path != filepath.Join(dir, c.file) || c.line < cit.LineStart || c.line > cit.LineEnd || cit.LineEnd-cit.LineStart > 2 {
					t.Errorf("%q: %q cited at %s:%d-%d, want %s:%d", c.question, c.want, cit.Path, cit.LineStart, cit.LineEnd, c.file, c.line)
				}
			}
		}
		if !found {
			t.Errorf("%q: no citation quotes %q: %+v", c.question, c.want, r.Citations)
		}
		if strings.Contains(r.Answer, "echo") || strings.Contains(r.Answer, "for many hours") || strings.Contains(r.Answer, "garden tests") || strings.Contains(r.Answer, "Bicycle") || strings.Contains(r.Answer, "BASIL CARE") {
			t.Errorf("%q: code, a heading or an unrelated document in the answer: %s", c.question, r.Answer)
		}
	}
}

// TestAskNothingAnswers: a question the store has nothing on gets no answer and says so, also
// when one of its words is in a document but most of them are unknown to the store.
func TestAskNothingAnswers(t *testing.T) {
	e, _ := askStore(t)
	for _, q := range []string{"What is the airspeed velocity of an unladen swallow?", "zzzzqqq", "When should I pinch the buds of an unladen zebra at airspeed?"} {
		r := ask(t, e, engine.AskRequest{Question: q})
		if r.Answer != "" || len(r.Citations) != 0 || !strings.HasPrefix(r.Notice, "not found: ") {
			t.Errorf("%q: %+v", q, r)
		}
	}
}

// TestAskFormats: summary_with_sources is the same answer followed by its sources, one line per
// citation with the file's place; the structured fields are the same either way.
func TestAskFormats(t *testing.T) {
	e, dir := askStore(t)
	q := "How much sunlight do tomato plants need?"
	md := ask(t, e, engine.AskRequest{Question: q})
	sum := ask(t, e, engine.AskRequest{Question: q, Format: engine.AskSummaryWithSource})
	if !strings.HasPrefix(sum.Answer, md.Answer+"\n\nSources:\n[1] Tomato growing notes — "+filepath.Join(dir, "tomatoes.md")+":6-7") {
		t.Fatalf("summary_with_sources:\n%s\nmarkdown:\n%s", sum.Answer, md.Answer)
	}
	a, _ := json.Marshal(md.Citations)
	b, _ := json.Marshal(sum.Citations)
	if string(a) != string(b) {
		t.Fatalf("citations differ between formats:\n%s\n%s", a, b)
	}
}

// TestAskErrors: bad input is a VALIDATION_ERROR naming the field; a cancelled call is
// CANCELLED.
func TestAskErrors(t *testing.T) {
	e, _ := askStore(t)
	ctx := context.Background()
	for _, c := range []struct {
		r     engine.AskRequest
		field string
	}{
		{engine.AskRequest{Question: "  "}, "question"},
		{engine.AskRequest{Question: strings.Repeat("why ", 600)}, "question"},
		{engine.AskRequest{Question: strings.Repeat("word", 1) + " " + manyWords(70)}, "question"},
		{engine.AskRequest{Question: "tomatoes", MaxPassages: 21}, "max_passages"},
		{engine.AskRequest{Question: "tomatoes", MaxPassages: -1}, "max_passages"},
		{engine.AskRequest{Question: "tomatoes", Format: "html"}, "format"},
		{engine.AskRequest{Question: "tomatoes", Filters: engine.SearchFilters{From: "March"}}, "filters.from"},
	} {
		_, err := e.Ask(ctx, c.r)
		ee := wantCode(t, err, errs.Validation)
		if ee.Details["field"] != c.field {
			t.Errorf("%+v: field %v, want %s", c.r.Filters, ee.Details["field"], c.field)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err := e.Ask(cctx, engine.AskRequest{Question: "tomatoes"})
	wantCode(t, err, errs.Cancelled)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled ask must wrap context.Canceled: %v", err)
	}
}

func manyWords(n int) string {
	var ws []string
	for i := 0; i < n; i++ {
		ws = append(ws, "word"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	return strings.Join(ws, " ")
}

// TestAskFilters: the request's filters narrow the passages as they narrow a search.
func TestAskFilters(t *testing.T) {
	e, dir := askStore(t)
	q := "How much sunlight do tomato plants need?"
	r := ask(t, e, engine.AskRequest{Question: q, Filters: engine.SearchFilters{Path: filepath.Join(dir, "basil")}})
	for _, c := range r.Citations {
		if !strings.HasPrefix(c.Path, filepath.Join(dir, "basil")) {
			t.Fatalf("a citation outside the path filter: %+v", c)
		}
	}
	if strings.Contains(r.Answer, "Tomato") {
		t.Fatalf("the filtered-out document answered: %s", r.Answer)
	}
}

// TestAskSaysWhatTheStoreDoesNotHold: an answer made of the question's other words says which
// of its words no document holds.
func TestAskSaysWhatTheStoreDoesNotHold(t *testing.T) {
	e, dir := askStore(t)
	// Zanzibar is named by no passage: what the notes say of tomatoes in general is no answer
	// about Zanzibar (issue 24). The answer is "not found", naming what is missing, and the
	// closest passages come apart from an answer.
	r := ask(t, e, engine.AskRequest{Question: "How much direct sunlight do tomato plants need in Zanzibar?"})
	if r.Answer != "" || len(r.Citations) != 0 || !strings.Contains(r.Notice, "not found: no passage says “zanzibar”") {
		t.Fatalf("answer %q, notice %q", r.Answer, r.Notice)
	}
	if len(r.Closest) == 0 || r.Closest[0].Path != filepath.Join(dir, "tomatoes.md") || !slices.Contains(r.Closest[0].Missing, "zanzibar") {
		t.Fatalf("closest: %+v", r.Closest)
	}
	if r := ask(t, e, engine.AskRequest{Question: "How much direct sunlight do tomato plants need?"}); !strings.Contains(r.Answer, "six hours of direct sunlight") || r.Notice != "" || len(r.Closest) != 0 {
		t.Fatalf("answer %q, notice %q", r.Answer, r.Notice)
	}
}
