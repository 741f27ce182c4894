package enrich

import "context"

// TemporalProximity links dated documents and observations that are close in time and share an entity.
//
// Skeleton: registered and configurable; it derives nothing yet.
type TemporalProximity struct {
	settings struct{}
}

// Name implements Enrichment.
func (x *TemporalProximity) Name() string { return "TemporalProximity" }

// Version implements Enrichment.
func (x *TemporalProximity) Version() string { return "0" }

// ReactsTo implements Enrichment.
func (x *TemporalProximity) ReactsTo() []Emission {
	return []Emission{DocumentAnalyzed, DocumentRemoved}
}

// Configure implements Enrichment.
func (x *TemporalProximity) Configure(params map[string]any) error {
	return DecodeParams(params, &x.settings)
}

// Enrich implements Enrichment.
func (x *TemporalProximity) Enrich(ctx context.Context, run *Run) error { return nil }
