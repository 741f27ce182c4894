package enrich

// builtins is the one place enrichments are registered, in the order they run for a document:
// each may read what the ones before it derived (CoOccurrence counts the concepts
// TagConceptBridger resolved; DiscoveryGap looks for pairs the others found related but
// nothing links). Adding an enrichment is one type and one line here; configuring it is
// specs/enrichments.yaml.
func builtins() []Enrichment {
	return []Enrichment{
		&TagConceptBridger{},
		&CoOccurrence{},
		&EmbeddingSimilarity{},
		&DiscoveryGap{},
		&TemporalProximity{},
	}
}
