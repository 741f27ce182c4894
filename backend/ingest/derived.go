package ingest

import (
	"context"
	"fmt"

	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// Observed is one entity an enrichment read in a document (a concept from a tag or a heading),
// to be recorded as an observation like the ones the adapters write, so that the entity reads
// the same through GetEntity, EntityWithProvenance and ListEntities whoever made it.
type Observed struct {
	Type        *spec.EntityType
	Key, Name   string
	Fields      map[string]any
	Specificity float64
	Extractor   string
	Rule        string // with Version, what makes the observation's ID: the same read twice is one row
	Version     string // the document's version (payload content ID + document ID)
	DocumentID  string
	PayloadID   string
	Span        any
}

// ObserveDerived upserts the entities of list and writes those of their observations that are
// not stored yet, folding only the new ones into the snapshots: running it twice for the same
// document version inserts nothing the second time. It returns the entity IDs in list order.
func ObserveDerived(ctx context.Context, q store.Q, list []Observed, now string) ([]string, error) {
	out := make([]string, len(list))
	if len(list) == 0 {
		return out, nil
	}
	planned := make([]PlannedEntity, len(list))
	obsIDs := make([]string, len(list))
	for i, o := range list {
		pe := observation(o.Type, o.Key, o.Name, o.Fields, o.Specificity, PriorityFile, o.Extractor, o.Rule, o.Version, now, o.DocumentID, o.Span)
		pe.Entity.CreatedAt = now
		pe.Observation.SourcePayloadID, pe.Observation.CreatedAt = o.PayloadID, now
		planned[i], out[i], obsIDs[i] = pe, pe.Entity.EntityID, pe.Observation.ID
	}
	have, err := store.ExistingObservations(ctx, q, obsIDs)
	if err != nil {
		return nil, err
	}
	entities := make([]store.Entity, 0, len(planned))
	var observations []store.Observation
	byEntity := map[string][]PlannedEntity{}
	var order []string
	for _, pe := range planned {
		entities = append(entities, pe.Entity)
		if have[pe.Observation.ID] {
			continue
		}
		have[pe.Observation.ID] = true // the same observation listed twice is written once
		observations = append(observations, pe.Observation)
		if _, ok := byEntity[pe.Entity.EntityID]; !ok {
			order = append(order, pe.Entity.EntityID)
		}
		byEntity[pe.Entity.EntityID] = append(byEntity[pe.Entity.EntityID], pe)
	}
	if err := store.UpsertEntities(ctx, q, entities); err != nil {
		return nil, err
	}
	if len(observations) == 0 {
		return out, nil
	}
	if err := store.InsertObservations(ctx, q, observations); err != nil {
		return nil, err
	}
	if err := applyObservations(ctx, q, order, byEntity, now); err != nil {
		return nil, fmt.Errorf("fold derived observations: %w", err)
	}
	return out, nil
}
