package ingest

import (
	"context"
	"errors"
	"strings"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// CreateRelationship stores r (its ID derived from type, source and target) after checking the
// type, both ends, and — for PART_OF, DEPENDS_ON and SUPERSEDES — that it closes no cycle.
// Creating an existing edge returns the stored one unchanged.
func CreateRelationship(ctx context.Context, q store.Q, r store.Relationship) (store.Relationship, bool, error) {
	if !spec.ValidRelationshipType(r.RelationshipType) {
		return r, false, errs.New(errs.InvalidRelationshipType, "unknown relationship type %q", r.RelationshipType).
			With("accepted_types", spec.RelationshipTypes).WithHint("use one of %s", strings.Join(spec.RelationshipTypes, ", "))
	}
	for _, id := range []string{r.SourceEntityID, r.TargetEntityID} {
		if !ids.ValidEntityID(id) {
			return r, false, errs.New(errs.Validation, "%q is not an entity ID", id).WithHint("entity IDs look like ent_ followed by 24 hex digits")
		}
	}
	r.ID = ids.Relationship(r.RelationshipType, r.SourceEntityID, r.TargetEntityID)
	if prev, err := store.GetRelationship(ctx, q, r.RelationshipType, r.SourceEntityID, r.TargetEntityID); err == nil {
		return prev, false, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return r, false, err
	}
	for _, id := range []string{r.SourceEntityID, r.TargetEntityID} {
		if _, err := store.GetEntity(ctx, q, id); errors.Is(err, store.ErrNotFound) {
			return r, false, errs.New(errs.EntityNotFound, "entity %s does not exist", id).With("entity_id", id).
				WithHint("create it by ingesting something that names it, or check the ID with `strata entity list`")
		} else if err != nil {
			return r, false, err
		}
	}
	if err := checkCycle(ctx, q, r); err != nil {
		return r, false, err
	}
	created, err := store.InsertRelationship(ctx, q, r)
	return r, created, err
}

// checkCycle refuses an edge of an acyclic type (PART_OF, DEPENDS_ON, SUPERSEDES) that would
// close a cycle.
func checkCycle(ctx context.Context, q store.Q, r store.Relationship) error {
	if spec.Acyclic[r.RelationshipType] {
		if r.SourceEntityID == r.TargetEntityID {
			return errs.New(errs.CycleDetected, "%s from an entity to itself is a cycle", r.RelationshipType).
				With("entity_id", r.SourceEntityID).WithHint("%s relationships must form no cycle", r.RelationshipType)
		}
		cyc, err := store.Reaches(ctx, q, r.RelationshipType, r.TargetEntityID, r.SourceEntityID)
		if err != nil {
			return err
		}
		if cyc {
			return errs.New(errs.CycleDetected, "%s %s → %s would close a cycle: %s already reaches %s", r.RelationshipType,
				r.SourceEntityID, r.TargetEntityID, r.TargetEntityID, r.SourceEntityID).
				With("source_entity_id", r.SourceEntityID).With("target_entity_id", r.TargetEntityID).
				WithHint("%s relationships must form no cycle; remove the opposite path or use another type", r.RelationshipType)
		}
	}
	return nil
}
