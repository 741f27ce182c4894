package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/strata-app/strata/backend/enrich"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// EntityRef names one end of a link or suggestion (type, name, and the document and path when
// the end is a document's own entity).
type EntityRef = store.EntityRef

// Evidence is one item of a derived link's or a suggestion's evidence array (the chunk,
// observation or document it rests on, with path and lines where there are some), for
// transports that cite it.
type Evidence = enrich.Evidence

// RelationshipQuery selects an entity's links for ListRelationships.
type RelationshipQuery struct {
	EntityID  string `json:"entity_id"`
	Direction string `json:"direction,omitempty"` // inbound | outbound | both (default)
	// Type is one relationship type, asserted (spec.RelationshipTypes) or derived
	// (enrich.DerivedTypes).
	Type string `json:"relationship_type,omitempty"`
	// Derived: nil lists both kinds, true only derived links, false only asserted ones.
	Derived *bool `json:"derived,omitempty"`
	// Enrichment lists only the links of this enrichment (by name, e.g. EmbeddingSimilarity):
	// an asserted link has none, so naming one lists derived links only.
	Enrichment string `json:"enrichment,omitempty"`
	// MinScore drops derived links weaker than this (0–1). Asserted links have no score and
	// are kept: a source said so.
	MinScore float64 `json:"min_score,omitempty"`
	Limit    int     `json:"limit,omitempty"`
	Offset   int     `json:"offset,omitempty"`
}

// RelationshipItem is one link in a listing: an asserted relationship (seed 001 §3.11's shape,
// store.Relationship: id, relationship_type, source/target_entity_id, metadata,
// source_payload_id, created_at) or a derived one in the same shape plus derived: true, the
// enrichment as name@version, its score and evidence; either way with both ends named.
type RelationshipItem struct {
	Relationship
	Derived    bool   `json:"derived"`
	Enrichment string `json:"enrichment,omitempty"` // derived: "EmbeddingSimilarity@1"
	// Score is a derived link's strength in [0, 1] (absent on asserted links: a pointer so a
	// derived 0 is still said).
	Score *float64 `json:"score,omitempty"`
	// Evidence is a derived link's JSON array as stored: [{kind, id, document_id, path, …}].
	Evidence json.RawMessage `json:"evidence,omitempty"`
	Source   EntityRef       `json:"source"`
	Target   EntityRef       `json:"target"`
}

// RelationshipPage is seed 001 §3.11's list_relationships response: asserted links first
// (newest first, ties by ID), then derived ones (strongest first, ties by ID), paged over both.
// AssertedTotal + DerivedTotal = Total.
type RelationshipPage struct {
	Relationships []RelationshipItem `json:"relationships"`
	Total         int                `json:"total"`
	AssertedTotal int                `json:"asserted_total"`
	DerivedTotal  int                `json:"derived_total"`
	Limit         int                `json:"limit"`
	Offset        int                `json:"offset"`
}

// relationshipTypes are the types a listing accepts, sorted: asserted and derived.
var relationshipTypes = func() []string {
	out := slices.Concat(spec.RelationshipTypes, enrich.DerivedTypes)
	slices.Sort(out)
	return slices.Compact(out)
}()

// ListRelationships pages through an entity's links, asserted and derived (RelationshipQuery
// says which), in one page whose total counts both.
func (e *Engine) ListRelationships(ctx context.Context, rq RelationshipQuery) (*RelationshipPage, error) {
	limit, offset, err := pageLimit(rq.Limit, rq.Offset)
	if err != nil {
		return nil, err
	}
	switch rq.Direction {
	case "":
		rq.Direction = "both"
	case "inbound", "outbound", "both":
	default:
		return nil, errs.New(errs.Validation, "direction %q is not inbound, outbound or both", rq.Direction).With("field", "direction")
	}
	if rq.Type != "" && !slices.Contains(relationshipTypes, rq.Type) {
		// The same code as create (seed 001 §3.10): a client that handles INVALID_RELATIONSHIP_TYPE
		// once must not meet VALIDATION_ERROR for the same mistake on list.
		return nil, errs.New(errs.InvalidRelationshipType, "unknown relationship type %q", rq.Type).With("field", "relationship_type").
			With("accepted_types", relationshipTypes).WithHint("use one of %s (asserted: %s; derived: %s)", strings.Join(relationshipTypes, ", "),
			strings.Join(spec.RelationshipTypes, ", "), strings.Join(enrich.DerivedTypes, ", "))
	}
	if math.IsNaN(rq.MinScore) || rq.MinScore < 0 || rq.MinScore > 1 {
		return nil, errs.New(errs.Validation, "min_score %v is not between 0 and 1", rq.MinScore).With("field", "min_score").
			WithHint("derived links score 0–1; omit min_score for all of them")
	}
	if rq.Enrichment != "" && !e.enrich.Has(rq.Enrichment) {
		return nil, errs.New(errs.Validation, "no enrichment is called %q", rq.Enrichment).With("field", "enrichment").
			WithHint("one of %s", strings.Join(e.enrichmentNames(), ", "))
	}
	if rq.Enrichment != "" && rq.Derived != nil && !*rq.Derived {
		return nil, errs.New(errs.Validation, "asserted links have no enrichment: derived false and enrichment %q select nothing", rq.Enrichment).
			With("field", "enrichment").WithHint("drop one of derived and enrichment")
	}
	asserted := rq.Derived == nil || !*rq.Derived
	derived := rq.Derived == nil || *rq.Derived
	if rq.Enrichment != "" {
		asserted = false
	}
	if _, err := e.entity(ctx, e.db.Reader(), rq.EntityID); err != nil {
		return nil, err
	}
	// One read transaction: both counts and both parts are of the same moment, so the total is
	// the union's.
	tx, err := e.db.ReadDB().BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, queryErr(err, "relationships")
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	out := &RelationshipPage{Relationships: []RelationshipItem{}, Limit: limit, Offset: offset}
	if asserted {
		list, total, err := store.ListRelationships(ctx, tx, store.RelationshipFilter{EntityID: rq.EntityID, Direction: rq.Direction,
			Type: rq.Type, Limit: limit, Offset: offset})
		if err != nil {
			return nil, queryErr(err, "relationships")
		}
		out.AssertedTotal = total
		for _, r := range list {
			out.Relationships = append(out.Relationships, RelationshipItem{Relationship: r})
		}
	}
	if derived {
		// The derived part of the page starts where the asserted links end.
		list, total, err := store.ListDerived(ctx, tx, store.DerivedFilter{EntityID: rq.EntityID, Direction: rq.Direction, Type: rq.Type,
			Enrichment: rq.Enrichment, MinScore: rq.MinScore}, limit-len(out.Relationships), max(0, offset-out.AssertedTotal))
		if err != nil {
			return nil, queryErr(err, "derived links")
		}
		out.DerivedTotal = total
		for _, l := range list {
			out.Relationships = append(out.Relationships, derivedItem(l))
		}
	}
	out.Total = out.AssertedTotal + out.DerivedTotal
	if err := nameEnds(ctx, tx, out.Relationships); err != nil {
		return nil, err
	}
	return out, nil
}

func derivedItem(l store.DerivedLink) RelationshipItem {
	score := l.Score
	return RelationshipItem{Relationship: Relationship{ID: l.ID, RelationshipType: l.RelationshipType, SourceEntityID: l.SourceEntityID,
		TargetEntityID: l.TargetEntityID, Metadata: l.Metadata, CreatedAt: l.CreatedAt}, Derived: true, Enrichment: l.Enrichment + "@" + l.Version,
		Score: &score, Evidence: l.Evidence}
}

// nameEnds fills each item's Source and Target from one query for the page.
func nameEnds(ctx context.Context, q store.Q, items []RelationshipItem) error {
	ids := make([]string, 0, 2*len(items))
	for _, it := range items {
		ids = append(ids, it.SourceEntityID, it.TargetEntityID)
	}
	refs, err := store.EntityRefs(ctx, q, ids)
	if err != nil {
		return queryErr(err, "the links' ends")
	}
	for i := range items {
		items[i].Source, items[i].Target = refs[items[i].SourceEntityID], refs[items[i].TargetEntityID]
	}
	return nil
}

// enrichmentNames are the registered enrichments' names, in their registration order.
func (e *Engine) enrichmentNames() []string {
	var names []string
	for _, in := range e.enrich.List() {
		names = append(names, in.Name)
	}
	return names
}
