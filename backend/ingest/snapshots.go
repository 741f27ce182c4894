package ingest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/reduce"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// applyObservations folds new observations into the stored snapshots of their entities.
func applyObservations(ctx context.Context, tx store.Q, order []string, byEntity map[string][]PlannedEntity, now string) error {
	stored, err := store.GetSnapshots(ctx, tx, order)
	if err != nil {
		return err
	}
	rows := make([]store.SnapshotRow, 0, len(order))
	for _, id := range order {
		list := byEntity[id]
		st := reduce.New()
		if row, ok := stored[id]; ok {
			if err := json.Unmarshal(row.State, st); err != nil {
				return fmt.Errorf("snapshot state of %s: %w", id, err)
			}
			if st.Unions == nil {
				st.Unions = map[string]map[string]*reduce.Winner{}
			}
		}
		for _, pe := range list {
			obs, err := ReduceObs(pe.Observation)
			if err != nil {
				return err
			}
			st.Apply(pe.Type, obs)
		}
		rows = append(rows, SnapshotRow(id, list[0].Type, st, now))
	}
	return store.PutSnapshots(ctx, tx, rows)
}

// ReduceObs converts a stored observation for the reducer.
func ReduceObs(o store.Observation) (reduce.Obs, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(o.Fields, &fields); err != nil {
		return reduce.Obs{}, fmt.Errorf("observation %s fields: %w", o.ID, err)
	}
	return reduce.Obs{ID: o.ID, ObservedAt: o.ObservedAt, SourcePriority: o.SourcePriority, Specificity: o.SpecificityScore, Fields: fields}, nil
}

// SnapshotRow renders a reducer state as the stored snapshot row.
func SnapshotRow(entityID string, t *spec.EntityType, st *reduce.State, now string) store.SnapshotRow {
	snap, prov := st.Snapshot()
	return store.SnapshotRow{EntityID: entityID, EntityType: t.Type, SchemaVersion: t.SchemaVersion,
		Snapshot: ids.MustMarshal(snap), Provenance: ids.MustMarshal(prov), State: ids.MustMarshal(st),
		ObservationCount: st.Count, LastObservationAt: st.Last, ComputedAt: now}
}
