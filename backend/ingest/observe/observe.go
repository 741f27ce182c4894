// Package observe lets an enrichment record what it read in a document as observations, the way
// the ingest adapters do, without importing backend/ingest: that package can read any path, so
// only the engine imports it (arch_trust_test.go). This one exposes the observation writer and
// nothing that touches files.
package observe

import (
	"context"

	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/store"
)

// Observed is one entity read in a document (ingest.Observed).
type Observed = ingest.Observed

// Derived upserts the entities and writes their observations not stored yet, folding only the
// new ones into the snapshots (ingest.ObserveDerived): a second run inserts nothing.
func Derived(ctx context.Context, q store.Q, list []Observed, now string) ([]string, error) {
	return ingest.ObserveDerived(ctx, q, list, now)
}
