package ingest

import (
	"testing"

	"github.com/strata-app/strata/backend/spec"
)

// A plan's IDs are a pure function of its kind and canonical content.
func TestPlanIDsAreDerivedFromContent(t *testing.T) {
	mk := func(body string) *Plan { return &Plan{Kind: KindPayload, Canonical: []byte(body)} }
	a, b, c := mk(`{"x":1}`), mk(`{"x":1}`), mk(`{"x":2}`)
	if a.ContentID() != b.ContentID() || a.PayloadID() != b.PayloadID() {
		t.Fatal("same content, different IDs")
	}
	if a.ContentID() == c.ContentID() || a.PayloadID() == c.PayloadID() {
		t.Fatal("different content, same IDs")
	}
	if other := (&Plan{Kind: KindContent, Canonical: []byte(`{"x":1}`)}); other.ContentID() == a.ContentID() {
		t.Fatal("the kind is not part of the content ID")
	}
}

// result lists each entity once, in plan order, however many observations name it.
func TestPlanResultListsEntitiesOnce(t *testing.T) {
	typ := &spec.EntityType{Type: "person", SchemaVersion: "1"}
	p := &Plan{Kind: KindPayload, Canonical: []byte(`{}`)}
	ann := observation(typ, "ann", "Ann", map[string]any{}, 1, 50, "test", "r1", p.ContentID(), "", "", nil)
	ann2 := observation(typ, "ann", "Ann", map[string]any{}, 1, 50, "test", "r2", p.ContentID(), "", "", nil)
	bob := observation(typ, "bob", "Bob", map[string]any{}, 1, 50, "test", "r1", p.ContentID(), "", "", nil)
	p.Entities = []PlannedEntity{ann, bob, ann2}
	r := p.result(true, "sub_1")
	if len(r.EntityIDs) != 2 || r.EntityIDs[0] != ann.Entity.EntityID || r.EntityIDs[1] != bob.Entity.EntityID {
		t.Fatalf("entity IDs %v", r.EntityIDs)
	}
	if r.Message != "Payload created: 2 entities observed, 0 relationships" {
		t.Fatalf("message %q", r.Message)
	}
	if d := p.result(false, "sub_2"); d.Created || d.Message == r.Message {
		t.Fatalf("duplicate result %+v", d)
	}
}
