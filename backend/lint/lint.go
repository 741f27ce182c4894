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
	// open an entity (a finding about an entity no document holds): the entity to show.
	EntityID string `json:"entity_id,omitempty"`
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

	// What a run stores beside the finding: the entity it is about, every other entity it
	// rests on (a change to one of them rechecks the subject), and for a value gone stale the
	// age difference in days it rests on (-1: none), which staleness_days filters.
	subject string
	refs    []string
	gapDays int
}

// FindingID is a finding's ID: the kind and the parts that say what it is about.
func FindingID(kind string, key ...string) string {
	return "lint_" + ids.Hash(append([]string{"lint", kind}, key...)...)[:24]
}

// Checked says how much a run looked at: every subject on a full run, the changed ones after.
type Checked struct {
	Subjects  int  `json:"subjects"`  // entities in the store (documents are entities too)
	Rechecked int  `json:"rechecked"` // subjects this run checked again (all of them on a full run)
	Full      bool `json:"full"`      // this run checked everything (first run, new checks, or most of the store changed)
}

// Env is what the checks read besides the store.
type Env struct {
	Q store.Q
	// Generated reports a document Strata wrote itself (answers filed back, lint reports): never
	// a source, a subject or evidence.
	Generated func(path string) bool
	// Policy is an entity type's merge policy for a field (spec.EntityType.Policy); "" for a
	// type the specs do not declare.
	Policy func(entityType, field string) string
	// Changes reports a field whose type declares the latest merge policy for it: the spec
	// saying the value changes over time (an address, a status), not a type's default.
	Changes func(entityType, field string) bool
	// PrimaryType is the type of a capability's primary entity (its first: the invoice of an
	// invoice payload), "" for an unknown capability.
	PrimaryType func(capability string) string

	memo *memo // a full run's reads of the whole store, shared by its checks
}

// Check finds one kind of finding.
//
// A check's subjects are entity IDs (a document by its entity). Check(nil) looks at every
// subject; Check(list) only at those, returning findings about them alone. Affected turns the
// entities marked as changed since the last run into the subjects whose findings may differ
// now; together with the subjects of stored findings that rest on a marked entity (Finding's
// refs), that is what a run after the first rechecks.
type Check interface {
	// Name identifies the check (stored with its findings); Kind is the kind of what it finds.
	Name() string
	Kind() string
	// Version changes when the check's logic does, so stored findings are recomputed.
	Version() string
	Affected(ctx context.Context, env Env, dirty []string) ([]string, error)
	Check(ctx context.Context, env Env, subjects []string) ([]Finding, error)
}

// Sort puts findings in report order: severity, kind, ID.
func Sort(fs []Finding) {
	slices.SortFunc(fs, func(a, b Finding) int {
		if d := SeverityRank(a.Severity) - SeverityRank(b.Severity); d != 0 {
			return d
		}
		if d := KindRank(a.Kind) - KindRank(b.Kind); d != 0 {
			return d
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// KindRank is a kind's place in report order within one severity.
func KindRank(k string) int { return slices.Index(Kinds, k) }
