package ingest

import (
	"encoding/json"
	"fmt"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// Plan is everything one input will write, with all IDs derived up front.
type Plan struct {
	Kind            string
	CapabilityID    string
	Canonical       []byte // normalised content; its hash is the payload content ID
	Origin          map[string]any
	ClientRequestID string
	Document        *store.Document
	Chunks          []store.Chunk
	Vectors         [][]float32 // one per chunk, in the embedder's space
	Entities        []PlannedEntity
	Relationships   []store.Relationship
	Phases          map[string]string

	contentID, payloadID string
}

// PlannedEntity is an entity and the observation the input makes of it.
type PlannedEntity struct {
	Entity      store.Entity
	Observation store.Observation
	Type        *spec.EntityType
}

// ContentID is the plan's payload content ID.
func (p *Plan) ContentID() string {
	if p.contentID == "" {
		p.contentID = ids.PayloadContent(p.Kind, p.Canonical)
		p.payloadID = ids.Payload(p.contentID)
	}
	return p.contentID
}

// PayloadID is the plan's payload UUID.
func (p *Plan) PayloadID() string { p.ContentID(); return p.payloadID }

func (p *Plan) result(created bool, submissionID string) *Result {
	r := &Result{InputKind: p.Kind, CapabilityID: p.CapabilityID, PayloadID: p.PayloadID(), PayloadContentID: p.ContentID(),
		PayloadSubmissionID: submissionID, Created: created, EntityIDs: []string{}, Entities: []EntityRef{}, RelationshipIDs: []string{},
		Phases: p.Phases}
	seen := map[string]bool{}
	for _, e := range p.Entities {
		if !seen[e.Entity.EntityID] {
			seen[e.Entity.EntityID] = true
			r.EntityIDs = append(r.EntityIDs, e.Entity.EntityID)
			r.Entities = append(r.Entities, EntityRef{EntityID: e.Entity.EntityID, EntityType: e.Entity.EntityType, Name: e.Entity.CanonicalName})
		}
	}
	for _, rel := range p.Relationships {
		r.RelationshipIDs = append(r.RelationshipIDs, rel.ID)
	}
	if p.Document != nil {
		r.DocumentID = p.Document.DocumentID
	}
	if created {
		r.Message = fmt.Sprintf("Payload created: %s observed, %s", plural(len(r.EntityIDs), "entity", "entities"),
			plural(len(r.RelationshipIDs), "relationship", "relationships"))
		if p.Document != nil {
			r.Message += fmt.Sprintf(", %s indexed", plural(len(p.Chunks), "chunk", "chunks"))
		}
	} else {
		r.Message = "Duplicate payload: this content is already stored; nothing changed"
	}
	return r
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// observation builds a planned entity with its observation; fields must be canonical JSON
// values.
func observation(t *spec.EntityType, key, name string, fields map[string]any, specificity float64, priority int,
	extractor, rule, contentID, observedAt, documentID string, span any) PlannedEntity {
	entityID := ids.Entity(t.Type, key)
	var spanJSON json.RawMessage
	if span != nil {
		spanJSON = ids.MustMarshal(span)
	}
	return PlannedEntity{
		Type:   t,
		Entity: store.Entity{EntityID: entityID, EntityType: t.Type, CanonicalName: name, IdentityKey: key},
		Observation: store.Observation{
			ID: ids.Observation(entityID, contentID, rule), EntityID: entityID, EntityType: t.Type, SchemaVersion: t.SchemaVersion,
			DocumentID: documentID, Extractor: extractor, ObservedAt: observedAt, SpecificityScore: specificity,
			SourcePriority: priority, Fields: ids.MustMarshal(fields), Span: spanJSON,
		},
	}
}
