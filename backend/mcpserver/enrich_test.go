package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/mcpserver"
	"github.com/strata-app/strata/backend/store"
)

// offEnrichments is a data folder's specs/enrichments.yaml switching every enrichment off (the
// README's way), so the only derived links are those a test writes.
const offEnrichments = `enrichments:
  TagConceptBridger: {enabled: false}
  CoOccurrence: {enabled: false}
  EmbeddingSimilarity: {enabled: false}
  DiscoveryGap: {enabled: false}
  TemporalProximity: {enabled: false}
`

// TestRelationshipsDerivedAndSuggestions: over a real MCP client, list returns asserted and
// derived links marked and filterable, suggestions are listed, dismissed and accepted,
// arguments of another action are refused by name, and index_status has the enrichments.
func TestRelationshipsDerivedAndSuggestions(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "specs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "specs", "enrichments.yaml"), []byte(offEnrichments), 0o644); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, dir)
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	ctx := context.Background()

	var ent []string
	for _, n := range []string{"Heron notes", "River survey", "Fish counts"} {
		r := call(t, c, "ingest", map[string]any{"data": map[string]any{"text": n + ": herons, rivers and fish in spring.", "title": n}})
		if r.isError {
			t.Fatal(r.text)
		}
		ent = append(ent, r.data["entities"].([]any)[0].(map[string]any)["entity_id"].(string))
	}
	a, b, cc := ent[0], ent[1], ent[2]
	if r := call(t, c, "relationships", map[string]any{"action": "create", "relationship_type": "REFERS_TO", "source_entity_id": a, "target_entity_id": b}); r.isError {
		t.Fatal(r.text)
	}

	// What the enrichments would have written, through a second connection to the same folder
	// (as another Strata process would).
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
		for _, l := range []store.DerivedLink{
			{ID: "rel_sim", RelationshipType: "SIMILAR_TO", SourceEntityID: a, TargetEntityID: b, Enrichment: "EmbeddingSimilarity", Version: "1", Score: 0.8,
				Evidence: json.RawMessage(`[{"kind":"document","id":"x"}]`)},
			{ID: "rel_co", RelationshipType: "CO_OCCURS_WITH", SourceEntityID: a, TargetEntityID: cc, Enrichment: "CoOccurrence", Version: "1", Score: 0.3,
				Evidence: json.RawMessage(`[]`)},
		} {
			if _, err := store.ReplaceDerived(ctx, tx, store.LinkScope{Enrichment: l.Enrichment}, []store.DerivedLink{l}, now); err != nil {
				return err
			}
		}
		_, err := store.ReplaceSuggestions(ctx, tx, "DiscoveryGap", []string{a, b}, []store.Suggestion{
			{ID: "sug_one", SourceEntityID: b, TargetEntityID: cc, Kind: "similar", Score: 0.7, Reason: "similar; nothing links them", Version: "1",
				Evidence: json.RawMessage(`[{"kind":"chunk","line_start":1}]`)},
			{ID: "sug_two", SourceEntityID: a, TargetEntityID: cc, Kind: "co_occurs", Score: 0.6, Reason: "co-occur; nothing links them", Version: "1",
				Evidence: json.RawMessage(`[]`)},
		}, now)
		return err
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	list := func(args map[string]any) []map[string]any {
		t.Helper()
		args["action"], args["entity_id"] = "list", a
		r := call(t, c, "relationships", args)
		if r.isError {
			t.Fatalf("list %v: %s", args, r.text)
		}
		var out []map[string]any
		for _, x := range r.data["relationships"].([]any) {
			out = append(out, x.(map[string]any))
		}
		if _, paged := args["limit"]; !paged && int(r.data["total"].(float64)) != len(out) {
			t.Fatalf("list %v: total %v for %d", args, r.data["total"], len(out))
		}
		return out
	}
	all := list(map[string]any{})
	if len(all) != 3 || all[0]["derived"] != false || all[0]["relationship_type"] != "REFERS_TO" || all[1]["id"] != "rel_sim" || all[2]["id"] != "rel_co" {
		t.Fatalf("list: %v", all)
	}
	sim := all[1]
	if sim["derived"] != true || sim["enrichment"] != "EmbeddingSimilarity@1" || sim["score"] != 0.8 || sim["evidence"] == nil ||
		sim["source"].(map[string]any)["name"] != "Heron notes" || sim["target"].(map[string]any)["name"] != "River survey" {
		t.Fatalf("derived link: %v", sim)
	}
	for _, f := range []struct {
		args map[string]any
		n    int
	}{
		{map[string]any{"derived": true}, 2},
		{map[string]any{"derived": false}, 1},
		{map[string]any{"enrichment": "CoOccurrence"}, 1},
		{map[string]any{"min_score": 0.5}, 2},
		{map[string]any{"relationship_type": "SIMILAR_TO"}, 1},
		{map[string]any{"derived": nil, "limit": 2, "offset": 2}, 1}, // null is "not given"
	} {
		if got := list(f.args); len(got) != f.n {
			t.Errorf("list %v: %d links, want %d", f.args, len(got), f.n)
		}
	}
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "list", "entity_id": a, "min_score": 2}), "VALIDATION_ERROR")
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "list", "entity_id": a, "enrichment": "Nope"}), "VALIDATION_ERROR")

	// An argument of another action is refused by name, never ignored.
	for _, k := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"action": "create", "relationship_type": "REFERS_TO", "source_entity_id": a, "target_entity_id": cc, "min_score": 0.5}, "min_score"},
		{map[string]any{"action": "list", "entity_id": a, "suggestion_id": "sug_one"}, "suggestion_id"},
		{map[string]any{"action": "dismiss", "suggestion_id": "sug_one", "entity_id": a}, "entity_id"},
		{map[string]any{"action": "suggestions", "derived": true}, "derived"},
	} {
		env := wantErr(t, call(t, c, "relationships", k.args), "VALIDATION_ERROR")
		if d, _ := env["details"].(map[string]any); d["field"] != k.field {
			t.Errorf("%v: details %v, want field %s", k.args, env["details"], k.field)
		}
	}

	r := call(t, c, "relationships", map[string]any{"action": "suggestions", "limit": 10})
	sugg, _ := r.data["suggestions"].([]any)
	if r.isError || len(sugg) != 2 || r.data["total"] != 2.0 {
		t.Fatalf("suggestions: %s", r.text)
	}
	first := sugg[0].(map[string]any)
	if first["id"] != "sug_one" || first["reason"] == "" || first["evidence"] == nil || first["source"].(map[string]any)["name"] != "River survey" ||
		first["target"].(map[string]any)["name"] != "Fish counts" {
		t.Fatalf("suggestion: %v", first)
	}

	r = call(t, c, "relationships", map[string]any{"action": "dismiss", "suggestion_id": "sug_one"})
	if s, _ := r.data["suggestion"].(map[string]any); r.isError || s["state"] != "dismissed" || !strings.HasPrefix(s["decided_by"].(string), "mcp") || r.data["relationship"] != nil {
		t.Fatalf("dismiss: %s", r.text)
	}
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "dismiss", "suggestion_id": "sug_one"}), "SUGGESTION_DECIDED")
	r = call(t, c, "relationships", map[string]any{"action": "accept", "suggestion_id": "sug_two", "relationship_type": "REFERS_TO"})
	rel, _ := r.data["relationship"].(map[string]any)
	if s, _ := r.data["suggestion"].(map[string]any); r.isError || s["state"] != "accepted" || rel["relationship_type"] != "REFERS_TO" || s["relationship_id"] != rel["id"] {
		t.Fatalf("accept: %s", r.text)
	}
	if got := list(map[string]any{"derived": false}); len(got) != 2 {
		t.Fatalf("after accept, asserted links: %v", got)
	}
	if r := call(t, c, "relationships", map[string]any{"action": "suggestions"}); r.data["total"] != 0.0 {
		t.Fatalf("open suggestions after both decisions: %s", r.text)
	}
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "accept", "suggestion_id": "sug_none"}), "SUGGESTION_NOT_FOUND")
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "accept"}), "VALIDATION_ERROR")

	r = call(t, c, "index_status", nil)
	enr, _ := r.data["enrichments"].(map[string]any)
	list5, _ := enr["enrichments"].([]any)
	if r.isError || len(list5) != 5 || enr["backlog"] == nil {
		t.Fatalf("index_status enrichments: %s", r.text)
	}
	links := map[string]float64{}
	for _, x := range list5 {
		m := x.(map[string]any)
		links[m["name"].(string)] = m["links"].(float64)
		if m["enabled"] != false {
			t.Errorf("%s is on; the data folder's enrichments.yaml switched it off", m["name"])
		}
	}
	if links["EmbeddingSimilarity"] != 1 || links["CoOccurrence"] != 1 {
		t.Fatalf("links by enrichment: %v", links)
	}
}
