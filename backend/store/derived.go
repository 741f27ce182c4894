package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// DerivedLink is an edge an enrichment derived (migration 0008): kept apart from the asserted
// relationships table, with who derived it, how strongly, and on what evidence.
type DerivedLink struct {
	ID               string          `json:"id"`
	RelationshipType string          `json:"relationship_type"`
	SourceEntityID   string          `json:"source_entity_id"`
	TargetEntityID   string          `json:"target_entity_id"`
	Enrichment       string          `json:"enrichment"`
	Version          string          `json:"version"`
	Score            float64         `json:"score"`
	Evidence         json.RawMessage `json:"evidence"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	CreatedAt        string          `json:"created_at"`
	UpdatedAt        string          `json:"updated_at"`
	// EvidenceDocs are the documents whose content the link rests on (not a column: rows of
	// derived_evidence). A change to any of them retracts the link.
	EvidenceDocs []string `json:"-"`
}

// LinkScope selects the derived links one enrichment run is responsible for, so that a run
// replaces exactly what it recomputed: the links of Enrichment (and, if set, of one of Types)
// with an end in Touching, or, if SourceIn is set, whose source is in SourceIn.
type LinkScope struct {
	Enrichment string
	Types      []string
	Touching   []string
	SourceIn   []string
}

func (s LinkScope) where() (string, []any) {
	// With ends to look for, the unary + keeps SQLite off the enrichment index: that index
	// holds every link of the enrichment, so a run scanned the whole store's links to find a
	// document's few (the source/target indexes find them directly).
	col := "enrichment = ?"
	if len(s.Touching) > 0 || len(s.SourceIn) > 0 {
		col = "+enrichment = ?"
	}
	w := []string{col}
	args := []any{s.Enrichment}
	if len(s.Types) > 0 {
		w = append(w, "relationship_type IN ("+qmarks(len(s.Types))+")")
		for _, t := range s.Types {
			args = append(args, t)
		}
	}
	if len(s.Touching) > 0 {
		ph := qmarks(len(s.Touching))
		w = append(w, "(source_entity_id IN ("+ph+") OR target_entity_id IN ("+ph+"))")
		for range 2 {
			for _, id := range s.Touching {
				args = append(args, id)
			}
		}
	}
	if len(s.SourceIn) > 0 {
		w = append(w, "source_entity_id IN ("+qmarks(len(s.SourceIn))+")")
		for _, id := range s.SourceIn {
			args = append(args, id)
		}
	}
	return strings.Join(w, " AND "), args
}

const derivedCols = `link_id, relationship_type, source_entity_id, target_entity_id, enrichment, version, score, evidence, metadata, created_at, updated_at`

func scanDerived(sc interface{ Scan(...any) error }) (DerivedLink, error) {
	var l DerivedLink
	var ev string
	var meta sql.NullString
	err := sc.Scan(&l.ID, &l.RelationshipType, &l.SourceEntityID, &l.TargetEntityID, &l.Enrichment, &l.Version, &l.Score, &ev, &meta, &l.CreatedAt, &l.UpdatedAt)
	l.Evidence = json.RawMessage(ev)
	if meta.Valid {
		l.Metadata = json.RawMessage(meta.String)
	}
	return l, err
}

// ReplaceDerived makes the derived links in scope exactly links: those no longer derived are
// deleted (with their evidence rows), new ones inserted, changed ones updated. A link that is
// the same as before (score, evidence, metadata, version) is left untouched, so running an
// enrichment twice writes nothing the second time. It returns how many rows it changed.
func ReplaceDerived(ctx context.Context, q Q, scope LinkScope, links []DerivedLink, now string) (int, error) {
	return ReplaceDerivedNoting(ctx, q, scope, links, now, nil)
}

// ReplaceDerivedNoting is ReplaceDerived that also tells changed (if not nil) about every link
// it wrote or deleted, so that an enrichment running later in the same job (DiscoveryGap) can
// revisit exactly the pairs whose links changed.
func ReplaceDerivedNoting(ctx context.Context, q Q, scope LinkScope, links []DerivedLink, now string, changed func(DerivedLink)) (int, error) {
	for _, l := range links {
		if l.Enrichment != scope.Enrichment {
			return 0, fmt.Errorf("derived link %s is %s's, not %s's", l.ID, l.Enrichment, scope.Enrichment)
		}
	}
	w, args := scope.where()
	return replaceScoped(ctx, q, scoped[DerivedLink]{
		what: "derived links", idCol: "link_id", query: `SELECT ` + derivedCols + ` FROM derived_links WHERE ` + w, args: args, scan: scanDerived,
		id:   func(l DerivedLink) string { return l.ID },
		docs: func(l DerivedLink) []string { return l.EvidenceDocs },
		same: func(prev, l DerivedLink) bool {
			return prev.RelationshipType == l.RelationshipType && prev.Version == l.Version && prev.Score == l.Score &&
				bytes.Equal(prev.Evidence, l.Evidence) && bytes.Equal(prev.Metadata, l.Metadata)
		},
		write: func(l, prev DerivedLink, had bool) (bool, error) {
			// A link in another run's scope before keeps its birth: the upsert leaves created_at.
			created := now
			if had {
				created = prev.CreatedAt
			}
			if _, err := q.ExecContext(ctx, `INSERT INTO derived_links(`+derivedCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?)
				ON CONFLICT(link_id) DO UPDATE SET relationship_type = excluded.relationship_type, version = excluded.version,
					score = excluded.score, evidence = excluded.evidence, metadata = excluded.metadata, updated_at = excluded.updated_at`,
				l.ID, l.RelationshipType, l.SourceEntityID, l.TargetEntityID, l.Enrichment, l.Version, l.Score, string(orEmptyArray(l.Evidence)),
				nullRaw(l.Metadata), created, now); err != nil {
				return false, fmt.Errorf("write derived link: %w", err)
			}
			return true, nil
		},
		drop: func(l DerivedLink) error {
			if _, err := q.ExecContext(ctx, `DELETE FROM derived_links WHERE link_id = ?`, l.ID); err != nil {
				return fmt.Errorf("delete derived link: %w", err)
			}
			return nil
		},
		changed: changed,
	}, links)
}

func orEmptyArray(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("[]")
	}
	return b
}

func deleteDerived(ctx context.Context, q Q, id string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM derived_links WHERE link_id = ?`, id); err != nil {
		return fmt.Errorf("delete derived link: %w", err)
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM derived_evidence WHERE item_id = ?`, id); err != nil {
		return fmt.Errorf("delete derived evidence: %w", err)
	}
	return nil
}

func evidenceDocs(ctx context.Context, q Q, item string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT document_id FROM derived_evidence WHERE item_id = ? ORDER BY document_id`, item)
	if err != nil {
		return nil, fmt.Errorf("read derived evidence: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, fmt.Errorf("scan derived evidence: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

func dedupSorted(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	j := 0
	for i, s := range out {
		if s == "" || (i > 0 && s == out[i-1]) {
			continue
		}
		out[j] = s
		j++
	}
	return out[:j]
}

func setEvidenceDocs(ctx context.Context, q Q, item string, docs []string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM derived_evidence WHERE item_id = ?`, item); err != nil {
		return fmt.Errorf("replace derived evidence: %w", err)
	}
	return inBatches(dedupSorted(docs), func(part []string) error {
		args := make([]any, 0, 2*len(part))
		for _, d := range part {
			args = append(args, d, item)
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO derived_evidence(document_id, item_id) VALUES `+placeholders(len(part), 2), args...); err != nil {
			return fmt.Errorf("write derived evidence: %w", err)
		}
		return nil
	})
}

// GetDerived reads one derived link by ID.
func GetDerived(ctx context.Context, q Q, id string) (DerivedLink, error) {
	l, err := scanDerived(q.QueryRowContext(ctx, `SELECT `+derivedCols+` FROM derived_links WHERE link_id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return l, ErrNotFound
	}
	if err != nil {
		return l, fmt.Errorf("get derived link: %w", err)
	}
	l.EvidenceDocs, err = evidenceDocs(ctx, q, id)
	return l, err
}

// RetractEvidence deletes every derived link and open suggestion that rests on document: what
// a document that changed, failed or went away caused no longer stands. Accepted and dismissed
// suggestions are decisions, not derivations, and stay. It returns how many items went.
func RetractEvidence(ctx context.Context, q Q, documentID string) (int, error) {
	rows, err := q.QueryContext(ctx, `SELECT item_id FROM derived_evidence WHERE document_id = ? ORDER BY item_id`, documentID)
	if err != nil {
		return 0, fmt.Errorf("read evidence of %s: %w", documentID, err)
	}
	var items []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, fmt.Errorf("scan evidence: %w", err)
		}
		items = append(items, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("read evidence of %s: %w", documentID, err)
	}
	n := 0
	for _, id := range items {
		if strings.HasPrefix(id, "sug_") {
			res, err := q.ExecContext(ctx, `DELETE FROM suggestions WHERE suggestion_id = ? AND state = 'open'`, id)
			if err != nil {
				return n, fmt.Errorf("retract suggestion: %w", err)
			}
			k, _ := res.RowsAffected()
			if k == 0 {
				continue // decided: kept, with its evidence rows (they say what it was about)
			}
			if _, err := q.ExecContext(ctx, `DELETE FROM derived_evidence WHERE item_id = ?`, id); err != nil {
				return n, fmt.Errorf("retract suggestion evidence: %w", err)
			}
			n++
			continue
		}
		if err := deleteDerived(ctx, q, id); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// DeleteDerivedOf deletes every derived link and open suggestion of one enrichment (it was
// switched off); it returns how many.
func DeleteDerivedOf(ctx context.Context, q Q, enrichment string) (int, error) {
	n := 0
	for _, s := range []string{
		`DELETE FROM derived_evidence WHERE item_id IN (SELECT link_id FROM derived_links WHERE enrichment = ?)`,
		`DELETE FROM derived_links WHERE enrichment = ?`,
		`DELETE FROM derived_evidence WHERE item_id IN (SELECT suggestion_id FROM suggestions WHERE enrichment = ? AND state = 'open')`,
		`DELETE FROM suggestions WHERE enrichment = ? AND state = 'open'`,
	} {
		res, err := q.ExecContext(ctx, s, enrichment)
		if err != nil {
			return n, fmt.Errorf("delete %s's derived links: %w", enrichment, err)
		}
		if !strings.HasPrefix(s, "DELETE FROM derived_evidence") {
			k, _ := res.RowsAffected()
			n += int(k)
		}
	}
	return n, nil
}

// DerivedFilter selects derived links for a listing.
type DerivedFilter struct {
	EntityID   string // required
	Direction  string // inbound | outbound | both
	Type       string
	Enrichment string
	MinScore   float64
}

func (f DerivedFilter) where() (string, []any) {
	var w []string
	var args []any
	switch f.Direction {
	case "outbound":
		w, args = append(w, "source_entity_id = ?"), append(args, f.EntityID)
	case "inbound":
		w, args = append(w, "target_entity_id = ?"), append(args, f.EntityID)
	default:
		w, args = append(w, "(source_entity_id = ? OR target_entity_id = ?)"), append(args, f.EntityID, f.EntityID)
	}
	if f.Type != "" {
		w, args = append(w, "relationship_type = ?"), append(args, f.Type)
	}
	if f.Enrichment != "" {
		w, args = append(w, "+enrichment = ?"), append(args, f.Enrichment) // the entity's ends find the rows
	}
	if f.MinScore > 0 {
		w, args = append(w, "score >= ?"), append(args, f.MinScore)
	}
	return strings.Join(w, " AND "), args
}

// ListDerived pages through an entity's derived links, strongest first, ties by ID.
func ListDerived(ctx context.Context, q Q, f DerivedFilter, limit, offset int) ([]DerivedLink, int, error) {
	w, args := f.where()
	var total int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM derived_links WHERE `+w, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count derived links: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT `+derivedCols+` FROM derived_links WHERE `+w+` ORDER BY score DESC, link_id LIMIT ? OFFSET ?`,
		append(args, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list derived links: %w", err)
	}
	defer rows.Close()
	out := []DerivedLink{}
	for rows.Next() {
		l, err := scanDerived(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("scan derived link: %w", err)
		}
		out = append(out, l)
	}
	return out, total, rows.Err()
}

// DerivedCounts counts derived links by enrichment and open suggestions by enrichment from the
// rows themselves: the oracle CountDerived's counters are tested against.
func DerivedCounts(ctx context.Context, q Q) (links, suggestions map[string]int, err error) {
	links, suggestions = map[string]int{}, map[string]int{}
	for _, c := range []struct {
		sql string
		dst map[string]int
	}{
		{`SELECT enrichment, count(*) FROM derived_links GROUP BY enrichment`, links},
		{`SELECT enrichment, count(*) FROM suggestions WHERE state = 'open' GROUP BY enrichment`, suggestions},
	} {
		rows, err := q.QueryContext(ctx, c.sql)
		if err != nil {
			return nil, nil, fmt.Errorf("count derived: %w", err)
		}
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("count derived: %w", err)
			}
			c.dst[k] = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("count derived: %w", err)
		}
	}
	return links, suggestions, nil
}

// EnrichmentState is what an enrichment last ran with (migration 0008).
type EnrichmentState struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	SettingsHash string `json:"settings_hash"`
	Enabled      bool   `json:"enabled"`
	UpdatedAt    string `json:"updated_at"`
}

// EnrichmentStates reads every recorded enrichment state, by name.
func EnrichmentStates(ctx context.Context, q Q) (map[string]EnrichmentState, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, version, settings_hash, enabled, updated_at FROM enrichment_state`)
	if err != nil {
		return nil, fmt.Errorf("read enrichment state: %w", err)
	}
	defer rows.Close()
	out := map[string]EnrichmentState{}
	for rows.Next() {
		var s EnrichmentState
		if err := rows.Scan(&s.Name, &s.Version, &s.SettingsHash, &s.Enabled, &s.UpdatedAt); err != nil {
			return nil, fmt.Errorf("scan enrichment state: %w", err)
		}
		out[s.Name] = s
	}
	return out, rows.Err()
}

// PutEnrichmentState records what an enrichment runs with now.
func PutEnrichmentState(ctx context.Context, q Q, s EnrichmentState) error {
	_, err := q.ExecContext(ctx, `INSERT INTO enrichment_state(name, version, settings_hash, enabled, updated_at) VALUES (?,?,?,?,?)
		ON CONFLICT(name) DO UPDATE SET version = excluded.version, settings_hash = excluded.settings_hash,
			enabled = excluded.enabled, updated_at = excluded.updated_at`, s.Name, s.Version, s.SettingsHash, s.Enabled, s.UpdatedAt)
	if err != nil {
		return fmt.Errorf("write enrichment state: %w", err)
	}
	return nil
}

// EnqueueEnrichAll queues an enrich job for every document that is not removed or failed (an
// enrichment's version or settings changed, or the vector space switched); it returns how many.
func EnqueueEnrichAll(ctx context.Context, q Q, now string) (int, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO jobs(document_id, payload_id, phase, state, not_before, created_at, updated_at)
		SELECT document_id, coalesce(payload_id, ''), 'enrich', 'queued', ?, ?, ? FROM documents WHERE status NOT IN ('removed', 'failed') AND true
		ON CONFLICT(document_id, phase, payload_id) DO UPDATE SET
			state = 'queued', attempts = 0, not_before = excluded.not_before, error = NULL,
			lease_owner = NULL, lease_until = NULL, updated_at = excluded.updated_at
		WHERE jobs.state NOT IN ('queued', 'running')`, now, now, now)
	if err != nil {
		return 0, fmt.Errorf("queue enrich jobs: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// EnrichBacklog counts enrich jobs queued or running.
func EnrichBacklog(ctx context.Context, q Q) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM jobs WHERE phase = 'enrich' AND state IN ('queued', 'running')`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count enrich backlog: %w", err)
	}
	return n, nil
}
