package enrich

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// linkWriter stands for an enrichment that runs before DiscoveryGap (EmbeddingSimilarity):
// on every job it makes the SIMILAR_TO link between a and b exactly `score` (0: none),
// whichever document the job is for — as a new document that pushes b out of a's top k does.
type linkWriter struct {
	a, b  string
	score float64
}

func (w *linkWriter) Name() string                   { return "LinkWriter" }
func (w *linkWriter) Version() string                { return "1" }
func (w *linkWriter) ReactsTo() []Emission           { return []Emission{DocumentAnalyzed} }
func (w *linkWriter) Configure(map[string]any) error { return nil }
func (w *linkWriter) Enrich(ctx context.Context, run *Run) error {
	var links []store.DerivedLink
	if w.score > 0 {
		links = append(links, run.Link(TypeSimilar, w.a, w.b, w.score, []Evidence{{Kind: "vector", ID: "v"}}, nil, nil))
	}
	return run.Replace(ctx, store.LinkScope{Types: []string{TypeSimilar}, Touching: []string{w.a, w.b}}, links)
}

// A link written or deleted in another document's job reaches DiscoveryGap through
// Run.Touched: the suggestion about a and b follows their link although the job is c's.
func TestDiscoveryGapFollowsTouchedLinks(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const now = "2025-01-01T00:00:00.000000000Z"
	err = db.WriteTx(ctx, func(tx *store.Tx) error {
		for _, n := range []string{"a", "b", "c"} {
			if err := store.UpsertEntities(ctx, tx, []store.Entity{{EntityID: "ent_" + n, EntityType: "document", CanonicalName: n, IdentityKey: "doc_" + n, CreatedAt: now}}); err != nil {
				return err
			}
			if _, err := store.InsertDocument(ctx, tx, store.Document{DocumentID: "doc_" + n, EntityID: "ent_" + n, Kind: "file", Path: "/" + n,
				ContentHash: n, Status: "analyzed", PhaseRegister: "done", PhaseAnalyze: "done", PhaseSemantic: "skipped", CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	w := &linkWriter{a: "ent_a", b: "ent_b", score: 0.8}
	svc, err := newService(&spec.Registry{Enrichments: map[string]*spec.EnrichmentSettings{}}, []Enrichment{w, &DiscoveryGap{}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	enrichDoc := func(doc string) {
		t.Helper()
		if err := db.WriteTx(ctx, func(tx *store.Tx) error { return svc.Enrich(ctx, tx, store.Job{DocumentID: doc}, now) }); err != nil {
			t.Fatal(err)
		}
	}
	open := func() int {
		t.Helper()
		_, n, err := store.ListSuggestions(ctx, db.Reader(), store.SuggestionOpen, 10, 0)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	enrichDoc("doc_c") // the link appears in c's job: a ~ b is suggested
	if n := open(); n != 1 {
		t.Fatalf("%d open suggestions after the link appeared, want 1", n)
	}
	w.score = 0
	enrichDoc("doc_c") // and goes in c's job: the suggestion goes with it
	if n := open(); n != 0 {
		t.Fatalf("%d open suggestions after the link went, want 0", n)
	}
}
