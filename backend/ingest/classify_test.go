package ingest

import (
	"reflect"
	"testing"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	obj, err := decodeObject([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func TestClassifyPrecedence(t *testing.T) {
	reg := shippedSpecs(t)
	cases := []struct {
		name, kind, data string
		wantKind         string
		wantCapability   string
		wantSemantic     string
	}{
		{"text wins over everything", "", `{"text":"x","file_path":"/a","capability_id":"c","body":{}}`, KindContent, "", ""},
		{"annotation", "", `{"annotation":"x"}`, KindContent, "", ""},
		{"file path", "auto", `{"file_path":"/a"}`, KindExtractFile, "", ""},
		{"payload envelope", "", `{"capability_id":"c","body":{},"provenance":{}}`, KindPayload, "", ""},
		{"capability match", "", `{"transaction_id":"t1","amount":3,"date":"2025-01-01"}`, KindPayload, "strata:store_transaction:v1", ""},
		{"capability match and its semantic spec agree", "", `{"invoice_number":"A1","vendor_name":"Acme"}`, KindPayload, "strata:store_invoice:v1", "strata:semantic:invoice:v1"},
		{"semantic spec shape", "", `{"title":"Weekly","date":"2025-01-02","attendees":["Ann"]}`, KindPayload, "strata:store_meeting:v1", "strata:semantic:meeting-notes:v1"},
		{"capability match beats a less specific semantic shape", "", `{"title":"Weekly","attendees":["Ann"],"action_items":[]}`, KindPayload, "strata:store_meeting:v1", ""},
		{"explicit capability", "strata:store_note:v1", `{"x":1}`, KindPayload, "strata:store_note:v1", ""},
		{"explicit semantic spec", "strata:semantic:invoice:v1", `{"x":1}`, KindPayload, "strata:store_invoice:v1", "strata:semantic:invoice:v1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Classify(reg, c.kind, decode(t, c.data))
			if err != nil {
				t.Fatal(err)
			}
			var gotCap, gotSem string
			if r.Capability != nil {
				gotCap = r.Capability.ID
			}
			if r.Semantic != nil {
				gotSem = r.Semantic.ID
			}
			if r.Kind != c.wantKind || gotCap != c.wantCapability || gotSem != c.wantSemantic {
				t.Fatalf("route = %s %q %q, want %s %q %q", r.Kind, gotCap, gotSem, c.wantKind, c.wantCapability, c.wantSemantic)
			}
		})
	}
}

func TestClassifyRefuses(t *testing.T) {
	reg := shippedSpecs(t)
	// A title alone with an undeclared key is not a meeting: a semantic shape admits only the
	// fields its capability declares.
	e := wantCodeOf(t, reg, "", `{"title":"x","colour":"red"}`, errs.Validation)
	if _, ok := e.Details["accepted_shapes"]; !ok {
		t.Fatalf("no accepted_shapes in %+v", e.Details)
	}
	wantCodeOf(t, reg, "strata:nope:v1", `{"x":1}`, errs.UnsupportedInputKind)
}

func wantCodeOf(t *testing.T, reg *spec.Registry, kind, data, code string) *errs.Error {
	t.Helper()
	_, err := Classify(reg, kind, decode(t, data))
	return wantCode(t, err, code)
}

// Two semantic specs whose capabilities require the same number of keys, both fitting the
// input: the classifier names both instead of picking one.
func TestClassifySemanticAmbiguity(t *testing.T) {
	reg := shippedSpecs(t)
	reg.Capabilities["test:store_memo:v1"] = &spec.Capability{ID: "test:store_memo:v1",
		Body: spec.Body{Required: []string{"title"}, Fields: map[string]string{"title": "string", "date": "string"}}}
	reg.Semantics["test:semantic:memo:v1"] = &spec.Semantic{ID: "test:semantic:memo:v1", Capability: "test:store_memo:v1"}
	e := wantCodeOf(t, reg, "", `{"title":"Weekly","date":"2025-01-02"}`, errs.Validation)
	got := e.Details["candidates"]
	want := []string{"strata:semantic:meeting-notes:v1", "test:semantic:memo:v1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("candidates = %v, want %v", got, want)
	}
	// Naming the spec settles it.
	r, err := Classify(reg, "test:semantic:memo:v1", decode(t, `{"title":"Weekly"}`))
	if err != nil || r.Capability.ID != "test:store_memo:v1" {
		t.Fatalf("route %+v, %v", r, err)
	}
}

// Bare JSON routed by a semantic spec's shape is stored under that spec's capability, with the
// same entity as the full envelope would give.
func TestIngestRoutesBareJSONBySemanticShape(t *testing.T) {
	in := newIngester(t)
	res := ingestJSON(t, in, "", `{"title":"Weekly sync","date":"2025-01-02","attendees":["Ann Lee"]}`)
	if res.InputKind != KindPayload || res.CapabilityID != "strata:store_meeting:v1" || !res.Created {
		t.Fatalf("result %+v", res)
	}
	var meeting string
	for _, e := range res.Entities {
		if e.EntityType == "meeting" {
			meeting = e.EntityID
		}
	}
	if meeting == "" || !ids.ValidEntityID(meeting) {
		t.Fatalf("no meeting entity in %+v", res.Entities)
	}
}
