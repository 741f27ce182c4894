package engine_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/backend/errs"
)

func TestClassifierPrecedence(t *testing.T) {
	e := open(t)
	prov := map[string]any{"source_refs": []string{}, "extracted_at": "2025-01-15T10:30:00Z", "extractor_version": "t"}
	cases := []struct {
		name     string
		kind     string
		data     any
		wantKind string
		wantCode string
	}{
		{"text is content", "", map[string]any{"text": "hello"}, "content", ""},
		{"annotation is content", "auto", map[string]any{"annotation": "a remark"}, "content", ""},
		{"text wins over file_path", "", map[string]any{"text": "hello", "file_path": "/x"}, "", errs.Validation}, // content rejects unknown fields
		{"file_path is extract-file", "", map[string]any{"file_path": "/nonexistent/x.pdf"}, "", errs.FileNotFound},
		{"file_path wins over capability", "", map[string]any{"file_path": "/x", "capability_id": "strata:store_note:v1", "body": map[string]any{}}, "", errs.Validation},
		{"envelope is payload", "", map[string]any{"capability_id": "strata:store_note:v1", "body": map[string]any{"text": "n"}, "provenance": prov}, "payload", ""},
		{"envelope wins over spec shape", "", map[string]any{"capability_id": "strata:store_note:v1", "body": map[string]any{"text": "n2"}, "provenance": prov, "invoice_number": "1", "vendor_name": "v"}, "", errs.Validation},
		{"bare invoice routes by spec", "", map[string]any{"invoice_number": "B-1", "vendor_name": "Bare Inc"}, "payload", ""},
		{"bare transaction routes by spec", "", map[string]any{"transaction_id": "tx-1", "amount": 5, "date": "2025-02-01"}, "payload", ""},
		{"unknown shape", "", map[string]any{"hello": "world"}, "", errs.Validation},
		{"array is not an object", "", []int{1}, "", errs.Validation},
		{"explicit content", "content", map[string]any{"text": "explicit"}, "content", ""},
		{"explicit capability kind", "strata:store_note:v1", map[string]any{"text": "as a note"}, "payload", ""},
		{"explicit unknown kind", "telepathy", map[string]any{"text": "x"}, "", errs.UnsupportedInputKind},
		{"explicit extract-file", "extract-file", map[string]any{"file_path": "/nonexistent"}, "", errs.FileNotFound},
		{"file input takes no unknown fields", "", map[string]any{"file_path": "/nonexistent", "client_request_id": "r1"}, "", errs.Validation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.Ingest(context.Background(), local, c.kind, mustJSON(t, c.data))
			if c.wantCode != "" {
				wantCode(t, err, c.wantCode)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.InputKind != c.wantKind {
				t.Fatalf("kind %q, want %q", res.InputKind, c.wantKind)
			}
		})
	}
}

func TestUnknownShapeListsAcceptedShapes(t *testing.T) {
	e := open(t)
	_, err := e.Ingest(context.Background(), local, "", mustJSON(t, map[string]any{"hello": "world"}))
	ee := wantCode(t, err, errs.Validation)
	for _, want := range []string{`"text"`, `"file_path"`, `"capability_id"`, "strata:store_invoice:v1"} {
		if !strings.Contains(ee.Message, want) {
			t.Errorf("message does not list %s: %s", want, ee.Message)
		}
	}
	if ee.Hint == "" {
		t.Error("no hint")
	}
}

func TestAmbiguousSpecShape(t *testing.T) {
	e := open(t, withSpecs(fstest.MapFS{
		"capabilities/a.yaml": {Data: []byte("capability: t:a:v1\nbody: {fields: {sku: string}}\nmatch: {required: [sku]}\nentities: [{name: a, type: note, key: [sku]}]\n")},
		"capabilities/b.yaml": {Data: []byte("capability: t:b:v1\nbody: {fields: {sku: string}}\nmatch: {required: [sku]}\nentities: [{name: b, type: note, key: [sku]}]\n")},
	}))
	_, err := e.Ingest(context.Background(), local, "", mustJSON(t, map[string]any{"sku": "X"}))
	ee := wantCode(t, err, errs.Validation)
	if !strings.Contains(ee.Message, "t:a:v1") || !strings.Contains(ee.Message, "t:b:v1") {
		t.Fatalf("ambiguity not explained: %s", ee.Message)
	}
	// naming the capability resolves it
	res := ingest(t, e, "t:b:v1", map[string]any{"sku": "X"})
	if res.CapabilityID != "t:b:v1" {
		t.Fatalf("routed to %s", res.CapabilityID)
	}
}

func TestPayloadValidation(t *testing.T) {
	e := open(t)
	ok := invoice("INV-1", "Acme", 10, "2025-01-15T10:30:00Z", nil)
	mutate := func(f func(m map[string]any)) map[string]any {
		m := mustClone(ok)
		f(m)
		return m
	}
	cases := []struct {
		name, code, field string
		data              any
	}{
		{"unknown capability", errs.UnknownCapability, "", mutate(func(m map[string]any) { m["capability_id"] = "strata:store_spaceship:v1" })},
		{"missing provenance", errs.Validation, "provenance.", mutate(func(m map[string]any) { delete(m, "provenance") })},
		{"missing source_refs", errs.Validation, "provenance.source_refs", mutate(func(m map[string]any) { delete(m["provenance"].(map[string]any), "source_refs") })},
		{"bad extracted_at", errs.Validation, "provenance.extracted_at", mutate(func(m map[string]any) { m["provenance"].(map[string]any)["extracted_at"] = "yesterday" })},
		{"missing extractor_version", errs.Validation, "provenance.extractor_version", mutate(func(m map[string]any) { delete(m["provenance"].(map[string]any), "extractor_version") })},
		{"missing required body field", errs.Validation, "body.invoice_number", mutate(func(m map[string]any) { delete(m["body"].(map[string]any), "invoice_number") })},
		{"wrong type", errs.Validation, "body.amount", mutate(func(m map[string]any) { m["body"].(map[string]any)["amount"] = "lots" })},
		{"bad date", errs.Validation, "body.date", mutate(func(m map[string]any) { m["body"].(map[string]any)["date"] = "15/01/2025" })},
		{"body not object", errs.Validation, "body", mutate(func(m map[string]any) { m["body"] = []int{1} })},
		{"unknown envelope field", errs.Validation, "", mutate(func(m map[string]any) { m["extra"] = 1 })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.Ingest(context.Background(), local, "", mustJSON(t, c.data))
			ee := wantCode(t, err, c.code)
			if c.field != "" {
				if f, _ := ee.Details["field"].(string); !strings.HasPrefix(f, strings.TrimSuffix(c.field, ".")) {
					t.Fatalf("details.field = %q, want %q (%s)", f, c.field, ee.Message)
				}
			}
		})
	}
	if st, _ := e.Status(context.Background()); st.Counts.Payloads != 0 || st.Counts.Submissions != 0 {
		t.Fatalf("rejected input left rows behind: %+v", st.Counts)
	}
}

func TestContentValidation(t *testing.T) {
	e := open(t)
	for name, data := range map[string]any{
		"empty text":         map[string]any{"text": "   "},
		"unknown field":      map[string]any{"text": "x", "colour": "red"},
		"lines without file": map[string]any{"text": "x", "line_start": 3},
		"reversed lines":     map[string]any{"text": "x", "file": "a.md", "line_start": 9, "line_end": 3},
		"bad observed_at":    map[string]any{"text": "x", "observed_at": "noon"},
		"tags of wrong type": map[string]any{"text": "x", "tags": "a,b"},
		"not json":           "{nope",
		"empty":              "",
		"two values":         `{"text":"a"} {"text":"b"}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.Ingest(context.Background(), local, "", mustJSON(t, data))
			wantCode(t, err, errs.Validation)
		})
	}
}

func TestDedupReturnsSamePayload(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	a := ingest(t, e, "", invoice("INV-7", "Acme Corp", 1500, "2025-01-15T10:30:00Z", map[string]any{"tags": []string{"b", "a"}}))
	if !a.Created {
		t.Fatal("first submission not created")
	}
	// Same content after normalisation: key order, number spelling, whitespace, set order,
	// and different provenance.
	b := ingest(t, e, "", `{"provenance": {"source_refs": ["x"], "extracted_at": "2025-03-01T00:00:00Z", "extractor_version": "other", "agent_id": "other-agent"},
		"body": {"tags": ["a", "b", "a"], "amount": "1,500.00", "vendor_name": "  Acme Corp ", "invoice_number": "INV-7"},
		"capability_id": "strata:store_invoice:v1"}`)
	if b.Created {
		t.Fatal("duplicate reported as created")
	}
	if a.PayloadID != b.PayloadID || a.PayloadContentID != b.PayloadContentID {
		t.Fatalf("dedup failed: %s/%s vs %s/%s", a.PayloadID, a.PayloadContentID, b.PayloadID, b.PayloadContentID)
	}
	if a.PayloadSubmissionID == b.PayloadSubmissionID || !strings.HasPrefix(b.PayloadSubmissionID, "sub_") {
		t.Fatalf("submission IDs %s, %s", a.PayloadSubmissionID, b.PayloadSubmissionID)
	}
	if strings.Join(a.EntityIDs, ",") != strings.Join(b.EntityIDs, ",") {
		t.Fatalf("entity IDs differ: %v vs %v", a.EntityIDs, b.EntityIDs)
	}
	if len(b.Entities) != 2 || b.Entities[0].EntityType != "invoice" || b.Entities[1].Name != "Acme Corp" || b.Entities[1].EntityID != b.EntityIDs[1] {
		t.Fatalf("entity refs: %+v", b.Entities)
	}
	st, _ := e.Status(ctx)
	if st.Counts.Payloads != 1 || st.Counts.Submissions != 2 || st.Counts.Observations != 2 {
		t.Fatalf("counts after duplicate: %+v", st.Counts)
	}
	inv, _ := e.GetEntity(ctx, entityOfType(t, e, a, "invoice"), "")
	if inv.ObservationCount != 1 {
		t.Fatalf("duplicate added an observation: %d", inv.ObservationCount)
	}
	// A different amount is different content.
	c := ingest(t, e, "", invoice("INV-7", "Acme Corp", 1501, "2025-01-15T10:30:00Z", nil))
	if !c.Created || c.PayloadID == a.PayloadID {
		t.Fatal("different content deduplicated")
	}
}

func TestContentDedupAndClientRequestID(t *testing.T) {
	e := open(t)
	a := ingest(t, e, "", map[string]any{"text": "Meeting notes: ship on Friday", "tags": []string{"release"}, "source": "a", "client_request_id": "req-1"})
	retry := ingest(t, e, "", map[string]any{"text": "Meeting notes: ship on Friday", "tags": []string{"release"}, "source": "a", "client_request_id": "req-1"})
	if retry.PayloadSubmissionID != a.PayloadSubmissionID || !retry.Created {
		t.Fatalf("a retry with the same client_request_id must return the first answer: %+v vs %+v", retry, a)
	}
	other := ingest(t, e, "", map[string]any{"text": "Meeting notes: ship on Friday", "tags": []string{"release"}, "source": "b"})
	if other.Created || other.PayloadID != a.PayloadID || other.DocumentID != a.DocumentID {
		t.Fatalf("same text from another source must dedup: %+v", other)
	}
	_, err := e.Ingest(context.Background(), local, "", mustJSON(t, map[string]any{"text": "something else", "client_request_id": "req-1"}))
	wantCode(t, err, errs.Validation)
}

func mustClone(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = mustClone(sub)
		}
		out[k] = v
	}
	return out
}
