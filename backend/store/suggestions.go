package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Suggestion is a pair DiscoveryGap found related while nothing links them (migration 0008).
type Suggestion struct {
	ID             string          `json:"id"`
	SourceEntityID string          `json:"source_entity_id"`
	TargetEntityID string          `json:"target_entity_id"`
	Kind           string          `json:"kind"`
	Score          float64         `json:"score"`
	Reason         string          `json:"reason"`
	Evidence       json.RawMessage `json:"evidence"`
	Enrichment     string          `json:"enrichment"`
	Version        string          `json:"version"`
	State          string          `json:"state"` // open | accepted | dismissed
	RelationshipID string          `json:"relationship_id,omitempty"`
	DecidedBy      string          `json:"decided_by,omitempty"`
	DecidedAt      string          `json:"decided_at,omitempty"`
	CreatedAt      string          `json:"created_at"`
	UpdatedAt      string          `json:"updated_at"`
	// EvidenceDocs: as DerivedLink.EvidenceDocs (rows of derived_evidence).
	EvidenceDocs []string `json:"-"`
}

// Suggestion states.
const (
	SuggestionOpen      = "open"
	SuggestionAccepted  = "accepted"
	SuggestionDismissed = "dismissed"
)

const suggestionCols = `suggestion_id, source_entity_id, target_entity_id, kind, score, reason, evidence, enrichment, version, state,
	coalesce(relationship_id, ''), coalesce(decided_by, ''), coalesce(decided_at, ''), created_at, updated_at`

func scanSuggestion(sc interface{ Scan(...any) error }) (Suggestion, error) {
	var s Suggestion
	var ev string
	err := sc.Scan(&s.ID, &s.SourceEntityID, &s.TargetEntityID, &s.Kind, &s.Score, &s.Reason, &ev, &s.Enrichment, &s.Version, &s.State,
		&s.RelationshipID, &s.DecidedBy, &s.DecidedAt, &s.CreatedAt, &s.UpdatedAt)
	s.Evidence = json.RawMessage(ev)
	return s, err
}

// ReplaceSuggestions makes the open suggestions of enrichment with an end in touching exactly
// list. A pair that was accepted or dismissed is never raised again (its row is left as the
// decision made it); an unchanged open one is left untouched. It returns the rows changed.
func ReplaceSuggestions(ctx context.Context, q Q, enrichment string, touching []string, list []Suggestion, now string) (int, error) {
	if len(touching) == 0 {
		return 0, errors.New("replace suggestions: no scope")
	}
	ph := qmarks(len(touching))
	// The unary + keeps SQLite on the source/target indexes (a scope's few ends), off the
	// state index that holds every open suggestion.
	args := []any{enrichment}
	for range 2 {
		for _, id := range touching {
			args = append(args, id)
		}
	}
	return replaceScoped(ctx, q, scoped[Suggestion]{
		what: "suggestions", idCol: "suggestion_id", args: args, scan: scanSuggestion,
		query: `SELECT ` + suggestionCols + ` FROM suggestions WHERE +enrichment = ? AND +state = 'open'
			AND (source_entity_id IN (` + ph + `) OR target_entity_id IN (` + ph + `))`,
		id:   func(s Suggestion) string { return s.ID },
		docs: func(s Suggestion) []string { return s.EvidenceDocs },
		same: func(prev, s Suggestion) bool {
			return prev.Kind == s.Kind && prev.Score == s.Score && prev.Reason == s.Reason && prev.Version == s.Version &&
				bytes.Equal(prev.Evidence, s.Evidence)
		},
		write: func(s, prev Suggestion, had bool) (bool, error) {
			if !had {
				cur, err := GetSuggestion(ctx, q, s.ID)
				if err == nil && cur.State != SuggestionOpen {
					return false, nil // decided: remembered, not raised again
				}
				if err != nil && !errors.Is(err, ErrNotFound) {
					return false, err
				}
				prev, had = cur, err == nil
			}
			created := now
			if had {
				created = prev.CreatedAt
			}
			if _, err := q.ExecContext(ctx, `INSERT INTO suggestions(suggestion_id, source_entity_id, target_entity_id, kind, score, reason,
					evidence, enrichment, version, state, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,'open',?,?)
				ON CONFLICT(suggestion_id) DO UPDATE SET kind = excluded.kind, score = excluded.score, reason = excluded.reason,
					evidence = excluded.evidence, version = excluded.version, updated_at = excluded.updated_at
				WHERE suggestions.state = 'open'`,
				s.ID, s.SourceEntityID, s.TargetEntityID, s.Kind, s.Score, s.Reason, string(orEmptyArray(s.Evidence)), enrichment, s.Version,
				created, now); err != nil {
				return false, fmt.Errorf("write suggestion: %w", err)
			}
			return true, nil
		},
		drop: func(s Suggestion) error {
			if _, err := q.ExecContext(ctx, `DELETE FROM suggestions WHERE suggestion_id = ? AND state = 'open'`, s.ID); err != nil {
				return fmt.Errorf("retract suggestion: %w", err)
			}
			return nil
		},
	}, list)
}

// OpenSuggestionsTouching reads the open suggestions of enrichment with an end in touching, by
// ID.
func OpenSuggestionsTouching(ctx context.Context, q Q, enrichment string, touching []string) (map[string]Suggestion, error) {
	out := map[string]Suggestion{}
	err := inBatches(touching, func(part []string) error {
		ph := qmarks(len(part))
		args := []any{enrichment}
		for range 2 {
			for _, id := range part {
				args = append(args, id)
			}
		}
		rows, err := q.QueryContext(ctx, `SELECT `+suggestionCols+` FROM suggestions WHERE +enrichment = ? AND +state = 'open'
			AND (source_entity_id IN (`+ph+`) OR target_entity_id IN (`+ph+`))`, args...)
		if err != nil {
			return fmt.Errorf("read suggestions: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			sg, err := scanSuggestion(rows)
			if err != nil {
				return fmt.Errorf("scan suggestion: %w", err)
			}
			out[sg.ID] = sg
		}
		return rows.Err()
	})
	return out, err
}

// GetSuggestion reads one suggestion.
func GetSuggestion(ctx context.Context, q Q, id string) (Suggestion, error) {
	s, err := scanSuggestion(q.QueryRowContext(ctx, `SELECT `+suggestionCols+` FROM suggestions WHERE suggestion_id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return s, ErrNotFound
	}
	if err != nil {
		return s, fmt.Errorf("get suggestion: %w", err)
	}
	return s, nil
}

// ListSuggestions pages through suggestions in state ("" = every state), strongest first, ties
// by ID.
func ListSuggestions(ctx context.Context, q Q, state string, limit, offset int) ([]Suggestion, int, error) {
	where, args := "1", []any{}
	if state != "" {
		where, args = "state = ?", append(args, state)
	}
	var total int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM suggestions WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count suggestions: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT `+suggestionCols+` FROM suggestions WHERE `+where+` ORDER BY score DESC, suggestion_id LIMIT ? OFFSET ?`,
		append(args, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list suggestions: %w", err)
	}
	defer rows.Close()
	out := []Suggestion{}
	for rows.Next() {
		s, err := scanSuggestion(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("scan suggestion: %w", err)
		}
		out = append(out, s)
	}
	return out, total, rows.Err()
}

// DecideSuggestion records an open suggestion's acceptance (with the relationship it asserted)
// or dismissal; it is ErrNotFound when the suggestion is not open (gone, or decided already).
func DecideSuggestion(ctx context.Context, q Q, id, state, by, relationshipID, now string) error {
	if state != SuggestionAccepted && state != SuggestionDismissed {
		return fmt.Errorf("decide suggestion: state %q", state)
	}
	res, err := q.ExecContext(ctx, `UPDATE suggestions SET state = ?, decided_by = ?, decided_at = ?, relationship_id = ?, updated_at = ?
		WHERE suggestion_id = ? AND state = 'open'`, state, nullStr(strings.TrimSpace(by)), now, nullStr(relationshipID), now, id)
	if err != nil {
		return fmt.Errorf("decide suggestion: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
