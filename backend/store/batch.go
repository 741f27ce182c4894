package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Multi-row statements for the ingest path: one statement per table instead of one per row.
// Each statement pays a fixed cost (binding, VDBE start, database/sql bookkeeping) that
// dominated an ingest once parsing was cached. Batches are cut at batchRows so the statement
// texts — and the prepared-statement cache — stay few.
const batchRows = 64

func placeholders(rows, cols int) string {
	one := "(" + qmarks(cols) + ")"
	return strings.TrimSuffix(strings.Repeat(one+",", rows), ",")
}

// bigBatchRows is the statement size for a table whose every statement costs more than its
// binding: chunks, whose full-text index is flushed to disk at the start of each statement
// (FTS5 syncs its pending terms at every statement savepoint, and the insert trigger makes
// each insert a statement with a savepoint). At 64 rows a statement a folder ingest wrote
// tiny segments and spent a third of its chunk writes merging them. 512 × 13 columns stays
// well under SQLite's 32,766 variables.
const bigBatchRows = 512

// qmarks is "?,?,…" for n values (an IN list).
func qmarks(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// inBigBatches is inBatches with bigBatchRows-row statements while there are that many rows
// left; the rest goes in batchRows-row statements, so the set of statement texts stays small.
func inBigBatches[T any](items []T, fn func(part []T) error) error {
	for len(items) >= bigBatchRows {
		if err := fn(items[:bigBatchRows]); err != nil {
			return err
		}
		items = items[bigBatchRows:]
	}
	return inBatches(items, fn)
}

func inBatches[T any](items []T, fn func(part []T) error) error {
	for len(items) > 0 {
		n := min(len(items), batchRows)
		if err := fn(items[:n]); err != nil {
			return err
		}
		items = items[n:]
	}
	return nil
}

// UpsertEntities is UpsertEntity for many entities in one statement per batch. An entity
// named by its identity key alone (a person by their address) takes the first name a source
// gives it ("Sam Patel" for sam.patel@…), whichever document came first; any other name
// becomes an alias.
func UpsertEntities(ctx context.Context, q Q, list []Entity) error {
	return inBatches(list, func(part []Entity) error {
		args := make([]any, 0, len(part)*6)
		for _, e := range part {
			aliases, _ := json.Marshal([]string{e.CanonicalName})
			args = append(args, e.EntityID, e.EntityType, e.CanonicalName, e.IdentityKey, string(aliases), e.CreatedAt)
		}
		_, err := q.ExecContext(ctx, `INSERT INTO entities(entity_id, entity_type, canonical_name, identity_key, aliases, created_at)
			VALUES `+placeholders(len(part), 6)+`
			ON CONFLICT(entity_id) DO UPDATE SET aliases = (
				SELECT json_group_array(value) FROM (
					SELECT value FROM json_each(entities.aliases)
					UNION SELECT excluded.canonical_name ORDER BY 1)),
				canonical_name = CASE WHEN entities.canonical_name = entities.identity_key AND excluded.canonical_name <> excluded.identity_key
					THEN excluded.canonical_name ELSE entities.canonical_name END
			WHERE NOT EXISTS (SELECT 1 FROM json_each(entities.aliases) WHERE value = excluded.canonical_name)`, args...)
		if err != nil {
			return fmt.Errorf("upsert entities: %w", err)
		}
		return nil
	})
}

// InsertObservations stores new observations; ones that exist already are left alone.
func InsertObservations(ctx context.Context, q Q, list []Observation) error {
	return inBatches(list, func(part []Observation) error {
		args := make([]any, 0, len(part)*13)
		for _, o := range part {
			args = append(args, o.ID, o.EntityID, o.EntityType, o.SchemaVersion, o.SourcePayloadID, nullStr(o.DocumentID), o.Extractor,
				o.ObservedAt, o.SpecificityScore, o.SourcePriority, string(o.Fields), nullRaw(o.Span), o.CreatedAt)
		}
		_, err := q.ExecContext(ctx, `INSERT INTO observations(observation_id, entity_id, entity_type, schema_version, source_payload_id,
			document_id, extractor, observed_at, specificity_score, source_priority, fields, span, created_at)
			VALUES `+placeholders(len(part), 13)+` ON CONFLICT DO NOTHING`, args...)
		if err != nil {
			return fmt.Errorf("insert observations: %w", err)
		}
		return nil
	})
}

// GetSnapshots reads the materialised snapshots of several entities (missing ones are absent).
func GetSnapshots(ctx context.Context, q Q, ids []string) (map[string]SnapshotRow, error) {
	out := make(map[string]SnapshotRow, len(ids))
	err := inBatches(ids, func(part []string) error {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT entity_id, entity_type, schema_version, snapshot, provenance, state, observation_count,
			last_observation_at, computed_at FROM snapshots WHERE entity_id IN (`+qmarks(len(part))+`)`, args...)
		if err != nil {
			return fmt.Errorf("get snapshots: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var s SnapshotRow
			var snap, prov, state string
			if err := rows.Scan(&s.EntityID, &s.EntityType, &s.SchemaVersion, &snap, &prov, &state, &s.ObservationCount, &s.LastObservationAt, &s.ComputedAt); err != nil {
				return fmt.Errorf("scan snapshot: %w", err)
			}
			s.Snapshot, s.Provenance, s.State = json.RawMessage(snap), json.RawMessage(prov), json.RawMessage(state)
			out[s.EntityID] = s
		}
		return rows.Err()
	})
	return out, err
}

// PutSnapshots writes several materialised snapshots.
func PutSnapshots(ctx context.Context, q Q, list []SnapshotRow) error {
	return inBatches(list, func(part []SnapshotRow) error {
		args := make([]any, 0, len(part)*9)
		for _, s := range part {
			args = append(args, s.EntityID, s.EntityType, s.SchemaVersion, string(s.Snapshot), string(s.Provenance), string(s.State),
				s.ObservationCount, s.LastObservationAt, s.ComputedAt)
		}
		_, err := q.ExecContext(ctx, `INSERT INTO snapshots(entity_id, entity_type, schema_version, snapshot, provenance, state,
			observation_count, last_observation_at, computed_at) VALUES `+placeholders(len(part), 9)+`
			ON CONFLICT(entity_id) DO UPDATE SET entity_type=excluded.entity_type, schema_version=excluded.schema_version,
			snapshot=excluded.snapshot, provenance=excluded.provenance, state=excluded.state,
			observation_count=excluded.observation_count, last_observation_at=excluded.last_observation_at, computed_at=excluded.computed_at`, args...)
		if err != nil {
			return fmt.Errorf("put snapshots: %w", err)
		}
		return nil
	})
}

// InsertRelationships stores edges; ones that exist already are left alone.
func InsertRelationships(ctx context.Context, q Q, list []Relationship) error {
	return inBatches(list, func(part []Relationship) error {
		args := make([]any, 0, len(part)*7)
		for _, r := range part {
			args = append(args, r.ID, r.RelationshipType, r.SourceEntityID, r.TargetEntityID, nullRaw(r.Metadata), nullStr(r.SourcePayloadID), r.CreatedAt)
		}
		_, err := q.ExecContext(ctx, `INSERT INTO relationships(relationship_id, relationship_type, source_entity_id, target_entity_id, metadata,
			source_payload_id, created_at) VALUES `+placeholders(len(part), 7)+` ON CONFLICT DO NOTHING`, args...)
		if err != nil {
			return fmt.Errorf("insert relationships: %w", err)
		}
		return nil
	})
}
