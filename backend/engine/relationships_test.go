package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/search/quality"
	"github.com/strata-app/strata/backend/store"
)

// assertedOnly lists only what sources asserted: the tests of asserted relationships keep their
// meaning when the enrichments derive links between the same entities.
var assertedOnly = new(bool)

var derivedOnly = func() *bool { b := true; return &b }()

// noEnrichments switches every enrichment off, so the only derived links are those a test
// writes itself.
var noEnrichments = withSpecs(fstest.MapFS{"enrichments.yaml": {Data: []byte(`enrichments:
  TagConceptBridger: {enabled: false}
  CoOccurrence: {enabled: false}
  EmbeddingSimilarity: {enabled: false}
  DiscoveryGap: {enabled: false}
  TemporalProximity: {enabled: false}
`)}})

// linkFixture is three real documents, two asserted links and four derived ones around the
// first document's entity.
type linkFixture struct {
	e     *engine.Engine
	docs  []string // document IDs, in the order of paths
	ents  []string // their entities
	paths []string
}

func newLinkFixture(t *testing.T) *linkFixture {
	t.Helper()
	ctx := context.Background()
	e := open(t, noEnrichments)
	f := &linkFixture{e: e}
	for _, p := range []string{"nodejs-dns.md", "man-curl.txt", "license-bsd.txt"} {
		f.paths = append(f.paths, filepath.Join(quality.CorpusDir(), p))
	}
	f.docs = ingestEnriched(t, e, f.paths...)
	for _, id := range f.docs {
		d, err := e.GetDocumentRow(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		f.ents = append(f.ents, d.EntityID)
	}
	a, b, c := f.ents[0], f.ents[1], f.ents[2]
	if _, err := e.CreateRelationship(ctx, "REFERS_TO", a, b, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.CreateRelationship(ctx, "RELATED_TO", c, a, json.RawMessage(`{"why":"test"}`)); err != nil {
		t.Fatal(err)
	}
	ev := func(doc string) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`[{"kind":"document","id":%q,"document_id":%q}]`, doc, doc))
	}
	write := func(enrichment string, links ...store.DerivedLink) {
		err := e.DB().WriteTx(ctx, func(tx *store.Tx) error {
			for i := range links {
				links[i].Enrichment, links[i].Version = enrichment, "1"
			}
			_, err := store.ReplaceDerived(ctx, tx, store.LinkScope{Enrichment: enrichment}, links, "2025-02-01T00:00:00Z")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	write("EmbeddingSimilarity",
		store.DerivedLink{ID: "rel_sim_b", RelationshipType: "SIMILAR_TO", SourceEntityID: a, TargetEntityID: c, Score: 0.71, Evidence: ev(f.docs[2]), EvidenceDocs: []string{f.docs[0], f.docs[2]}},
		store.DerivedLink{ID: "rel_sim_a", RelationshipType: "SIMILAR_TO", SourceEntityID: a, TargetEntityID: b, Score: 0.71, Evidence: ev(f.docs[1]), EvidenceDocs: f.docs[:2]},
		store.DerivedLink{ID: "rel_dup", RelationshipType: "DUPLICATE_OF", SourceEntityID: c, TargetEntityID: a, Score: 0.93, Evidence: ev(f.docs[2]),
			Metadata: json.RawMessage(`{"towards":"older"}`), EvidenceDocs: []string{f.docs[2]}})
	write("CoOccurrence",
		store.DerivedLink{ID: "rel_co", RelationshipType: "CO_OCCURS_WITH", SourceEntityID: a, TargetEntityID: b, Score: 0.4, Evidence: ev(f.docs[0]), EvidenceDocs: f.docs[:1]})
	return f
}

func (f *linkFixture) list(t *testing.T, q engine.RelationshipQuery) *engine.RelationshipPage {
	t.Helper()
	if q.EntityID == "" {
		q.EntityID = f.ents[0]
	}
	p, err := f.e.ListRelationships(context.Background(), q)
	if err != nil {
		t.Fatalf("%+v: %v", q, err)
	}
	if p.Total != p.AssertedTotal+p.DerivedTotal {
		t.Fatalf("total %d ≠ %d asserted + %d derived", p.Total, p.AssertedTotal, p.DerivedTotal)
	}
	return p
}

func linkIDs(p *engine.RelationshipPage) []string {
	var out []string
	for _, r := range p.Relationships {
		out = append(out, r.ID)
	}
	return out
}

// TestRelationshipsListBothKinds: one listing holds asserted links (newest first) and then
// derived ones (strongest first, ties by ID), paged over the union with the union's total;
// each item names both ends; the filters select what they say.
func TestRelationshipsListBothKinds(t *testing.T) {
	f := newLinkFixture(t)
	all := f.list(t, engine.RelationshipQuery{})
	asserted := all.Relationships[:2]
	wantOrder := []string{asserted[0].ID, asserted[1].ID, "rel_dup", "rel_sim_a", "rel_sim_b", "rel_co"}
	if got := linkIDs(all); !slices.Equal(got, wantOrder) || all.Total != 6 || all.AssertedTotal != 2 || all.DerivedTotal != 4 {
		t.Fatalf("order %v (total %d = %d + %d), want %v", got, all.Total, all.AssertedTotal, all.DerivedTotal, wantOrder)
	}
	if asserted[0].RelationshipType != "RELATED_TO" || asserted[1].RelationshipType != "REFERS_TO" || asserted[0].Derived || asserted[1].Derived {
		t.Fatalf("asserted part (newest first): %+v", asserted)
	}

	// Every page of every size is the matching slice of the whole list.
	for limit := 1; limit <= 7; limit++ {
		for offset := 0; offset <= 7; offset++ {
			p := f.list(t, engine.RelationshipQuery{Limit: limit, Offset: offset})
			want := wantOrder[min(offset, 6):min(offset+limit, 6)]
			if got := linkIDs(p); !slices.Equal(got, want) || p.Total != 6 {
				t.Fatalf("limit %d offset %d: %v (total %d), want %v", limit, offset, got, p.Total, want)
			}
		}
	}

	// Both ends are named: documents by their document and path.
	byID := map[string]engine.RelationshipItem{}
	for _, r := range all.Relationships {
		byID[r.ID] = r
	}
	dup := byID["rel_dup"]
	if dup.Source.EntityID != f.ents[2] || dup.Source.DocumentID != f.docs[2] || dup.Source.Path != f.paths[2] || dup.Source.EntityType != "document" || dup.Source.Name == "" ||
		dup.Target.DocumentID != f.docs[0] || dup.Target.Path != f.paths[0] {
		t.Fatalf("ends of %s: %+v → %+v", dup.ID, dup.Source, dup.Target)
	}
	if r := byID[asserted[1].ID]; r.Source.Path != f.paths[0] || r.Target.Path != f.paths[1] {
		t.Fatalf("ends of the asserted link: %+v → %+v", r.Source, r.Target)
	}

	// The wire: asserted links keep the seed's shape and say derived: false; derived ones carry
	// name@version, score, evidence and metadata.
	var wire []map[string]any
	b, _ := json.Marshal(all.Relationships)
	if err := json.Unmarshal(b, &wire); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "relationship_type", "source_entity_id", "target_entity_id", "created_at", "metadata", "source", "target"} {
		if _, ok := wire[0][k]; !ok {
			t.Errorf("asserted link lacks %q: %v", k, wire[0])
		}
	}
	if wire[0]["derived"] != false || wire[0]["score"] != nil || wire[0]["enrichment"] != nil || wire[0]["evidence"] != nil {
		t.Errorf("asserted link: %v", wire[0])
	}
	if d := wire[2]; d["derived"] != true || d["enrichment"] != "EmbeddingSimilarity@1" || d["score"] != 0.93 ||
		!strings.Contains(string(b), `"evidence":[{"kind":"document","id":"`+f.docs[2]) || d["metadata"].(map[string]any)["towards"] != "older" {
		t.Errorf("derived link: %v", d)
	}

	for _, c := range []struct {
		name string
		q    engine.RelationshipQuery
		want []string
	}{
		{"derived only", engine.RelationshipQuery{Derived: derivedOnly}, wantOrder[2:]},
		{"asserted only", engine.RelationshipQuery{Derived: assertedOnly}, wantOrder[:2]},
		{"one enrichment", engine.RelationshipQuery{Enrichment: "CoOccurrence"}, []string{"rel_co"}},
		{"min score keeps asserted", engine.RelationshipQuery{MinScore: 0.5}, wantOrder[:5]},
		{"derived type", engine.RelationshipQuery{Type: "SIMILAR_TO"}, []string{"rel_sim_a", "rel_sim_b"}},
		{"asserted type", engine.RelationshipQuery{Type: "REFERS_TO"}, []string{asserted[1].ID}},
		{"inbound", engine.RelationshipQuery{Direction: "inbound"}, []string{asserted[0].ID, "rel_dup"}},
		{"outbound derived", engine.RelationshipQuery{Direction: "outbound", Derived: derivedOnly}, []string{"rel_sim_a", "rel_sim_b", "rel_co"}},
	} {
		if got := linkIDs(f.list(t, c.q)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRelationshipsListRefusals(t *testing.T) {
	f := newLinkFixture(t)
	ctx := context.Background()
	a := f.ents[0]
	for _, c := range []struct {
		q     engine.RelationshipQuery
		code  string
		field string
	}{
		{engine.RelationshipQuery{EntityID: a, MinScore: 1.5}, errs.Validation, "min_score"},
		{engine.RelationshipQuery{EntityID: a, MinScore: -0.1}, errs.Validation, "min_score"},
		{engine.RelationshipQuery{EntityID: a, Enrichment: "Nope"}, errs.Validation, "enrichment"},
		{engine.RelationshipQuery{EntityID: a, Enrichment: "CoOccurrence", Derived: assertedOnly}, errs.Validation, "enrichment"},
		{engine.RelationshipQuery{EntityID: a, Type: "LIKES"}, errs.InvalidRelationshipType, "relationship_type"},
	} {
		_, err := f.e.ListRelationships(ctx, c.q)
		ee := wantCode(t, err, c.code)
		if ee.Details["field"] != c.field {
			t.Errorf("%+v: field %v, want %s", c.q, ee.Details["field"], c.field)
		}
		if c.code == errs.InvalidRelationshipType {
			accepted, _ := ee.Details["accepted_types"].([]string)
			if !slices.Contains(accepted, "SETTLES") || !slices.Contains(accepted, "SIMILAR_TO") || !slices.Contains(accepted, "NEAR_IN_TIME") {
				t.Errorf("accepted types %v: want asserted and derived ones", accepted)
			}
		}
	}
}

// TestDocumentViewHasLinks: the document screen's one read carries the document's links, both
// kinds, ends named.
func TestDocumentViewHasLinks(t *testing.T) {
	f := newLinkFixture(t)
	v, err := f.e.DocumentView(context.Background(), f.docs[0])
	if err != nil {
		t.Fatal(err)
	}
	if v.Links.Total != 6 || v.Links.DerivedTotal != 4 || len(v.Links.Relationships) != 6 || v.Links.Relationships[2].Source.Path != f.paths[2] {
		t.Fatalf("links: %+v", v.Links)
	}
	v, err = f.e.DocumentView(context.Background(), f.docs[1])
	if err != nil {
		t.Fatal(err)
	}
	if v.Links.Total != 3 { // REFERS_TO, SIMILAR_TO and CO_OCCURS_WITH from the first document
		t.Fatalf("second document's links: %+v", v.Links)
	}
}

// TestSuggestionsNameTheirEnds: a suggestion names both ends like a link does and carries its
// evidence; the status counts it with the derived links by enrichment.
func TestSuggestionsNameTheirEnds(t *testing.T) {
	f := newLinkFixture(t)
	ctx := context.Background()
	err := f.e.DB().WriteTx(ctx, func(tx *store.Tx) error {
		_, err := store.ReplaceSuggestions(ctx, tx, "DiscoveryGap", []string{f.ents[1]}, []store.Suggestion{{ID: "sug_test", SourceEntityID: f.ents[1],
			TargetEntityID: f.ents[2], Kind: "similar", Score: 0.62, Reason: "these look related; nothing links them", Version: "1",
			Evidence: json.RawMessage(`[{"kind":"chunk","document_id":"` + f.docs[1] + `","line_start":3}]`), EvidenceDocs: f.docs[1:]}}, "2025-02-01T00:00:00Z")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.e.Suggestions(ctx, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Total != 1 || len(p.Suggestions) != 1 {
		t.Fatalf("suggestions: %+v", p)
	}
	s := p.Suggestions[0]
	if s.Source.Path != f.paths[1] || s.Target.Path != f.paths[2] || s.Target.DocumentID != f.docs[2] || !strings.Contains(string(s.Evidence), `"line_start":3`) {
		t.Fatalf("suggestion: %+v", s)
	}
	b, _ := json.Marshal(s)
	for _, k := range []string{`"id":"sug_test"`, `"reason":`, `"evidence":[`, `"source":{"entity_id":"` + f.ents[1], `"target":{`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("wire lacks %s: %s", k, b)
		}
	}

	st, err := f.e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Enrichments == nil || len(st.Enrichments.Enrichments) != 5 {
		t.Fatalf("status enrichments: %+v", st.Enrichments)
	}
	got := map[string][2]int{}
	for _, en := range st.Enrichments.Enrichments {
		got[en.Name] = [2]int{en.Links, en.Suggestions}
		if en.Enabled || en.Version == "" {
			t.Errorf("%s: enabled %v version %q (all switched off here)", en.Name, en.Enabled, en.Version)
		}
	}
	if got["EmbeddingSimilarity"] != [2]int{3, 0} || got["CoOccurrence"] != [2]int{1, 0} || got["DiscoveryGap"] != [2]int{0, 1} {
		t.Fatalf("links, suggestions by enrichment: %v", got)
	}
}

// BenchmarkStatusDerived100k is BenchmarkStatus with 100,000 derived links and 2,000 open
// suggestions in the store: what the enrichments block (counts by enrichment) costs the
// status the UI polls every second.
func BenchmarkStatusDerived100k(b *testing.B) {
	e := open(b, withStaticEmbedder)
	for i := range 2000 {
		ingest(b, e, "", map[string]any{"text": fmt.Sprintf("Note %d: a few words so that it makes a chunk of its own.", i)})
	}
	ctx := context.Background()
	err := e.DB().WriteTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
			INSERT INTO derived_links(link_id, relationship_type, source_entity_id, target_entity_id, enrichment, version, score, evidence, created_at, updated_at)
			SELECT printf('rel_%08d', i), 'SIMILAR_TO', printf('ent_%08d', i % 2000), printf('ent_%08d', i), 
				CASE i % 5 WHEN 0 THEN 'TagConceptBridger' WHEN 1 THEN 'CoOccurrence' WHEN 2 THEN 'EmbeddingSimilarity' WHEN 3 THEN 'DiscoveryGap' ELSE 'TemporalProximity' END,
				'1', 0.5, '[]', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z' FROM n`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999)
			INSERT INTO suggestions(suggestion_id, source_entity_id, target_entity_id, kind, score, reason, evidence, enrichment, version, state, created_at, updated_at)
			SELECT printf('sug_%08d', i), printf('ent_%08d', i), printf('ent_%08d', i + 1), 'similar', 0.5, 'r', '[]', 'DiscoveryGap', '1', 'open',
				'2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z' FROM n`)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	st, err := e.Status(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if n := st.Enrichments.Enrichments[2].Links; n != 20000 {
		b.Fatalf("EmbeddingSimilarity holds %d links, want 20000", n)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Status(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
