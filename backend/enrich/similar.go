package enrich

import "context"

// EmbeddingSimilarity links documents close in the active vector space, and near-identical ones as duplicates.
//
// Skeleton: registered and configurable; it derives nothing yet.
type EmbeddingSimilarity struct {
	settings struct{}
}

// Name implements Enrichment.
func (x *EmbeddingSimilarity) Name() string { return "EmbeddingSimilarity" }

// Version implements Enrichment.
func (x *EmbeddingSimilarity) Version() string { return "0" }

// ReactsTo implements Enrichment.
func (x *EmbeddingSimilarity) ReactsTo() []Emission {
	return []Emission{DocumentAnalyzed, DocumentRemoved}
}

// Configure implements Enrichment.
func (x *EmbeddingSimilarity) Configure(params map[string]any) error {
	return DecodeParams(params, &x.settings)
}

// Enrich implements Enrichment.
func (x *EmbeddingSimilarity) Enrich(ctx context.Context, run *Run) error { return nil }
