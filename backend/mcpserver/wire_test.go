package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/mcpserver"
)

// TestSeedWireShapes: what an AI client written against seed 001 reads over MCP — the names it
// expects are there, next to Strata's own (additive, seed 001 §8.2).
func TestSeedWireShapes(t *testing.T) {
	e := openEngine(t, t.TempDir())
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	inv := map[string]any{"capability_id": "strata:store_invoice:v1", "body": map[string]any{"invoice_number": "INV-9", "vendor_name": "Acme GmbH",
		"amount": 99, "currency": "EUR", "invoice_date": "2025-03-01"}, "provenance": map[string]any{"source_refs": []string{}, "extracted_at": "2025-03-02T00:00:00Z", "extractor_version": "test:v1"}}
	r := call(t, c, "ingest", map[string]any{"data": inv})
	if r.isError {
		t.Fatalf("ingest: %s", r.text)
	}
	payload := r.data["payload_id"].(string)
	var invoice, company string
	for _, x := range r.data["entities"].([]any) {
		m := x.(map[string]any)
		switch m["entity_type"] {
		case "invoice":
			invoice = m["entity_id"].(string)
		case "company":
			company = m["entity_id"].(string)
		}
	}

	// §3.8: every observation names its source record.
	r = call(t, c, "entity", map[string]any{"action": "observations", "entity_id": invoice})
	obs, _ := r.data["observations"].([]any)
	if r.isError || len(obs) == 0 {
		t.Fatalf("observations: %s", r.text)
	}
	for _, o := range obs {
		if m := o.(map[string]any); m["source_record_id"] != payload || m["source_payload_id"] != payload {
			t.Fatalf("observation without source_record_id: %v", m)
		}
	}

	// §3.9: source_record and source_observation.source_record_id, beside source_payload.
	r = call(t, c, "entity", map[string]any{"action": "provenance", "entity_id": invoice, "field": "amount"})
	rec, _ := r.data["source_record"].(map[string]any)
	so, _ := r.data["source_observation"].(map[string]any)
	if r.isError || rec == nil || rec["id"] != payload || rec["type"] != "strata:store_invoice:v1" || rec["created_at"] == nil || so["source_record_id"] != payload {
		t.Fatalf("provenance: %s", r.text)
	}
	if urls, ok := rec["file_urls"].([]any); !ok || len(urls) != 0 || r.data["source_payload"] == nil {
		t.Fatalf("file_urls must be an array, source_payload must stay: %s", r.text)
	}

	// §3.7 with at: before the first observation, last_observation_at is null, not "".
	r = call(t, c, "entity", map[string]any{"action": "get", "entity_id": invoice, "at": "2000-01-01"})
	if v, ok := r.data["last_observation_at"]; r.isError || !ok || v != nil {
		t.Fatalf("get at 2000-01-01: %s", r.text)
	}
	r = call(t, c, "entity", map[string]any{"action": "get", "entity_id": invoice})
	if v, _ := r.data["last_observation_at"].(string); r.isError || v == "" {
		t.Fatalf("get now: %s", r.text)
	}

	// §3.10–3.11: one code for an unknown relationship type, on create and on list.
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "create", "relationship_type": "LIKES", "source_entity_id": company, "target_entity_id": invoice}), "INVALID_RELATIONSHIP_TYPE")
	env := wantErr(t, call(t, c, "relationships", map[string]any{"action": "list", "entity_id": company, "relationship_type": "LIKES"}), "INVALID_RELATIONSHIP_TYPE")
	if d, _ := env["details"].(map[string]any); d["field"] != "relationship_type" {
		t.Fatalf("details: %v", env)
	}
}

// TestLimitZeroRefusedOnEveryTool: limit 0 is VALIDATION_ERROR naming limit on every tool that
// pages; omitting limit gives the default.
func TestLimitZeroRefusedOnEveryTool(t *testing.T) {
	e := openEngine(t, t.TempDir())
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	r := call(t, c, "ingest", map[string]any{"data": map[string]any{"text": "Herons nest by the river.", "tags": []string{"birds"}}})
	if r.isError {
		t.Fatal(r.text)
	}
	doc := r.data["entities"].([]any)[0].(map[string]any)["entity_id"].(string)
	calls := []struct {
		tool string
		args map[string]any
		def  float64
	}{
		{"entity", map[string]any{"action": "list"}, 100},
		{"entity", map[string]any{"action": "observations", "entity_id": doc}, 100},
		{"relationships", map[string]any{"action": "list", "entity_id": doc}, 100},
		{"search", map[string]any{"query": "heron"}, 0},
		{"knowledge", map[string]any{"action": "lint"}, 100},
	}
	for _, k := range calls {
		if r := call(t, c, k.tool, k.args); r.isError || (k.def > 0 && r.data["limit"] != k.def) {
			t.Fatalf("%s %v without limit: %s", k.tool, k.args, r.text)
		}
		for _, bad := range []any{0, -1} {
			args := map[string]any{"limit": bad}
			for key, v := range k.args {
				args[key] = v
			}
			env := wantErr(t, call(t, c, k.tool, args), "VALIDATION_ERROR")
			if d, _ := env["details"].(map[string]any); d["field"] != "limit" {
				t.Fatalf("%s limit %v: %v", k.tool, bad, env)
			}
		}
	}
}

// TestIndexStatusListsInputKinds: discovery through index_status, pinned by a golden file so
// that a change to what Strata accepts is deliberate (go test ./backend/mcpserver -run InputKinds -update).
func TestIndexStatusListsInputKinds(t *testing.T) {
	e := openEngine(t, t.TempDir())
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	r := call(t, c, "index_status", nil)
	kinds, _ := r.data["input_kinds"].([]any)
	if r.isError || len(kinds) == 0 {
		t.Fatalf("index_status: %s", r.text)
	}
	// spec_file names where the specs were loaded from; keep the golden free of machine paths.
	for _, k := range kinds {
		m := k.(map[string]any)
		if f, ok := m["spec_file"].(string); ok {
			m["spec_file"] = f[strings.Index(f, "/")+1:]
		}
	}
	checkGolden(t, "input_kinds.golden.json", kinds, "index_status input_kinds changed; if deliberate, run go test ./backend/mcpserver -run InputKinds -update")
}
