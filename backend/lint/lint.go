// Package lint is a health check of what the store believes (issue 15, seed ADR-037's lint):
// one entity field given different values by sources that nothing reconciles, values that a
// much newer source no longer restates, entities and documents nothing connects, documents that
// name a known entity without a link to it, and concepts many documents use that none explains.
//
// A Check looks at one subject (an entity; a document is an entity of type document) and
// returns its findings plus every entity they rest on, so that a later run rechecks only the
// subjects whose inputs changed. Every finding has an ID derived from what it is about, so the
// same problem has the same ID in every run and every store built from the same files.
package lint

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/store"
)

// Kinds of finding.
const (
	Contradiction       = "contradiction"
	Stale               = "stale"
	Orphan              = "orphan"
	MissingLink         = "missing_link"
	UndocumentedConcept = "undocumented_concept"
)

// Kinds lists every kind in report order within one severity.
var Kinds = []string{Contradiction, Stale, MissingLink, UndocumentedConcept, Orphan}

// KnownKind reports whether k is a kind of finding.
func KnownKind(k string) bool { return slices.Contains(Kinds, k) }

// Severities, most urgent first.
const (
	High   = "high"   // the store holds two answers to one question
	Medium = "medium" // something is probably out of date or unlinked
	Low    = "low"    // worth a look
)

// SeverityRank orders severities: high first.
func SeverityRank(s string) int {
	switch s {
	case High:
		return 0
	case Medium:
		return 1
	case Low:
		return 2
	}
	return 3
}

// Scopes a finding belongs to (the request's scope filter).
const (
	ScopeEntities  = "entities"
	ScopeDocuments = "documents"
	ScopeConcepts  = "concepts"
)

// Evidence is a place in a source: the document and the line (or page) a person opens to see
// the claim, with the words quoted as the source has them.
type Evidence struct {
	DocumentID string `json:"document_id,omitempty"`
	EntityID   string `json:"entity_id,omitempty"`
	Path       string `json:"path,omitempty"`
	Title      string `json:"title,omitempty"`
	LineStart  int    `json:"line_start,omitempty"`
	LineEnd    int    `json:"line_end,omitempty"`
	Page       int    `json:"page,omitempty"`
	Quote      string `json:"quote,omitempty"`
	Date       string `json:"date,omitempty"`   // the source's own day (YYYY-MM-DD), when lint compared dates
	Source     string `json:"source,omitempty"` // a source that is not a document: the agent or client that submitted it
}

// Value is one of the values sources give a field, with where it came from.
type Value struct {
	Value         json.RawMessage `json:"value"`
	Shown         bool            `json:"shown"` // the snapshot shows this value today
	ObservationID string          `json:"observation_id"`
	ObservedAt    string          `json:"observed_at"`
	Source        Evidence        `json:"source"`
}

// Fix is one click that resolves (or helps resolve) a finding.
type Fix struct {
	Action string `json:"action"` // open | create_relationship
	Label  string `json:"label"`  // what the button says: "Open invoice-b.md at line 7", "Mark inv-b.md as correcting inv-a.md"
	// open: the document and line to show.
	DocumentID string `json:"document_id,omitempty"`
	Line       int    `json:"line,omitempty"`
	// create_relationship: the link to assert.
	RelationshipType string `json:"relationship_type,omitempty"`
	SourceEntityID   string `json:"source_entity_id,omitempty"`
	TargetEntityID   string `json:"target_entity_id,omitempty"`
}

// Finding is one thing lint found.
type Finding struct {
	ID          string     `json:"id"` // lint_ + hash of kind and what it is about
	Kind        string     `json:"kind"`
	Severity    string     `json:"severity"`
	Scope       string     `json:"scope"`
	Title       string     `json:"title"` // one sentence a person reads first
	EntityID    string     `json:"entity_id,omitempty"`
	EntityName  string     `json:"entity_name,omitempty"`
	DocumentIDs []string   `json:"document_ids"`
	Field       string     `json:"field,omitempty"`
	Values      []Value    `json:"values,omitempty"`
	Evidence    []Evidence `json:"evidence"`
	Hint        string     `json:"hint"`
	Fixes       []Fix      `json:"fixes,omitempty"`
}

// FindingID is a finding's ID: the kind and the parts that say what it is about.
func FindingID(kind string, key ...string) string {
	return "lint_" + ids.Hash(append([]string{"lint", kind}, key...)...)[:24]
}

// Checked says how much a run looked at: every subject on a full run, the changed ones after.
type Checked struct {
	Subjects  int  `json:"subjects"`  // subjects in the store
	Rechecked int  `json:"rechecked"` // subjects this run checked (all of them on a full run)
	Full      bool `json:"full"`      // this run checked everything (first run, new checks or parameters)
}

// Subject is what a check looks at.
type Subject struct {
	EntityID   string
	EntityType string
	Name       string // canonical name
	DocumentID string // for a document's entity: the document
}

// Params are a run's settings.
type Params struct {
	StalenessDays int
}

// Result is a check's answer for one subject: its findings and every entity ID they rest on
// (documents by their entity), so that a change to any of those rechecks the subject.
type Result struct {
	Findings  []Finding
	DependsOn []string
}

// Check finds one kind of finding.
type Check interface {
	Kind() string
	// Version changes when the check's logic does, so stored findings are recomputed.
	Version() string
	// Applies reports whether the check looks at subjects of this entity type.
	Applies(entityType string) bool
	Check(ctx context.Context, q store.Q, p Params, s Subject) (Result, error)
}

// Sort puts findings in report order: severity, kind, ID.
func Sort(fs []Finding) {
	kindRank := func(k string) int { return slices.Index(Kinds, k) }
	slices.SortFunc(fs, func(a, b Finding) int {
		if d := SeverityRank(a.Severity) - SeverityRank(b.Severity); d != 0 {
			return d
		}
		if d := kindRank(a.Kind) - kindRank(b.Kind); d != 0 {
			return d
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// Subjects lists every entity as a subject, in ID order.
func Subjects(ctx context.Context, q store.Q) ([]Subject, error) {
	rows, err := q.QueryContext(ctx, `SELECT e.entity_id, e.entity_type, e.canonical_name, COALESCE(d.document_id, '')
		FROM entities e LEFT JOIN documents d ON e.entity_type = 'document' AND d.entity_id = e.entity_id
		ORDER BY e.entity_id`)
	if err != nil {
		return nil, fmt.Errorf("lint subjects: %w", err)
	}
	defer rows.Close()
	var out []Subject
	for rows.Next() {
		var s Subject
		if err := rows.Scan(&s.EntityID, &s.EntityType, &s.Name, &s.DocumentID); err != nil {
			return nil, fmt.Errorf("lint subjects: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// RunFull runs every check on every subject and returns the findings in report order, each
// once. It is the reference the incremental run must agree with.
func RunFull(ctx context.Context, q store.Q, checks []Check, p Params) ([]Finding, error) {
	subs, err := Subjects(ctx, q)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []Finding
	for _, s := range subs {
		for _, c := range checks {
			if !c.Applies(s.EntityType) {
				continue
			}
			r, err := c.Check(ctx, q, p, s)
			if err != nil {
				return nil, fmt.Errorf("lint %s on %s: %w", c.Kind(), s.EntityID, err)
			}
			for _, f := range r.Findings {
				if !seen[f.ID] {
					seen[f.ID] = true
					out = append(out, f)
				}
			}
		}
	}
	Sort(out)
	return out, nil
}
