package engine_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

// TestAskIsDeterministic: the same store and question give the same answer, citations, facts
// and order, run after run; and two stores built from the same files and payloads in opposite
// orders answer alike.
func TestAskIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"tomatoes.md": askMarkdown, "basil.txt": askText, "compost.html": askHTML, "bicycle.md": askOther,
		"tomatoes-copy.md": askMarkdown, "tomato-chapter.md": "# Tomatoes\n\n" + askMarkdown[strings.Index(askMarkdown, "Tomato plants"):]}
	var names []string
	for name, content := range files {
		write(t, filepath.Join(dir, name), content)
		names = append(names, name)
	}
	slices.Sort(names)
	payloads := []map[string]any{
		invoice("INV-001", "Acme Corp", 1500, "2025-03-05T10:00:00Z", map[string]any{"date": "2025-03-04"}),
		invoice("INV-003", "Acme Corp", 700, "2024-03-16T10:00:00Z", map[string]any{"date": "2024-03-15"}),
		invoice("INV-001", "ACME Corp.", 1600, "2025-03-06T10:00:00Z", map[string]any{"date": "2025-03-04"}), // a correction
	}
	build := func(reverse bool) *engine.Engine {
		e := open(t)
		order := slices.Clone(names)
		ps := slices.Clone(payloads)
		if reverse {
			slices.Reverse(order)
			slices.Reverse(ps)
		}
		var ids []string
		for _, n := range order {
			ids = append(ids, ingestFile(t, e, filepath.Join(dir, n)).DocumentID)
		}
		settle(t, e, ids...)
		for _, p := range ps {
			ingest(t, e, "", p)
		}
		return e
	}
	a, b := build(false), build(true)
	questions := []string{
		"How much sunlight do tomato plants need?",
		"When should basil flower buds be pinched off?",
		"Why turn a compost heap every week?",
		"What did Acme invoice in March?",
		"how do I look after plants",
	}
	answerOf := func(e *engine.Engine, q string) string {
		r, err := e.Ask(context.Background(), engine.AskRequest{Question: q})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(struct {
			A, N, M string
			C       []engine.Citation
			F       []engine.Fact
			U       []engine.Unsupported
		}{r.Answer, r.Notice, r.Mode, r.Citations, r.Facts, r.Unsupported})
		return string(out)
	}
	for _, q := range questions {
		first := answerOf(a, q)
		for range 3 {
			if again := answerOf(a, q); again != first {
				t.Fatalf("%q: two runs differ:\n%s\n%s", q, first, again)
			}
		}
		if other := answerOf(b, q); other != first {
			t.Fatalf("%q: two stores built in opposite orders differ:\n%s\n%s", q, first, other)
		}
	}
	if r := answerOf(a, "What did Acme invoice in March?"); !json.Valid([]byte(r)) || !strings.Contains(r, `"value":1600`) {
		t.Fatalf("the correction must win in both stores: %s", r)
	}
}
