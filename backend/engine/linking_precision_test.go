package engine_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// linkingDump writes what the enrichments derive from a linking corpus to a file, for a
// reviewer to label: go test ./backend/engine -run TestLinkingPrecision -args -linking-dump=DIR.
var linkingDump = flag.String("linking-dump", "", "write each linking corpus's concepts and suggestions as JSON into this folder")

// derivedConcept is one concept of the store as a reviewer judges it: its name, the documents
// that refer to it (paths relative to the corpus) and how (sources: tag, heading, text …).
type derivedConcept struct {
	Name      string   `json:"name"`
	Documents []string `json:"documents"`
	Sources   []string `json:"sources"`
}

// derivedSuggestion is one open suggestion: the two documents and the reason shown.
type derivedSuggestion struct {
	Pair   string  `json:"pair"` // "a | b", the two relative paths in order
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
}

// linkingLabels are a reviewer's judgements (testdata/linking/labels.json): a concept is right
// when it names a topic the documents that refer to it are about (not a section label, a
// date, a word of the template); a suggestion when a person reading one of the two would want
// to read the other. Anything derived that is not labelled counts as wrong.
type linkingLabels struct {
	Concepts    map[string]bool `json:"concepts"`
	Suggestions map[string]bool `json:"suggestions"`
}

// TestLinkingPrecision: what the enrichments derive from real documents they were never tuned
// on (testdata/linking/heldout and heldout2: public meeting minutes, notes and invoices as
// people write them, manuals from /usr/share/doc, a static site generator's documentation) is
// right at least as often as the hand labels committed beside them last measured (reviewers
// who saw the documents, not the code; their reasons in testdata/linking/label-notes), and
// there is still something to show (a floor on how many are right, so that deriving nothing
// does not pass). Anything derived and not labelled counts as wrong: a change to what linking
// derives means labelling what is new (dump it with -linking-dump=DIR).
func TestLinkingPrecision(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a store of each corpus")
	}
	var labels map[string]linkingLabels
	raw, err := os.ReadFile(filepath.Join("testdata", "linking", "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &labels); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		corpus, dir             string
		minConcepts, minSugg    int     // right ones at least
		conceptFloor, suggFloor float64 // precision at least
	}{
		// Issue 23 asks concepts ≥ 0.90 and suggestions ≥ 0.80. Measured 2026-11-29 (labels of
		// that day, docs/linking.md): heldout 45/57 concepts (0.79), 15/18 suggestions (0.83);
		// heldout2 56/78 (0.72), 17/21 (0.81); dev 21/23 (0.91), 6/6; quality 147/156 (0.94),
		// 23/43 (0.53). The floors hold what was measured — the concept target is missed on the
		// held-out corpora (heading concepts such as "updates", "documentation", "costs") and
		// the suggestion target on the manuals (pairs that share a field's vocabulary: crypto
		// acronyms, BSD names) — so that a change making it worse fails, and one making it
		// better raises them.
		{corpus: "heldout", dir: "testdata/linking/heldout", minConcepts: 40, minSugg: 12, conceptFloor: 0.78, suggFloor: 0.80},
		{corpus: "heldout2", dir: "testdata/linking/heldout2", minConcepts: 50, minSugg: 15, conceptFloor: 0.70, suggFloor: 0.80},
		{corpus: "dev", dir: "testdata/linking/dev", minConcepts: 18, minSugg: 5, conceptFloor: 0.90, suggFloor: 0.80},
		// The search quality corpus (manuals, man pages, licences, a book, from /usr/share/doc and
		// public projects): looked at while tuning, like dev.
		{corpus: "quality", dir: "../search/quality/testdata/corpus", minConcepts: 130, minSugg: 20, conceptFloor: 0.90, suggFloor: 0.50},
	} {
		t.Run(c.corpus, func(t *testing.T) {
			t.Parallel()
			concepts, suggestions := deriveLinking(t, filepath.FromSlash(c.dir))
			if *linkingDump != "" {
				writeLinkingDump(t, c.corpus, concepts, suggestions)
			}
			l := labels[c.corpus]
			var names, pairs []string
			for _, k := range concepts {
				names = append(names, k.Name)
			}
			for _, s := range suggestions {
				pairs = append(pairs, s.Pair)
			}
			checkPrecision(t, "concepts", names, l.Concepts, c.conceptFloor, c.minConcepts)
			checkPrecision(t, "suggestions", pairs, l.Suggestions, c.suggFloor, c.minSugg)
		})
	}
}

// checkPrecision fails when fewer than floor of the derived items are labelled right, or fewer
// than min are right at all; it lists the wrong and the unlabelled ones.
func checkPrecision(t *testing.T, what string, got []string, labels map[string]bool, floor float64, min int) {
	t.Helper()
	var right int
	var wrong, unlabelled []string
	for _, g := range got {
		ok, known := labels[g]
		switch {
		case !known:
			unlabelled = append(unlabelled, g)
		case ok:
			right++
		default:
			wrong = append(wrong, g)
		}
	}
	p := 1.0
	if len(got) > 0 {
		p = float64(right) / float64(len(got))
	}
	t.Logf("%s: %d of %d right (%.0f %%)", what, right, len(got), 100*p)
	if p < floor || right < min {
		t.Errorf("%s: %d of %d right (%.0f %%), want ≥ %.0f %% and at least %d right\nwrong: %q\nunlabelled (counted wrong): %q",
			what, right, len(got), 100*p, 100*floor, min, wrong, unlabelled)
	}
}

// deriveLinking reads every file under dir into a fresh store, links it, and returns its
// concepts (by name) and open suggestions (by the pair's relative paths).
func deriveLinking(t *testing.T, dir string) ([]derivedConcept, []derivedSuggestion) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := open(t)
	ingestEnriched(t, e, abs)
	ctx := context.Background()
	rel := func(p string) string {
		r, err := filepath.Rel(abs, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	rows, err := e.DB().Reader().QueryContext(ctx, `SELECT c.canonical_name, d.path, coalesce(json_extract(l.metadata, '$.sources'), '[]')
		FROM derived_links l
		JOIN entities c ON c.entity_id = l.target_entity_id
		JOIN documents d ON d.entity_id = l.source_entity_id
		WHERE l.relationship_type = 'REFERS_TO' AND c.entity_type = 'concept'
		ORDER BY c.canonical_name, d.path`)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*derivedConcept{}
	var concepts []*derivedConcept
	for rows.Next() {
		var name, path, sources string
		if err := rows.Scan(&name, &path, &sources); err != nil {
			t.Fatal(err)
		}
		c := byName[name]
		if c == nil {
			c = &derivedConcept{Name: name}
			byName[name] = c
			concepts = append(concepts, c)
		}
		c.Documents = append(c.Documents, rel(path))
		var src []string
		_ = json.Unmarshal([]byte(sources), &src)
		for _, s := range src {
			if !slices.Contains(c.Sources, s) {
				c.Sources = append(c.Sources, s)
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows, err = e.DB().Reader().QueryContext(ctx, `SELECT a.path, b.path, s.score, s.reason FROM suggestions s
		JOIN documents a ON a.entity_id = s.source_entity_id
		JOIN documents b ON b.entity_id = s.target_entity_id
		WHERE s.state = 'open' ORDER BY s.score DESC, s.suggestion_id`)
	if err != nil {
		t.Fatal(err)
	}
	var out []derivedSuggestion
	for rows.Next() {
		var pa, pb, reason string
		var score float64
		if err := rows.Scan(&pa, &pb, &score, &reason); err != nil {
			t.Fatal(err)
		}
		a, b := rel(pa), rel(pb)
		if b < a {
			a, b = b, a
		}
		out = append(out, derivedSuggestion{Pair: a + " | " + b, Score: score, Reason: reason})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	cs := make([]derivedConcept, len(concepts))
	for i, c := range concepts {
		cs[i] = *c
	}
	return cs, out
}

func writeLinkingDump(t *testing.T, corpus string, concepts []derivedConcept, suggestions []derivedSuggestion) {
	t.Helper()
	b, err := json.MarshalIndent(map[string]any{"concepts": concepts, "suggestions": suggestions}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(*linkingDump, corpus+".json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "wrote %s (%d concepts, %d suggestions)\n", p, len(concepts), len(suggestions))
}
