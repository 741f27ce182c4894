package enrich

import "context"

// TagConceptBridger bridges tags, hashtags, front-matter keywords and heading terms to concept entities.
//
// Skeleton: registered and configurable; it derives nothing yet.
type TagConceptBridger struct {
	settings struct{}
}

// Name implements Enrichment.
func (x *TagConceptBridger) Name() string { return "TagConceptBridger" }

// Version implements Enrichment.
func (x *TagConceptBridger) Version() string { return "0" }

// ReactsTo implements Enrichment.
func (x *TagConceptBridger) ReactsTo() []Emission {
	return []Emission{DocumentAnalyzed, DocumentRemoved}
}

// Configure implements Enrichment.
func (x *TagConceptBridger) Configure(params map[string]any) error {
	return DecodeParams(params, &x.settings)
}

// Enrich implements Enrichment.
func (x *TagConceptBridger) Enrich(ctx context.Context, run *Run) error { return nil }
