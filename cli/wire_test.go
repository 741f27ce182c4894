package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeedWireShapesOnTheCLI: `--json` output carries seed 001's names too, and the CLI applies
// the same page-size rule and relationship-type code as MCP and HTTP.
func TestSeedWireShapesOnTheCLI(t *testing.T) {
	dir := t.TempDir()
	r := strata(t, dir, `{"text": "# Herons\n\nHerons nest by the river."}`, "ingest", "--json", "-")
	var res struct {
		PayloadID string   `json:"payload_id"`
		EntityIDs []string `json:"entity_ids"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.out), &res) != nil || len(res.EntityIDs) == 0 {
		t.Fatalf("ingest: %+v", r)
	}
	doc := res.EntityIDs[0]

	var obs struct {
		Observations []map[string]any `json:"observations"`
	}
	r = strata(t, dir, "", "--json", "entity", "observations", doc)
	if json.Unmarshal([]byte(r.out), &obs) != nil || len(obs.Observations) == 0 || obs.Observations[0]["source_record_id"] != res.PayloadID {
		t.Fatalf("observations: %+v", r)
	}
	var prov struct {
		SourceRecord      map[string]any `json:"source_record"`
		SourceObservation map[string]any `json:"source_observation"`
	}
	r = strata(t, dir, "", "--json", "entity", "provenance", doc, "title")
	if json.Unmarshal([]byte(r.out), &prov) != nil || prov.SourceRecord["id"] != res.PayloadID || prov.SourceObservation["source_record_id"] != res.PayloadID {
		t.Fatalf("provenance: %+v", r)
	}
	var snap map[string]any
	r = strata(t, dir, "", "--json", "entity", "get", doc, "--at", "2000-01-01")
	if json.Unmarshal([]byte(r.out), &snap) != nil || snap["last_observation_at"] != nil || !strings.Contains(r.out, `"last_observation_at": null`) {
		t.Fatalf("get --at before anything: %+v", r)
	}
	if r = strata(t, dir, "", "entity", "get", doc, "--at", "2000-01-01"); r.code != 0 || !strings.Contains(r.out, "0 observation(s), last never") {
		t.Fatalf("get --at, text: %+v", r)
	}

	envelope := func(r run) (code string, details map[string]any) {
		var env struct {
			Error struct {
				Code    string         `json:"code"`
				Details map[string]any `json:"details"`
			} `json:"error"`
		}
		json.Unmarshal([]byte(r.err), &env)
		return env.Error.Code, env.Error.Details
	}
	r = strata(t, dir, "", "--json", "rel", "list", doc, "--type", "LIKES")
	if code, d := envelope(r); r.code != 1 || code != "INVALID_RELATIONSHIP_TYPE" || d["field"] != "relationship_type" {
		t.Fatalf("rel list --type LIKES: %+v", r)
	}
	for _, args := range [][]string{
		{"entity", "list"}, {"entity", "observations", doc}, {"rel", "list", doc}, {"documents"}, {"search", "heron"},
	} {
		if r := strata(t, dir, "", append([]string{"--json"}, args...)...); r.code != 0 {
			t.Fatalf("%v with the default limit: %+v", args, r)
		}
		for _, bad := range []string{"0", "-2"} {
			r := strata(t, dir, "", append([]string{"--json"}, append(args, "--limit", bad)...)...)
			if code, d := envelope(r); r.code != 1 || code != "VALIDATION_ERROR" || d["field"] != "limit" || r.out != "" {
				t.Fatalf("%v --limit %s: %+v", args, bad, r)
			}
		}
	}
}

// TestStatusListsInputKinds: `strata status` shows every input kind, text and --json alike.
func TestStatusListsInputKinds(t *testing.T) {
	dir := t.TempDir()
	r := strata(t, dir, "", "--json", "status")
	var st struct {
		Capabilities []string `json:"capabilities"`
		InputKinds   []struct {
			ID             string   `json:"id"`
			Kind           string   `json:"kind"`
			RequiredFields []string `json:"required_fields"`
		} `json:"input_kinds"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.out), &st) != nil || len(st.InputKinds) < 3+len(st.Capabilities) {
		t.Fatalf("status --json: %+v", r)
	}
	text := strata(t, dir, "", "status")
	for _, k := range st.InputKinds {
		if !strings.Contains(text.out, k.ID+"  ") {
			t.Errorf("status text lacks input kind %s:\n%s", k.ID, text.out)
		}
	}
	if !strings.Contains(text.out, "input kinds    content  {text | annotation}") ||
		!strings.Contains(text.out, "strata:semantic:invoice:v1  semantic: invoice documents → strata:store_invoice:v1; body needs {invoice_number, vendor_name}") {
		t.Fatalf("status text:\n%s", text.out)
	}
}

// TestBrokenUserSpecNamesFileAndLine: a spec in the data folder with an error stops the command
// with SPEC_INVALID naming file:line, before anything is read or written.
func TestBrokenUserSpecNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "specs", "entities"), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "specs", "entities", "gadget.yaml")
	if err := os.WriteFile(bad, []byte("type: gadget\nfields:\n  colour:\n    merge: newest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := strata(t, dir, "", "status")
	if r.code != 1 || !strings.Contains(r.err, "SPEC_INVALID") || !strings.Contains(r.err, bad+":4: fields.colour.merge") {
		t.Fatalf("broken spec: %+v", r)
	}
}
