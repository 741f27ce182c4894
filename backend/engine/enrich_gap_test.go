package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/enrich"
	"github.com/strata-app/strata/backend/store"
)

// DiscoveryGap reads the SIMILAR_TO and CO_OCCURS_WITH links that EmbeddingSimilarity and
// CoOccurrence derive. Those are written in parallel with it (issue 14), so these tests write
// such links themselves, with store.ReplaceDerived under the other enrichments' names, into a
// store built from real documents, and run DiscoveryGap alone (RunEnrichment) — except
// TestDiscoveryGapAllEnrichments, which runs everything as it is.

const qualityCorpus = "../search/quality/testdata/corpus"

// gapLink is a link written in another enrichment's name.
type gapLink struct {
	enrichment, typ, a, b string
	score                 float64
	docs                  []string
}

// putLinks makes the links of l.enrichment and l.typ touching the links' ends exactly links
// (an empty score removes the link), as that enrichment's run would.
func putLinks(t testing.TB, e *engine.Engine, links ...gapLink) {
	t.Helper()
	ctx := context.Background()
	err := e.DB().WriteTx(ctx, func(tx *store.Tx) error {
		for _, l := range links {
			var list []store.DerivedLink
			if l.score > 0 {
				ev, _ := json.Marshal([]enrich.Evidence{{Kind: "vector", ID: l.a + "~" + l.b, Score: l.score}})
				list = append(list, store.DerivedLink{ID: enrich.LinkID(l.enrichment, l.typ, l.a, l.b), RelationshipType: l.typ,
					SourceEntityID: l.a, TargetEntityID: l.b, Enrichment: l.enrichment, Version: "1", Score: l.score, Evidence: ev, EvidenceDocs: l.docs})
			}
			// This one pair (a → b): the real enrichments' other links stay as they are.
			scope := store.LinkScope{Enrichment: l.enrichment, Types: []string{l.typ}, SourceIn: []string{l.a}, Touching: []string{l.b}}
			if _, err := store.ReplaceDerived(ctx, tx, scope, list, "2025-01-01T00:00:00.000000000Z"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// runGap runs DiscoveryGap over every document and returns how many rows it changed.
func runGap(t testing.TB, e *engine.Engine) int {
	t.Helper()
	res, err := e.RunEnrichment(context.Background(), "DiscoveryGap")
	if err != nil {
		t.Fatal(err)
	}
	return res.Changed
}

// suggestions lists suggestions in state as "kind a ~ b" by file or entity name.
func suggestions(t testing.TB, e *engine.Engine, state string) ([]string, []engine.SuggestionItem) {
	t.Helper()
	page, err := e.Suggestions(context.Background(), state, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range page.Suggestions {
		ends := []string{entityName(t, e, s.SourceEntityID), entityName(t, e, s.TargetEntityID)}
		slices.Sort(ends) // the pair, whichever end its ID puts first
		out = append(out, s.Kind+" "+ends[0]+" ~ "+ends[1])
	}
	slices.Sort(out)
	return out, page.Suggestions
}

func entityName(t testing.TB, e *engine.Engine, id string) string {
	t.Helper()
	var name string
	err := e.DB().Reader().QueryRowContext(context.Background(), `SELECT coalesce((SELECT path FROM documents WHERE entity_id = ?),
		(SELECT canonical_name FROM entities WHERE entity_id = ?), ?)`, id, id, id).Scan(&name)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Base(name)
}

func entityByName(t testing.TB, e *engine.Engine, typ, name string) string {
	t.Helper()
	var id string
	err := e.DB().Reader().QueryRowContext(context.Background(), `SELECT entity_id FROM entities WHERE entity_type = ? AND canonical_name = ?`, typ, name).Scan(&id)
	if err != nil {
		t.Fatalf("%s %q: %v", typ, name, err)
	}
	return id
}

// gapStore ingests two Rust chapters, two Node.js API pages and three dated meeting notes
// (two tagged #migration, one #budget), and returns the engine, the fixtures' folder and
// each document's (entity ID, document ID) by file name.
func gapStore(t testing.TB) (*engine.Engine, string, map[string][2]string) {
	t.Helper()
	// The links DiscoveryGap reads are written by each test (putLinks): the enrichments that
	// derive them for real are off, so a test's expectations are its own links' consequences.
	e := open(t, withSpecs(fstest.MapFS{"enrichments.yaml": {Data: []byte(
		"enrichments:\n  CoOccurrence:\n    enabled: false\n  EmbeddingSimilarity:\n    enabled: false\n")}}))
	dir, _ := temporalFixtures(t)
	paths := []string{qualityCorpus + "/rust-book/ch04-01-what-is-ownership.html", qualityCorpus + "/rust-book/ch04-02-references-and-borrowing.html",
		qualityCorpus + "/nodejs-api/path.md", qualityCorpus + "/nodejs-api/os.md",
		dir + "/2026-01-12-kickoff.md", dir + "/2026-04-20-retrospective.md", dir + "/2026-03-02-budget-review.md"}
	docs := ingestEnriched(t, e, paths...)
	ents := map[string][2]string{}
	for i, id := range docs {
		d, err := e.GetDocumentRow(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		ents[filepath.Base(paths[i])] = [2]string{d.EntityID, id}
	}
	return e, dir, ents
}

func TestDiscoveryGapSuggestions(t *testing.T) {
	ctx := context.Background()
	e, _, d := gapStore(t)
	ch1, ch2 := d["ch04-01-what-is-ownership.html"], d["ch04-02-references-and-borrowing.html"]
	path, osmd := d["path.md"], d["os.md"]
	kick, retro, budget := d["2026-01-12-kickoff.md"], d["2026-04-20-retrospective.md"], d["2026-03-02-budget-review.md"]
	migration, budgetTag := entityByName(t, e, "concept", "migration"), entityByName(t, e, "concept", "budget")
	mara, tomas := entityByName(t, e, "person", "Mara Quinn"), entityByName(t, e, "person", "Tomás Reyes")
	sim := func(a, b [2]string, score float64) gapLink {
		return gapLink{"EmbeddingSimilarity", enrich.TypeSimilar, a[0], b[0], score, []string{a[1], b[1]}}
	}
	co := func(a, b string, score float64, docs ...[2]string) gapLink {
		l := gapLink{"CoOccurrence", enrich.TypeCoOccurs, a, b, score, nil}
		for _, d := range docs {
			l.docs = append(l.docs, d[1])
		}
		return l
	}
	putLinks(t, e,
		sim(ch1, ch2, 0.78),                          // similar, nothing links them: suggested
		sim(path, osmd, 0.65),                        // a link, but below min_similarity 0.70: not worth a look
		sim(kick, retro, 0.85),                       // similar, but both are tagged #migration: a shared concept
		co(migration, budgetTag, 0.40, kick, budget), // co-occur strongly: suggested
		co(mara, tomas, 0.25, kick, budget),          // below min_co_occurrence 0.30
		sim(osmd, retro, 0.80),                       // similar, but the store knows os.md is contained in it:
		gapLink{"EmbeddingSimilarity", enrich.TypeContainedIn, osmd[0], retro[0], 1, []string{osmd[1], retro[1]}},
	)
	runGap(t, e)
	got, list := suggestions(t, e, "")
	want := []string{"co_occurs budget ~ migration", "similar ch04-01-what-is-ownership.html ~ ch04-02-references-and-borrowing.html"}
	if !slices.Equal(got, want) {
		t.Fatalf("suggestions %v, want %v", got, want)
	}
	for _, s := range list {
		if s.Kind == enrich.KindSimilar {
			if s.Score != 0.78 || !strings.Contains(s.Reason, "look related (similarity 0.78); nothing links them and they share no concept") ||
				!strings.Contains(s.Reason, "ch04-01-what-is-ownership.html") || s.ID != enrich.SuggestionID(ch1[0], ch2[0]) ||
				!strings.Contains(string(s.Evidence), `"kind":"vector"`) || s.SourceEntityID > s.TargetEntityID {
				t.Errorf("similar suggestion: %+v", s)
			}
		}
	}

	// Idempotent.
	before := derivedRows(t, e)
	if n := runGap(t, e); n != 0 || !slices.Equal(before, derivedRows(t, e)) {
		t.Fatalf("a second run changed %d rows", n)
	}

	// An asserted relationship retracts the pair's open suggestion at once (migration 0009),
	// and running again does not raise it.
	if _, err := e.CreateRelationship(ctx, "RELATED_TO", budgetTag, migration, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := suggestions(t, e, ""); !slices.Equal(got, want[1:]) {
		t.Fatalf("after asserting budget RELATED_TO migration: %v", got)
	}
	runGap(t, e)
	if got, _ := suggestions(t, e, ""); !slices.Equal(got, want[1:]) {
		t.Fatalf("raised again after an asserted link: %v", got)
	}

	// Accept: an asserted RELATED_TO between the two chapters; never suggested again.
	_, open := suggestions(t, e, "open")
	dec, err := e.DecideSuggestion(ctx, open[0].ID, true, "", "test")
	if err != nil {
		t.Fatal(err)
	}
	if dec.Relationship == nil || dec.Relationship.RelationshipType != "RELATED_TO" || dec.Suggestion.State != store.SuggestionAccepted {
		t.Fatalf("accepted: %+v", dec)
	}
	rels, err := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: ch1[0], Type: "RELATED_TO", Limit: 10})
	if err != nil || rels.Total != 1 || rels.Relationships[0].TargetEntityID != ch2[0] && rels.Relationships[0].SourceEntityID != ch2[0] {
		t.Fatalf("the accepted suggestion's relationship: %+v %v", rels, err)
	}
	runGap(t, e)
	if got, _ := suggestions(t, e, "open"); len(got) != 0 {
		t.Fatalf("open after accepting: %v", got)
	}
	if _, all := suggestions(t, e, "all"); len(all) != 1 || all[0].State != store.SuggestionAccepted {
		t.Fatalf("the accepted suggestion: %+v", all)
	}

	// Dismiss: remembered; the same pair, stronger, enriched again, is not raised.
	putLinks(t, e, sim(path, osmd, 0.90))
	runGap(t, e)
	if got, _ := suggestions(t, e, "open"); !slices.Equal(got, []string{"similar os.md ~ path.md"}) {
		t.Fatalf("path ~ os at 0.90: %v", got)
	}
	_, open = suggestions(t, e, "open")
	if _, err := e.DecideSuggestion(ctx, open[0].ID, false, "", "test"); err != nil {
		t.Fatal(err)
	}
	putLinks(t, e, sim(path, osmd, 0.95))
	runGap(t, e)
	if got, _ := suggestions(t, e, "open"); len(got) != 0 {
		t.Fatalf("a dismissed pair raised again: %v", got)
	}
	if _, dismissed := suggestions(t, e, "dismissed"); len(dismissed) != 1 {
		t.Fatalf("dismissed: %+v", dismissed)
	}

	// A newly shared concept, and a link that goes, each retract the suggestion they bore on.
	putLinks(t, e, sim(osmd, budget, 0.75), sim(ch2, kick, 0.74))
	runGap(t, e)
	if got, _ := suggestions(t, e, "open"); len(got) != 2 {
		t.Fatalf("two new pairs: %v", got)
	}
	putLinks(t, e, gapLink{"TagConceptBridger", enrich.TypeRefersTo, osmd[0], budgetTag, 1, []string{osmd[1]}}) // os.md now refers to #budget too
	putLinks(t, e, sim(ch2, kick, 0))                                                                           // and the chapter no longer looks like the kickoff
	runGap(t, e)
	if got, _ := suggestions(t, e, "open"); len(got) != 0 {
		t.Fatalf("a shared concept / a gone link left %v", got)
	}
}

// A removed document leaves no open suggestion (nor any derived link) resting on it.
func TestDiscoveryGapRetractsWithEvidence(t *testing.T) {
	ctx := context.Background()
	e, dir, d := gapStore(t)
	ch1, kick := d["ch04-01-what-is-ownership.html"], d["2026-01-12-kickoff.md"]
	putLinks(t, e, gapLink{"EmbeddingSimilarity", enrich.TypeSimilar, ch1[0], kick[0], 0.75, []string{ch1[1], kick[1]}})
	runGap(t, e)
	if got, _ := suggestions(t, e, "open"); len(got) != 1 {
		t.Fatalf("before: %v", got)
	}
	if err := os.Remove(filepath.Join(dir, "2026-01-12-kickoff.md")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Reconcile(ctx, local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, e)
	if got, _ := suggestions(t, e, "open"); len(got) != 0 {
		t.Fatalf("after removing the kickoff note: %v", got)
	}
	var n int
	if err := e.DB().Reader().QueryRowContext(ctx, `SELECT count(*) FROM derived_links WHERE source_entity_id = ? OR target_entity_id = ?`,
		kick[0], kick[0]).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d derived links still touch the removed note (%v)", n, err)
	}
}

// TestDiscoveryGapAllEnrichments runs every enrichment as it is on real documents, built in
// two orders. Before EmbeddingSimilarity and CoOccurrence are merged it checks only that
// DiscoveryGap raises nothing without links to read; after the merge it is the real test:
// every open suggestion rests on a SIMILAR_TO (≥ min_similarity) or CO_OCCURS_WITH
// (≥ min_co_occurrence) link between its ends, no asserted relationship joins them, they
// share no REFERS_TO target, and both build orders give the same rows.
func TestDiscoveryGapAllEnrichments(t *testing.T) {
	files := []string{"rust-book/ch04-01-what-is-ownership.html", "rust-book/ch04-02-references-and-borrowing.html",
		"rust-book/ch10-01-syntax.html", "rust-book/ch10-02-traits.html", "rust-book/ch08-02-strings.html",
		"nodejs-api/path.md", "nodejs-api/os.md", "nodejs-api-html/path.html", "license-gpl-2.txt", "license-lgpl-2.1.txt"}
	build := func(order []string) []string {
		e := open(t)
		for _, f := range order {
			ingestEnriched(t, e, qualityCorpus+"/"+f)
		}
		checkSuggestions(t, e)
		return derivedRows(t, e)
	}
	rev := slices.Clone(files)
	slices.Reverse(rev)
	if a, b := build(files), build(rev); !slices.Equal(a, b) {
		t.Fatalf("two build orders differ:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// checkSuggestions checks what every open suggestion must hold (see TestDiscoveryGapAllEnrichments).
func checkSuggestions(t testing.TB, e *engine.Engine) {
	t.Helper()
	ctx := context.Background()
	r := e.DB().Reader()
	_, open := suggestions(t, e, "open")
	for _, s := range open {
		var best float64
		var typ string
		err := r.QueryRowContext(ctx, `SELECT relationship_type, max(score) FROM derived_links WHERE relationship_type IN ('SIMILAR_TO', 'CO_OCCURS_WITH')
			AND ((source_entity_id = ? AND target_entity_id = ?) OR (source_entity_id = ? AND target_entity_id = ?))`,
			s.SourceEntityID, s.TargetEntityID, s.TargetEntityID, s.SourceEntityID).Scan(&typ, &best)
		if err != nil || (typ == "SIMILAR_TO" && best < 0.70) || (typ == "CO_OCCURS_WITH" && best < 0.30) || typ == "" {
			t.Errorf("suggestion %s rests on no strong link (%s %.3f, %v)", s.Reason, typ, best, err)
		}
		var asserted, shared int
		r.QueryRowContext(ctx, `SELECT count(*) FROM relationships WHERE (source_entity_id = ? AND target_entity_id = ?) OR (source_entity_id = ? AND target_entity_id = ?)`,
			s.SourceEntityID, s.TargetEntityID, s.TargetEntityID, s.SourceEntityID).Scan(&asserted)
		refs := `SELECT target_entity_id FROM relationships WHERE source_entity_id = ? AND relationship_type = 'REFERS_TO'
			UNION SELECT target_entity_id FROM derived_links WHERE source_entity_id = ? AND relationship_type = 'REFERS_TO'`
		r.QueryRowContext(ctx, `SELECT count(*) FROM (`+refs+` INTERSECT `+refs+`)`, s.SourceEntityID, s.SourceEntityID, s.TargetEntityID, s.TargetEntityID).Scan(&shared)
		if asserted > 0 || shared > 0 {
			t.Errorf("suggestion %s: %d asserted links, %d shared referents", s.Reason, asserted, shared)
		}
	}
	t.Logf("%d open suggestions", len(open))
}
