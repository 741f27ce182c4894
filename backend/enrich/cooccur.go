package enrich

import "context"

// CoOccurrence links entities that appear together in the same chunks across documents.
//
// Skeleton: registered and configurable; it derives nothing yet.
type CoOccurrence struct {
	settings struct{}
}

// Name implements Enrichment.
func (x *CoOccurrence) Name() string { return "CoOccurrence" }

// Version implements Enrichment.
func (x *CoOccurrence) Version() string { return "0" }

// ReactsTo implements Enrichment.
func (x *CoOccurrence) ReactsTo() []Emission { return []Emission{DocumentAnalyzed, DocumentRemoved} }

// Configure implements Enrichment.
func (x *CoOccurrence) Configure(params map[string]any) error {
	return DecodeParams(params, &x.settings)
}

// Enrich implements Enrichment.
func (x *CoOccurrence) Enrich(ctx context.Context, run *Run) error { return nil }
