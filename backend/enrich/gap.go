package enrich

import "context"

// DiscoveryGap suggests pairs that look related while nothing links them.
//
// Skeleton: registered and configurable; it derives nothing yet.
type DiscoveryGap struct {
	settings struct{}
}

// Name implements Enrichment.
func (x *DiscoveryGap) Name() string { return "DiscoveryGap" }

// Version implements Enrichment.
func (x *DiscoveryGap) Version() string { return "0" }

// ReactsTo implements Enrichment.
func (x *DiscoveryGap) ReactsTo() []Emission { return []Emission{DocumentAnalyzed, DocumentRemoved} }

// Configure implements Enrichment.
func (x *DiscoveryGap) Configure(params map[string]any) error {
	return DecodeParams(params, &x.settings)
}

// Enrich implements Enrichment.
func (x *DiscoveryGap) Enrich(ctx context.Context, run *Run) error { return nil }
