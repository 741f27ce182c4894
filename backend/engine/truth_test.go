package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
)

// policySpecs declares a "gadget" type with one field per merge policy and two capabilities
// that observe it with different source priorities.
var policySpecs = fstest.MapFS{
	"entities/gadget.yaml": {Data: []byte(`type: gadget
schema_version: "2.0"
fields:
  latest: {merge: latest}
  trusted: {merge: highest_priority}
  detailed: {merge: most_specific}
  labels: {merge: union}
`)},
	"capabilities/low.yaml":  {Data: gadgetCapability("low", 10)},
	"capabilities/high.yaml": {Data: gadgetCapability("high", 90)},
}

func gadgetCapability(name string, priority int) []byte {
	return []byte(fmt.Sprintf(`capability: t:%s:v1
source_priority: %d
body:
  required: [sku]
  fields: {sku: string, latest: string, trusted: string, detailed: string, labels: set, extra: string}
entities:
  - name: g
    type: gadget
    key: [sku]
    fields: {latest: latest, trusted: trusted, detailed: detailed, labels: labels, extra: extra}
`, name, priority))
}

func gadget(capability, at string, body map[string]any) map[string]any {
	body["sku"] = "G-1"
	return map[string]any{"capability_id": capability, "body": body,
		"provenance": map[string]any{"source_refs": []string{}, "extracted_at": at, "extractor_version": "t"}}
}

func TestMergePoliciesAndAt(t *testing.T) {
	e := open(t, withSpecs(policySpecs))
	ctx := context.Background()
	// 1. high-priority, detailed source in January
	a := ingest(t, e, "", gadget("t:high:v1", "2025-01-10T00:00:00Z", map[string]any{
		"latest": "jan", "trusted": "from-high", "detailed": "rich", "labels": []string{"red", "big"}, "extra": "e1"}))
	id := a.EntityIDs[0]
	// 2. low-priority, sparse source in March
	ingest(t, e, "", gadget("t:low:v1", "2025-03-10T00:00:00Z", map[string]any{
		"latest": "mar", "trusted": "from-low", "labels": []string{"blue", "red"}}))
	// 3. low-priority, complete source in February (arrives last, observed in between)
	ingest(t, e, "", gadget("t:low:v1", "2025-02-10T00:00:00Z", map[string]any{
		"latest": "feb", "trusted": "from-low-2", "detailed": "richest", "labels": []string{"green"}, "extra": "e3"}))

	s, err := e.GetEntity(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"latest":   `"mar"`,                        // latest observed_at, not latest arrival
		"trusted":  `"from-high"`,                  // highest source_priority
		"detailed": `"rich"`,                       // equal specificity (all 5 fields): falls back to latest observed... see below
		"labels":   `["big","blue","green","red"]`, // union, sorted, distinct
		"extra":    `"e3"`,                         // undeclared field: default policy (latest)
	}
	// "detailed": observation 1 has 5/5 fields, observation 3 has 5/5 too, observation 2 has
	// 3/5: most_specific ties at 1.0 and falls back to the later observed_at (February).
	want["detailed"] = `"richest"`
	for f, v := range want {
		if got := field(t, s, f); got != v {
			t.Errorf("%s = %s, want %s", f, got, v)
		}
	}
	if s.ObservationCount != 3 || s.LastObservationAt == nil || !strings.HasPrefix(*s.LastObservationAt, "2025-03-10") || s.SchemaVersion != "2.0" {
		t.Errorf("count %d last %v schema %s", s.ObservationCount, s.LastObservationAt, s.SchemaVersion)
	}

	// The snapshot as of mid-February excludes the March observation.
	feb, err := e.GetEntity(ctx, id, "2025-02-15T00:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	if got := field(t, feb, "latest"); got != `"feb"` {
		t.Errorf("at Feb 15: latest = %s", got)
	}
	if got := field(t, feb, "labels"); got != `["big","green","red"]` {
		t.Errorf("at Feb 15: labels = %s", got)
	}
	if feb.ObservationCount != 2 || feb.At == "" {
		t.Errorf("at Feb 15: count %d at %q", feb.ObservationCount, feb.At)
	}
	// Before anything was observed: an empty snapshot, not an error.
	before, err := e.GetEntity(ctx, id, "2024-12-31")
	if err != nil || before.ObservationCount != 0 || len(before.Snapshot) != 0 {
		t.Fatalf("before first observation: %+v %v", before, err)
	}
	// A date-only `at` means the end of that day.
	jan10, _ := e.GetEntity(ctx, id, "2025-01-10")
	if jan10.ObservationCount != 1 {
		t.Errorf("at 2025-01-10: count %d", jan10.ObservationCount)
	}
	// The materialised snapshot equals a full recompute "as of" the far future.
	all, _ := e.GetEntity(ctx, id, "2999-01-01T00:00:00Z")
	if !reflect.DeepEqual(all.Snapshot, s.Snapshot) || !reflect.DeepEqual(all.Provenance, s.Provenance) {
		t.Errorf("incremental snapshot differs from recompute:\n%v\n%v", s.Snapshot, all.Snapshot)
	}
	_, err = e.GetEntity(ctx, id, "last tuesday")
	wantCode(t, err, errs.Validation)
}

func TestFieldProvenance(t *testing.T) {
	e := open(t, withSpecs(policySpecs))
	ctx := context.Background()
	a := ingest(t, e, "", gadget("t:high:v1", "2025-01-10T00:00:00Z", map[string]any{"trusted": "from-high", "labels": []string{"x"}}))
	b := ingest(t, e, "", gadget("t:low:v1", "2025-03-10T00:00:00Z", map[string]any{"trusted": "from-low", "labels": []string{"y"}}))
	id := a.EntityIDs[0]
	p, err := e.FieldProvenance(ctx, id, "trusted")
	if err != nil {
		t.Fatal(err)
	}
	if string(p.Value) != `"from-high"` || p.MergePolicy != "highest_priority" || p.SourcePayload.PayloadID != a.PayloadID ||
		p.SourceObservation.SourcePriority != 90 || p.SourcePayload.CapabilityID != "t:high:v1" {
		t.Fatalf("provenance: %+v", p)
	}
	if len(p.Candidates) != 2 || !p.Candidates[0].Chosen || p.Candidates[1].Chosen || string(p.Candidates[1].Value) != `"from-low"` {
		t.Fatalf("candidates: %+v", p.Candidates)
	}
	u, err := e.FieldProvenance(ctx, id, "labels")
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Contributors) != 2 || u.SourcePayload.PayloadID != b.PayloadID {
		t.Fatalf("union provenance: %+v", u)
	}
	_, err = e.FieldProvenance(ctx, id, "colour")
	ee := wantCode(t, err, errs.FieldNotFound)
	if !strings.Contains(ee.Hint, "trusted") {
		t.Errorf("hint should list the fields: %s", ee.Hint)
	}
	_, err = e.FieldProvenance(ctx, id, "")
	wantCode(t, err, errs.Validation)
}

func TestContentProvenanceReachesDocument(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	res := ingest(t, e, "", map[string]any{"text": "# Roadmap\n\nShip search in May.", "file": "notes/roadmap.md", "line_start": 3, "line_end": 3,
		"agent_id": "claude", "source": "trellis", "tags": []string{"planning"}})
	doc := res.EntityIDs[0]
	p, err := e.FieldProvenance(ctx, doc, "title")
	if err != nil {
		t.Fatal(err)
	}
	if p.SourceDocument == nil || p.SourceDocument.DocumentID != res.DocumentID || p.SourceDocument.Title != "Roadmap" {
		t.Fatalf("document provenance: %+v", p.SourceDocument)
	}
	var origin map[string]any
	json.Unmarshal(p.SourcePayload.Origin, &origin)
	if origin["agent_id"] != "claude" || origin["source"] != "trellis" {
		t.Fatalf("origin: %v", origin)
	}
	if !strings.Contains(string(p.SourceObservation.Span), `"line_start":3`) {
		t.Fatalf("span: %s", p.SourceObservation.Span)
	}
	// The tag becomes a concept once the TagConceptBridger enrichment ran: a derived link.
	waitEnriched(t, e)
	// (The heading "# Roadmap" names no concept: the text under it never says "roadmap".)
	if refs := linksOfType(t, e, "REFERS_TO"); len(refs) != 1 || refs[0] != "Roadmap → planning (1.000)" {
		t.Fatalf("tag → concept: %v", refs)
	}
}

func TestRelationshipsAndCycles(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	var ids []string
	for i := 0; i < 4; i++ {
		ids = append(ids, ingest(t, e, "", map[string]any{"text": fmt.Sprintf("part %d", i)}).EntityIDs[0])
	}
	a, b, c, d := ids[0], ids[1], ids[2], ids[3]
	r1, err := e.CreateRelationship(ctx, "PART_OF", a, b, json.RawMessage(`{"note": "chapter"}`))
	if err != nil || !r1.Created || !strings.HasPrefix(r1.ID, "rel_") {
		t.Fatalf("create: %+v %v", r1, err)
	}
	again, err := e.CreateRelationship(ctx, "PART_OF", a, b, nil)
	if err != nil || again.Created || again.ID != r1.ID || string(again.Metadata) != `{"note":"chapter"}` {
		t.Fatalf("same relationship twice must return the first: %+v %v", again, err)
	}
	if _, err := e.CreateRelationship(ctx, "PART_OF", b, c, nil); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"PART_OF", "DEPENDS_ON", "SUPERSEDES"} {
		if typ != "PART_OF" {
			e.CreateRelationship(ctx, typ, a, b, nil)
			e.CreateRelationship(ctx, typ, b, c, nil)
		}
		_, err = e.CreateRelationship(ctx, typ, c, a, nil)
		wantCode(t, err, errs.CycleDetected)
		_, err = e.CreateRelationship(ctx, typ, d, d, nil)
		wantCode(t, err, errs.CycleDetected)
	}
	// Other types may loop.
	if _, err := e.CreateRelationship(ctx, "REFERS_TO", c, a, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.CreateRelationship(ctx, "REFERS_TO", a, c, nil); err != nil {
		t.Fatal(err)
	}
	_, err = e.CreateRelationship(ctx, "LIKES", a, b, nil)
	wantCode(t, err, errs.InvalidRelationshipType)
	_, err = e.CreateRelationship(ctx, "REFERS_TO", a, "ent_000000000000000000000000", nil)
	wantCode(t, err, errs.EntityNotFound)
	_, err = e.CreateRelationship(ctx, "REFERS_TO", "bogus", a, nil)
	wantCode(t, err, errs.Validation)
	_, err = e.CreateRelationship(ctx, "REFERS_TO", a, b, json.RawMessage(`[1]`))
	wantCode(t, err, errs.Validation)

	out, err := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: a, Direction: "outbound", Derived: assertedOnly})
	if err != nil {
		t.Fatal(err)
	}
	if out.Total != 4 || out.Limit != 100 { // PART_OF, DEPENDS_ON, SUPERSEDES a→b and REFERS_TO a→c
		t.Fatalf("outbound of a: %+v", out)
	}
	in, _ := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: a, Direction: "inbound", Derived: assertedOnly})
	both, _ := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: a, Direction: "both", Derived: assertedOnly})
	if both.Total != out.Total+in.Total {
		t.Fatalf("both %d != outbound %d + inbound %d", both.Total, out.Total, in.Total)
	}
	for _, r := range out.Relationships {
		if r.SourceEntityID != a {
			t.Fatalf("outbound list has %+v", r)
		}
	}
	typed, _ := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: a, Direction: "both", Type: "REFERS_TO", Derived: assertedOnly})
	if typed.Total != 2 {
		t.Fatalf("REFERS_TO of a: %d", typed.Total)
	}
	page, _ := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: a, Direction: "both", Limit: 2, Offset: 1, Derived: assertedOnly})
	if len(page.Relationships) != 2 || page.Relationships[0].ID != both.Relationships[1].ID {
		t.Fatalf("paging: %+v vs %+v", page.Relationships, both.Relationships)
	}
	for i := 1; i < len(both.Relationships); i++ {
		p, q := both.Relationships[i-1], both.Relationships[i]
		if p.CreatedAt < q.CreatedAt || (p.CreatedAt == q.CreatedAt && p.ID > q.ID) {
			t.Fatalf("not newest first, ties by ID: %v then %v", p, q)
		}
	}
	_, err = e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: a, Direction: "sideways", Derived: assertedOnly})
	wantCode(t, err, errs.Validation)
	_, err = e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: a, Direction: "both", Type: "LIKES", Derived: assertedOnly})
	wantCode(t, err, errs.InvalidRelationshipType)
	_, err = e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: "ent_000000000000000000000000", Derived: assertedOnly})
	wantCode(t, err, errs.EntityNotFound)
}

func TestSpecDerivedCycleRollsBackWholeSubmission(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	contract := func(id, supersedes string) map[string]any {
		return map[string]any{"capability_id": "strata:store_contract:v1",
			"body":       map[string]any{"contract_id": id, "title": "Lease " + id, "parties": []string{"Acme", "Bob"}, "supersedes_contract_id": supersedes},
			"provenance": map[string]any{"source_refs": []string{}, "extracted_at": "2025-01-01T00:00:00Z", "extractor_version": "t"}}
	}
	ingest(t, e, "", contract("C-2", "C-1"))
	before, _ := e.Status(ctx)
	_, err := e.Ingest(ctx, local, "", mustJSON(t, contract("C-1", "C-2")))
	wantCode(t, err, errs.CycleDetected)
	after, _ := e.Status(ctx)
	if !reflect.DeepEqual(before.Counts, after.Counts) {
		t.Fatalf("a failed ingest left rows behind:\n%+v\n%+v", before.Counts, after.Counts)
	}
}

func TestListsAreBoundedAndPaged(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	for i := 0; i < 12; i++ {
		ingest(t, e, "", map[string]any{"text": fmt.Sprintf("note %d", i), "tags": []string{fmt.Sprintf("t%d", i%3)}})
	}
	waitEnriched(t, e)                                         // the tags' concepts are made by the TagConceptBridger enrichment
	all, err := e.ListEntities(ctx, engine.AllTypes, "", 0, 0) // the default leaves out the 12 documents
	if err != nil || all.Total != 15 || all.Limit != 100 {
		t.Fatalf("list: total %d limit %d %v", all.Total, all.Limit, err)
	}
	for i := 1; i < len(all.Entities); i++ {
		if all.Entities[i-1].EntityID >= all.Entities[i].EntityID {
			t.Fatal("entities not in ID order")
		}
	}
	concepts, _ := e.ListEntities(ctx, "concept", "", 2, 1)
	if concepts.Total != 3 || len(concepts.Entities) != 2 || concepts.Entities[0].EntityType != "concept" {
		t.Fatalf("typed page: %+v", concepts)
	}
	named, _ := e.ListEntities(ctx, "", "T1", 0, 0)
	if named.Total != 1 || named.Entities[0].CanonicalName != "t1" {
		t.Fatalf("query: %+v", named)
	}
	for _, bad := range [][2]int{{1001, 0}, {-1, 0}, {10, -1}} {
		_, err := e.ListEntities(ctx, "", "", bad[0], bad[1])
		wantCode(t, err, errs.Validation)
		_, err = e.ListObservations(ctx, all.Entities[0].EntityID, bad[0], bad[1])
		wantCode(t, err, errs.Validation)
	}
	doc := all.Entities[0].EntityID
	obs, err := e.ListObservations(ctx, doc, 1, 0)
	if err != nil || obs.Total < 1 || len(obs.Observations) != 1 {
		t.Fatalf("observations: %+v %v", obs, err)
	}
}

func TestEntityNotFoundAndBadIDs(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	missing := "ent_0123456789abcdef01234567"
	_, err := e.GetEntity(ctx, missing, "")
	wantCode(t, err, errs.EntityNotFound)
	_, err = e.ListObservations(ctx, missing, 0, 0)
	wantCode(t, err, errs.EntityNotFound)
	_, err = e.FieldProvenance(ctx, missing, "name")
	wantCode(t, err, errs.EntityNotFound)
	for _, bad := range []string{"", "ent_", "ent_XYZ", "obs_0123456789abcdef01234567", "ent_0123456789abcdef0123456"} {
		_, err = e.GetEntity(ctx, bad, "")
		wantCode(t, err, errs.Validation)
	}
}

func TestDatabaseFailuresAreEnvelopes(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	res := ingest(t, e, "", map[string]any{"text": "before the disk went away"})
	e.Close()
	_, err := e.Ingest(ctx, local, "", mustJSON(t, map[string]any{"text": "after"}))
	wantCode(t, err, errs.DBInsertFailed)
	_, err = e.GetEntity(ctx, res.EntityIDs[0], "")
	wantCode(t, err, errs.DBQueryFailed)
	_, err = e.CreateRelationship(ctx, "REFERS_TO", res.EntityIDs[0], res.EntityIDs[0], nil)
	wantCode(t, err, errs.DBInsertFailed)
	_, err = e.Status(ctx)
	wantCode(t, err, errs.DBQueryFailed)
}

func TestBrokenSpecNamesFileAndField(t *testing.T) {
	cases := map[string]struct {
		fs          fstest.MapFS
		file, field string
		line        int
	}{
		"bad merge policy": {fstest.MapFS{"entities/x.yaml": {Data: []byte("type: x\nfields: {a: {merge: newest}}\n")}}, "test/entities/x.yaml", "fields.a.merge", 2},
		"unknown yaml key": {fstest.MapFS{"entities/x.yaml": {Data: []byte("type: x\nmerge_default: latest\n")}}, "test/entities/x.yaml", "", 2},
		"unknown entity type": {fstest.MapFS{"capabilities/c.yaml": {Data: []byte(
			"capability: t:c:v1\nbody: {fields: {a: string}}\nentities: [{name: e, type: compnay, key: [a]}]\n")}}, "test/capabilities/c.yaml", "entities[0].type", 3},
		"reference to undeclared field": {fstest.MapFS{"capabilities/c.yaml": {Data: []byte(
			"capability: t:c:v1\nbody: {fields: {a: string}}\nentities: [{name: e, type: note, key: [b]}]\n")}}, "test/capabilities/c.yaml", "entities[0]", 3},
		"bad relationship rule": {fstest.MapFS{"capabilities/c.yaml": {Data: []byte(
			"capability: t:c:v1\nbody: {fields: {a: string}}\nentities: [{name: e, type: note, key: [a]}]\nrelationships: [{type: LOVES, from: e, to: e}]\n")}}, "test/capabilities/c.yaml", "relationships[0].type", 4},
		"bad capability id": {fstest.MapFS{"capabilities/c.yaml": {Data: []byte(
			"capability: store_it\nbody: {fields: {a: string}}\nentities: [{name: e, type: note, key: [a]}]\n")}}, "test/capabilities/c.yaml", "capability", 1},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := config(t.TempDir())
			withSpecs(c.fs)(&cfg)
			_, err := engine.Open(context.Background(), cfg)
			ee := wantCode(t, err, errs.SpecInvalid)
			if ee.Details["file"] != c.file || !strings.HasPrefix(ee.Message, fmt.Sprintf("%s:%d: ", c.file, c.line)) || ee.Details["line"] != c.line {
				t.Fatalf("file:line %s:%d not named: %+v", c.file, c.line, ee)
			}
			if c.field != "" && (ee.Details["field"] != c.field || !strings.Contains(ee.Message, c.field)) {
				t.Fatalf("field not named: %+v", ee)
			}
		})
	}
}

func TestUserSpecsInDataFolderOverride(t *testing.T) {
	dir := t.TempDir()
	e := open(t, withDir(dir))
	e.Close()
	mkfile(t, dir+"/specs/capabilities/store_book.yaml", "capability: me:store_book:v1\nbody: {required: [isbn], fields: {isbn: string, title: string}}\n"+
		"match: {required: [isbn]}\nentities: [{name: book, type: note, key: [isbn], label: title, fields: {title: title}}]\n")
	e2, err := engine.Open(context.Background(), config(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	res := ingest(t, e2, "", map[string]any{"isbn": "978-0", "title": "Dune"})
	if res.CapabilityID != "me:store_book:v1" {
		t.Fatalf("user spec not used: %+v", res)
	}
}

var _ = engine.Version
