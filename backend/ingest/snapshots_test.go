package ingest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/strata-app/strata/backend/store"
)

// Observations of one entity from two payloads fold into one snapshot that counts both and
// holds the later value of a field.
func TestSnapshotFoldsObservations(t *testing.T) {
	in := newIngester(t)
	ctx := context.Background()
	a := ingestJSON(t, in, "", `{"transaction_id":"t1","amount":3,"date":"2025-01-01"}`)
	b := ingestJSON(t, in, "", `{"transaction_id":"t1","amount":4,"date":"2025-01-01"}`)
	if a.EntityIDs[0] != b.EntityIDs[0] {
		t.Fatalf("same transaction, two entities: %v %v", a.EntityIDs, b.EntityIDs)
	}
	row, err := store.GetSnapshot(ctx, in.DB.Reader(), a.EntityIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	if row.ObservationCount != 2 {
		t.Fatalf("observation count %d, want 2", row.ObservationCount)
	}
	var snap map[string]any
	if err := json.Unmarshal(row.Snapshot, &snap); err != nil {
		t.Fatal(err)
	}
	if n, ok := snap["amount"].(float64); !ok || n != 4 {
		t.Fatalf("amount %v, want 4 (the later observation): %s", snap["amount"], row.Snapshot)
	}
}

func TestReduceObsRejectsBadFields(t *testing.T) {
	if _, err := ReduceObs(store.Observation{ID: "obs_x", Fields: json.RawMessage(`[`)}); err == nil {
		t.Fatal("want an error for fields that are not a JSON object")
	}
}
