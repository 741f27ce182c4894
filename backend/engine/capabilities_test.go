package engine_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

// TestShippedCapabilities ingests one realistic example per shipped capability and checks the
// entities and relationships its YAML promises.
func TestShippedCapabilities(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	prov := map[string]any{"source_refs": []string{}, "extracted_at": "2025-01-15T10:30:00Z", "extractor_version": "test:v1"}
	cases := []struct {
		capability string
		body       map[string]any
		types      string // sorted entity types observed
		rels       int
	}{
		{"strata:store_invoice:v1", map[string]any{"invoice_number": "INV-9", "vendor_name": "Acme Corp", "customer_name": "Bob Ltd", "amount": 1500, "date": "2025-01-15",
			"line_items": []any{map[string]any{"description": "Anvil", "amount": 1000}, map[string]any{"description": "Rope", "amount": 500}}},
			"company,company,invoice,line_item,line_item", 4},
		{"strata:store_transaction:v1", map[string]any{"transaction_id": "TX-1", "amount": -1500, "date": "2025-01-20", "counterparty": "Acme Corp",
			"invoice_number": "INV-9", "vendor_name": "Acme Corp"}, "company,invoice,transaction", 2},
		{"strata:store_receipt:v1", map[string]any{"merchant_name": "Corner Cafe", "amount": 4.5, "date": "2025-01-21"}, "company,receipt", 1},
		{"strata:store_contract:v1", map[string]any{"contract_id": "C-7", "title": "Office lease", "parties": []string{"Acme Corp", "Bob Ltd"}, "end_date": "2026-01-01"},
			"company,company,contract", 2},
		{"strata:store_note:v1", map[string]any{"text": "Renew the lease before June", "author": "Ada", "tags": []string{"lease", "todo"}}, "concept,concept,note,person", 3},
	}
	for _, c := range cases {
		t.Run(c.capability, func(t *testing.T) {
			res := ingest(t, e, "", map[string]any{"capability_id": c.capability, "body": c.body, "provenance": prov})
			var types []string
			for _, id := range res.EntityIDs {
				s, err := e.GetEntity(ctx, id, "")
				if err != nil {
					t.Fatal(err)
				}
				types = append(types, s.EntityType)
			}
			sort.Strings(types)
			if strings.Join(types, ",") != c.types || len(res.RelationshipIDs) != c.rels {
				t.Fatalf("entities %v and %d relationships, want %s and %d", types, len(res.RelationshipIDs), c.types, c.rels)
			}
		})
	}
	// The transaction SETTLES the invoice stored first: same vendor + number, same entity.
	inv, _ := e.ListEntities(ctx, "invoice", "INV-9", 10, 0)
	if inv.Total != 1 {
		t.Fatalf("invoice entities: %d", inv.Total)
	}
	settles, _ := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: inv.Entities[0].EntityID, Direction: "inbound", Type: "SETTLES", Derived: assertedOnly})
	if settles.Total != 1 {
		t.Fatal("transaction does not settle the invoice")
	}
	acme, _ := e.ListEntities(ctx, "company", "acme", 10, 0)
	if acme.Total != 1 {
		t.Fatalf("Acme should be one company across capabilities, got %d", acme.Total)
	}
	refs, _ := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: acme.Entities[0].EntityID, Direction: "inbound", Type: "REFERS_TO", Derived: assertedOnly})
	if refs.Total != 3 { // invoice, transaction, contract
		t.Fatalf("Acme is referred to by %d entities, want 3", refs.Total)
	}
}
