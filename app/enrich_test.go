package app_test

import (
	"context"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/backend/store"
)

// TestEnrichmentCallsOverTheBrowserHandler: the window's calls for derived links and
// suggestions — Relationships, QueryRelationships, Document (its links), Suggestions,
// DismissSuggestion, AcceptSuggestion, EnrichStatus — answer over HTTP as the engine does.
func TestEnrichmentCallsOverTheBrowserHandler(t *testing.T) {
	a, e := newApp(t)
	h := a.Handler(fstest.MapFS{"index.html": {Data: []byte("<title>Strata</title>")}})
	ctx := context.Background()
	var ents, docs []string
	for _, title := range []string{"Heron survey", "River levels", "Fish counts"} {
		r, err := a.IngestText(title, title+": the colony by the river in May.")
		if err != nil {
			t.Fatal(err)
		}
		ents, docs = append(ents, r.EntityIDs[0]), append(docs, r.DocumentID)
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, st.Database)
	if err != nil {
		t.Fatal(err)
	}
	now := "2025-02-01T00:00:00Z"
	err = db.WriteTx(ctx, func(tx *store.Tx) error {
		if _, err := store.ReplaceDerived(ctx, tx, store.LinkScope{Enrichment: "EmbeddingSimilarity"}, []store.DerivedLink{{ID: "rel_sim",
			RelationshipType: "SIMILAR_TO", SourceEntityID: ents[0], TargetEntityID: ents[1], Enrichment: "EmbeddingSimilarity", Version: "1", Score: 0.7,
			Evidence: json.RawMessage(`[]`)}}, now); err != nil {
			return err
		}
		_, err := store.ReplaceSuggestions(ctx, tx, "DiscoveryGap", ents, []store.Suggestion{
			{ID: "sug_a", SourceEntityID: ents[0], TargetEntityID: ents[2], Kind: "similar", Score: 0.6, Reason: "r", Version: "1", Evidence: json.RawMessage(`[]`)},
			{ID: "sug_b", SourceEntityID: ents[1], TargetEntityID: ents[2], Kind: "similar", Score: 0.5, Reason: "r", Version: "1", Evidence: json.RawMessage(`[]`)},
		}, now)
		return err
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	ok := func(method string, args ...any) map[string]any {
		t.Helper()
		code, res, body := post(t, h, method, args...)
		if code != 200 {
			t.Fatalf("%s: %d %s", method, code, body)
		}
		return res
	}
	items := func(page map[string]any, key string) []map[string]any {
		var out []map[string]any
		for _, x := range page[key].([]any) {
			out = append(out, x.(map[string]any))
		}
		return out
	}
	if rels := items(ok("Relationships", ents[0]), "relationships"); len(rels) != 1 || rels[0]["derived"] != true ||
		rels[0]["target"].(map[string]any)["name"] != "River levels" {
		t.Fatalf("Relationships: %v", rels)
	}
	if p := ok("QueryRelationships", map[string]any{"entity_id": ents[0], "derived": false}); p["total"] != 0.0 {
		t.Fatalf("QueryRelationships asserted only: %v", p)
	}
	if links := ok("Document", docs[1])["links"].(map[string]any); links["derived_total"] != 1.0 {
		t.Fatalf("Document links: %v", links)
	}
	if s := items(ok("Suggestions", ""), "suggestions"); len(s) != 2 || s[0]["id"] != "sug_a" || s[0]["source"].(map[string]any)["name"] != "Heron survey" {
		t.Fatalf("Suggestions: %v", s)
	}
	if d := ok("DismissSuggestion", "sug_a")["suggestion"].(map[string]any); d["state"] != "dismissed" || d["decided_by"] != "app" {
		t.Fatalf("DismissSuggestion: %v", d)
	}
	if d := ok("AcceptSuggestion", "sug_b"); d["suggestion"].(map[string]any)["state"] != "accepted" ||
		d["relationship"].(map[string]any)["relationship_type"] != "RELATED_TO" {
		t.Fatalf("AcceptSuggestion: %v", d)
	}
	if s := ok("Suggestions", "all"); s["total"] != 2.0 || len(items(ok("Suggestions", ""), "suggestions")) != 0 {
		t.Fatalf("Suggestions after the decisions: %v", s)
	}
	if code, res, _ := post(t, h, "AcceptSuggestion", "sug_a"); code != 409 || res["error"].(map[string]any)["code"] != "SUGGESTION_DECIDED" {
		t.Fatalf("AcceptSuggestion of a dismissed one: %d %v", code, res)
	}
	es := ok("EnrichStatus")
	if list := items(es, "enrichments"); len(list) != 5 || list[2]["name"] != "EmbeddingSimilarity" || list[2]["links"] != 1.0 {
		t.Fatalf("EnrichStatus: %v", es)
	}
}
