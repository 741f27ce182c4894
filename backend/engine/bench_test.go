package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
)

func benchEngine(b *testing.B) *engine.Engine {
	e, err := engine.Open(context.Background(), config(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	return e
}

// seedInvoice has the shape of seed 001 §3.1's submit_payload example: an invoice naming a
// vendor and a customer (3 entities, 2 relationships).
func seedInvoice(i int) json.RawMessage {
	b, _ := json.Marshal(invoice(fmt.Sprintf("INV-%07d", i), fmt.Sprintf("Vendor %d", i%50), 1500+i%1000,
		"2025-01-15T10:30:00Z", map[string]any{"customer_name": fmt.Sprintf("Customer %d", i%200), "date": "2025-01-15"}))
	return b
}

// benchInvoice is richer: it adds a currency and a line item (4 entities, 3 relationships).
func benchInvoice(i int) json.RawMessage {
	b, _ := json.Marshal(invoice(fmt.Sprintf("INV-%07d", i), fmt.Sprintf("Vendor %d", i%50), 100+i%1000,
		"2025-01-15T10:30:00Z", map[string]any{"customer_name": fmt.Sprintf("Customer %d", i%200), "date": "2025-01-15",
			"currency": "EUR", "line_items": []any{map[string]any{"description": "Widget", "quantity": 2, "amount": 50}}}))
	return b
}

// BenchmarkIngestPayload: sequential payload ingests of seed-shaped invoices; vendors and
// customers recur, so their snapshots are updated, not only created.
func BenchmarkIngestPayload(b *testing.B) { benchIngest(b, seedInvoice) }

// BenchmarkIngestPayloadLineItems: the same with a line item per invoice.
func BenchmarkIngestPayloadLineItems(b *testing.B) { benchIngest(b, benchInvoice) }

func benchIngest(b *testing.B, build func(int) json.RawMessage) {
	e := benchEngine(b)
	ctx := context.Background()
	inputs := make([]json.RawMessage, b.N)
	for i := range inputs {
		inputs[i] = build(i)
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := e.Ingest(ctx, local, "", inputs[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "ingests/s")
}

// BenchmarkIngestContent: sequential text ingests (document, chunks, FTS, tag concepts).
func BenchmarkIngestContent(b *testing.B) {
	e := benchEngine(b)
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		in, _ := json.Marshal(map[string]any{"text": fmt.Sprintf("# Meeting %d\n\nDiscussed the invoice backlog with vendor %d.\n\nNext steps: pay by Friday.", i, i%50),
			"tags": []string{"meeting", fmt.Sprintf("vendor-%d", i%50)}})
		if _, err := e.Ingest(ctx, local, "", in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "ingests/s")
}

// BenchmarkSnapshotRead: current-snapshot reads over a store of 2,000 invoices.
func BenchmarkSnapshotRead(b *testing.B) {
	e := benchEngine(b)
	ctx := context.Background()
	var ids []string
	for i := 0; i < 2000; i++ {
		r, err := e.Ingest(ctx, local, "", benchInvoice(i))
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, r.EntityIDs...)
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := e.GetEntity(ctx, ids[(i*7919)%len(ids)], ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "reads/s")
}

// BenchmarkSnapshotAt: historical snapshots, recomputed from a vendor's observations.
func BenchmarkSnapshotAt(b *testing.B) {
	e := benchEngine(b)
	ctx := context.Background()
	var vendor string
	for i := 0; i < 2000; i++ {
		r, err := e.Ingest(ctx, local, "", benchInvoice(i))
		if err != nil {
			b.Fatal(err)
		}
		vendor = r.EntityIDs[1]
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.GetEntity(ctx, vendor, "2025-06-01"); err != nil {
			b.Fatal(err)
		}
	}
}
