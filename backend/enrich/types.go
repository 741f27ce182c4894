package enrich

// Relationship types the enrichments derive. REFERS_TO and DUPLICATE_OF are seed types; the
// others are additive (seed §8): they never appear in the asserted relationships table, except
// RELATED_TO, which an accepted suggestion asserts.
const (
	TypeRefersTo    = "REFERS_TO"      // a document → a concept its tags, keywords or headings name
	TypeCoOccurs    = "CO_OCCURS_WITH" // two entities mentioned together more than chance
	TypeSimilar     = "SIMILAR_TO"     // two documents close in the active vector space
	TypeDuplicateOf = "DUPLICATE_OF"   // a copy, an export or a version → the one it copies
	TypeNearInTime  = "NEAR_IN_TIME"   // two dated items, close in time, sharing an entity
	TypeContainedIn = "CONTAINED_IN"   // a document whose text another holds almost whole (a chapter in the one-page book)
	TypeRelatedTo   = "RELATED_TO"     // asserted when a person or an agent accepts a suggestion
)

// DerivedTypes are the relationship types a derived link may have, sorted.
var DerivedTypes = []string{TypeContainedIn, TypeCoOccurs, TypeDuplicateOf, TypeNearInTime, TypeRefersTo, TypeSimilar}
