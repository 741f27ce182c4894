package engine_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
)

// wireJSON is v as a client reads it: decoded from its JSON, not from the Go struct, so a test
// sees null, missing keys and names exactly as they go over MCP, HTTP and `--json`.
func wireJSON(t testing.TB, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestObservationsCarrySourceRecordID: seed 001 §3.8 names the payload an observation came from
// source_record_id; Strata's own name source_payload_id stays (additive, §8.2).
func TestObservationsCarrySourceRecordID(t *testing.T) {
	e := open(t, withSpecs(policySpecs))
	a := ingest(t, e, "", gadget("t:high:v1", "2025-01-10T00:00:00Z", map[string]any{"trusted": "x"}))
	page, err := e.ListObservations(context.Background(), a.EntityIDs[0], 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	obs := wireJSON(t, page)["observations"].([]any)
	if len(obs) != 1 {
		t.Fatalf("observations: %v", obs)
	}
	o := obs[0].(map[string]any)
	if o["source_record_id"] != a.PayloadID || o["source_payload_id"] != a.PayloadID {
		t.Fatalf("observation wire shape: %v (payload %s)", o, a.PayloadID)
	}
}

// TestFieldProvenanceSourceRecord: seed 001 §3.9's source_record {id, type, file_urls,
// created_at} and source_observation.source_record_id, next to Strata's own fields.
func TestFieldProvenanceSourceRecord(t *testing.T) {
	e := open(t, withSpecs(policySpecs))
	ctx := context.Background()

	// A payload: type is its capability, no file.
	a := ingest(t, e, "", gadget("t:high:v1", "2025-01-10T00:00:00Z", map[string]any{"trusted": "x"}))
	p, err := e.FieldProvenance(ctx, a.EntityIDs[0], "trusted")
	if err != nil {
		t.Fatal(err)
	}
	w := wireJSON(t, p)
	rec, _ := w["source_record"].(map[string]any)
	so, _ := w["source_observation"].(map[string]any)
	if rec == nil || rec["id"] != a.PayloadID || rec["type"] != "t:high:v1" || rec["created_at"] == "" || rec["created_at"] == nil {
		t.Fatalf("source_record: %v", w["source_record"])
	}
	if urls, ok := rec["file_urls"].([]any); !ok || len(urls) != 0 {
		t.Fatalf("file_urls must be an empty array for a payload, got %#v", rec["file_urls"])
	}
	if so["source_record_id"] != a.PayloadID || so["source_payload_id"] != a.PayloadID {
		t.Fatalf("source_observation: %v", so)
	}
	if _, ok := w["source_payload"]; !ok {
		t.Fatal("source_payload must stay (additive change)")
	}

	// A file: type is the payload's kind and file_urls names the file.
	path := write(t, filepath.Join(t.TempDir(), "plan.md"), note)
	res := ingestFile(t, e, path)
	settle(t, e, res.DocumentID)
	fp, err := e.FieldProvenance(ctx, res.EntityIDs[0], "title")
	if err != nil {
		t.Fatal(err)
	}
	fr := wireJSON(t, fp)["source_record"].(map[string]any)
	urls, _ := fr["file_urls"].([]any)
	if fr["id"] != fp.SourcePayload.PayloadID || fr["type"] != fp.SourcePayload.Kind || len(urls) != 1 ||
		urls[0] != "file://"+filepath.ToSlash(path) {
		t.Fatalf("file source_record: %v (path %s)", fr, path)
	}
}

// TestSnapshotBeforeFirstObservation: `at` before anything was observed is an empty snapshot
// whose last_observation_at is JSON null, never "" (which no client parses as a time).
func TestSnapshotBeforeFirstObservation(t *testing.T) {
	e := open(t, withSpecs(policySpecs))
	ctx := context.Background()
	a := ingest(t, e, "", gadget("t:high:v1", "2025-01-10T00:00:00Z", map[string]any{"trusted": "x"}))
	id := a.EntityIDs[0]
	before, err := e.GetEntity(ctx, id, "2024-12-31")
	if err != nil {
		t.Fatal(err)
	}
	w := wireJSON(t, before)
	if v, ok := w["last_observation_at"]; !ok || v != nil || w["observation_count"] != float64(0) {
		t.Fatalf("before the first observation: last_observation_at %#v (present %v), count %v", v, ok, w["observation_count"])
	}
	after, err := e.GetEntity(ctx, id, "2025-01-11")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := wireJSON(t, after)["last_observation_at"].(string); !strings.HasPrefix(v, "2025-01-10") {
		t.Fatalf("after the first observation: last_observation_at %q", v)
	}
	now, err := e.GetEntity(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := wireJSON(t, now)["last_observation_at"].(string); !strings.HasPrefix(v, "2025-01-10") {
		t.Fatalf("current snapshot: last_observation_at %q", v)
	}
}

// TestUnknownRelationshipTypeSameCodeEverywhere: create and list answer one code for one mistake.
func TestUnknownRelationshipTypeSameCodeEverywhere(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	a := ingest(t, e, "", map[string]any{"text": "a"}).EntityIDs[0]
	b := ingest(t, e, "", map[string]any{"text": "b"}).EntityIDs[0]
	_, err := e.CreateRelationship(ctx, "LIKES", a, b, nil)
	wantCode(t, err, errs.InvalidRelationshipType)
	_, err = e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: a, Direction: "both", Type: "LIKES", Derived: assertedOnly})
	ee := wantCode(t, err, errs.InvalidRelationshipType)
	if ee.Details["field"] != "relationship_type" {
		t.Fatalf("details should name the field: %v", ee.Details)
	}
}

// TestPageLimitRule: the page-size rule of limit.go. A JSON limit (MCP, HTTP, the desktop app's
// request objects) of 0 or below is refused naming `limit`; omitted or null is the default.
func TestPageLimitRule(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	for _, raw := range []string{`{"query": "x", "limit": 0}`, `{"query": "x", "limit": -3}`} {
		var r engine.SearchRequest
		ee := wantCode(t, json.Unmarshal([]byte(raw), &r), errs.Validation)
		if ee.Details["field"] != "limit" {
			t.Fatalf("%s: details %v", raw, ee.Details)
		}
		var q engine.DocumentQuery
		wantCode(t, json.Unmarshal([]byte(strings.Replace(raw, `"query": "x", `, "", 1)), &q), errs.Validation)
	}
	for raw, want := range map[string]int{`{}`: 100, `{"limit": null}`: 100, `{"limit": 7}`: 7} {
		var q engine.DocumentQuery
		if err := json.Unmarshal([]byte(raw), &q); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		page, err := e.QueryDocuments(ctx, q)
		if err != nil || page.Limit != want {
			t.Fatalf("%s: limit %v, want %d (%v)", raw, page, want, err)
		}
	}
	wantCode(t, engine.CheckLimit(0), errs.Validation)
	if err := engine.CheckLimit(1); err != nil {
		t.Fatal(err)
	}
}

// TestInputKindsListEveryShape: discovery (seed 000) lists content, extract-file, the payload
// envelope, every capability with its body and bare-JSON match keys, and every semantic spec
// with the fields its capability requires — including specs a user adds.
func TestInputKindsListEveryShape(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "specs/capabilities/store_book.yaml"), "capability: me:store_book:v1\nbody: {required: [isbn], fields: {isbn: string, title: string}}\n"+
		"match: {required: [isbn]}\nentities: [{name: book, type: note, key: [isbn], label: title, fields: {title: title}}]\n")
	e := open(t, withDir(dir))
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]engine.InputKind{}
	var order []string
	for _, k := range st.InputKinds {
		byID[k.ID] = k
		order = append(order, k.ID)
	}
	if strings.Join(order[:3], ",") != "content,extract-file,payload" {
		t.Fatalf("order: %v", order)
	}
	if c := byID["content"]; strings.Join(c.RequiredOneOf, ",") != "text,annotation" {
		t.Fatalf("content: %+v", c)
	}
	if f := byID["extract-file"]; strings.Join(f.RequiredFields, ",") != "file_path" {
		t.Fatalf("extract-file: %+v", f)
	}
	for _, id := range st.Capabilities {
		k, ok := byID[id]
		if !ok || k.Kind != "payload" || k.InputKind != id || k.Body == nil {
			t.Fatalf("capability %s missing or incomplete: %+v", id, k)
		}
	}
	book := byID["me:store_book:v1"]
	if strings.Join(book.Body.Required, ",") != "isbn" || book.Body.Fields["title"] != "string" || strings.Join(book.MatchFields, ",") != "isbn" ||
		!strings.HasSuffix(book.SpecFile, "store_book.yaml") {
		t.Fatalf("user capability: %+v", book)
	}
	inv := byID["strata:semantic:invoice:v1"]
	if inv.Kind != "semantic" || inv.Capability != "strata:store_invoice:v1" || strings.Join(inv.RequiredFields, ",") != "invoice_number,vendor_name" ||
		len(inv.DocTypes) == 0 {
		t.Fatalf("semantic spec: %+v", inv)
	}
	if n := len(st.InputKinds); n != 3+len(st.Capabilities)+2 {
		t.Fatalf("%d input kinds for %d capabilities and 2 semantic specs: %v", n, len(st.Capabilities), order)
	}
	// The wire name is input_kinds, next to the fields that were there before.
	w := wireJSON(t, st)
	if _, ok := w["input_kinds"].([]any); !ok || w["capabilities"] == nil {
		t.Fatalf("status JSON: %v", w)
	}
}

// TestContentInputKindMatchesTheAdapter: the content kind's advertised fields are exactly what
// the content adapter (which refuses unknown keys) accepts, so discovery cannot promise a key
// that ingest would refuse.
func TestContentInputKindMatchesTheAdapter(t *testing.T) {
	e := open(t)
	var content engine.InputKind
	for _, k := range e.InputKinds() {
		if k.ID == "content" {
			content = k
		}
	}
	sample := map[string]any{"tags": []string{"t"}, "line_start": 1, "line_end": 2, "observed_at": "2025-01-01T00:00:00Z"}
	data := map[string]any{"text": "every advertised field at once"}
	for _, f := range content.OptionalFields {
		if v, ok := sample[f]; ok {
			data[f] = v
		} else {
			data[f] = "x"
		}
	}
	if _, err := e.Ingest(context.Background(), local, "", mustJSON(t, data)); err != nil {
		t.Fatalf("an advertised content field was refused: %v", err)
	}
	data["not_advertised"] = "x"
	_, err := e.Ingest(context.Background(), local, "content", mustJSON(t, data))
	wantCode(t, err, errs.Validation)
}
