package enrich

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/store"
)

// DiscoveryGap raises suggestions for pairs that look related — a strong SIMILAR_TO or
// CO_OCCURS_WITH link, derived by the enrichments before it — while nothing a source asserted
// links them, no derived DUPLICATE_OF or CONTAINED_IN says what they are to each other, and
// they refer to no common entity (a concept, a person): "these look related; nothing links
// them". A person or an agent accepts one (it becomes an asserted RELATED_TO)
// or dismisses it; either decision is remembered and the pair is not raised again.
//
// It revisits, for each document's job, the pairs around the document and around every link
// the job's earlier enrichments wrote or deleted (Run.Touched), so a suggestion follows its
// link: the link goes, the suggestion goes. An asserted relationship between the two ends
// retracts the open suggestion in the transaction that asserts it (migration 0009's trigger);
// a newly shared concept is a derived or asserted REFERS_TO written in a document's job,
// which touches the document and so revisits its pairs.
type DiscoveryGap struct {
	settings gapSettings
}

type gapSettings struct {
	// MinSimilarity: the SIMILAR_TO score a suggestion needs. 0.70 (docs/enrichments-research.md §1, static
	// space): the link starts at 0.60; unrelated pairs reach p99 0.585 and at most 0.657, so
	// above 0.70 a pair is worth a person's look.
	MinSimilarity float64 `json:"min_similarity"`
	// MinCoOccurrence: the CO_OCCURS_WITH score (Dice) a suggestion needs. 0.30 (docs/enrichments-research.md
	// §3): the link starts at 0.20; from 0.30 the pairs read as related (readable~writable
	// stream 0.35, buffer~byte 0.33), below it generic words pair up (function~parameter 0.21).
	MinCoOccurrence float64 `json:"min_co_occurrence"`
}

// Suggestion kinds: why a pair was raised.
const (
	KindSimilar  = "similar"
	KindCoOccurs = "co_occurs"
)

// Name implements Enrichment.
func (x *DiscoveryGap) Name() string { return "DiscoveryGap" }

// Version implements Enrichment.
func (x *DiscoveryGap) Version() string { return "1" }

// ReactsTo implements Enrichment.
func (x *DiscoveryGap) ReactsTo() []Emission {
	return []Emission{DocumentAnalyzed, ObservationsWritten, SpaceSwitched, DocumentRemoved}
}

// Configure implements Enrichment.
func (x *DiscoveryGap) Configure(params map[string]any) error {
	x.settings = gapSettings{MinSimilarity: 0.70, MinCoOccurrence: 0.30}
	if err := DecodeParams(params, &x.settings); err != nil {
		return err
	}
	if s := x.settings.MinSimilarity; s <= 0 || s > 1 {
		return &ParamError{Param: "min_similarity", Problem: "must be in (0, 1]"}
	}
	if s := x.settings.MinCoOccurrence; s <= 0 || s > 1 {
		return &ParamError{Param: "min_co_occurrence", Problem: "must be in (0, 1]"}
	}
	return nil
}

// SuggestionID is the ID of the suggestion about the pair a, b (either order): one per pair,
// so a decision about it holds whatever later raises it again.
func SuggestionID(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return "sug_" + ids.Hash("suggestion", a, b)[:24]
}

// Enrich implements Enrichment.
func (x *DiscoveryGap) Enrich(ctx context.Context, run *Run) error {
	// The pairs around the document: its own entity's, those of the entities it refers to or
	// mentions (co-occurring concepts, persons), and those of every entity whose links this
	// job changed.
	scope := map[string]bool{}
	add := func(list []string) {
		for _, id := range list {
			scope[id] = true
		}
	}
	if run.Doc.EntityID != "" {
		scope[run.Doc.EntityID] = true
		refs, err := store.LinkedFrom(ctx, run.Tx, run.Doc.EntityID)
		if err != nil {
			return err
		}
		add(refs)
	}
	mentioned, err := store.MentionedIn(ctx, run.Tx, run.Doc.DocumentID)
	if err != nil {
		return err
	}
	add(mentioned)
	add(run.Touched())
	if len(scope) == 0 {
		return nil
	}
	list := map[string]store.Suggestion{}
	for _, ent := range sortedKeys(scope) {
		if err := x.around(ctx, run, ent, list); err != nil {
			return err
		}
	}
	out := make([]store.Suggestion, 0, len(list))
	for _, id := range sortedKeys(list) {
		out = append(out, list[id])
	}
	n, err := store.ReplaceSuggestions(ctx, run.Tx, run.Name(), sortedKeys(scope), out, run.Now)
	run.changed += n
	return err
}

// around adds to list the suggestion of every pair entity is part of.
func (x *DiscoveryGap) around(ctx context.Context, run *Run, entity string, list map[string]store.Suggestion) error {
	links, err := store.DerivedTouching(ctx, run.Tx, entity, []string{TypeSimilar, TypeCoOccurs})
	if err != nil {
		return err
	}
	// The strongest reason per pair: a similarity before a co-occurrence, then the higher
	// score, then the link ID (links arrive by ID).
	best := map[string]store.DerivedLink{}
	for _, l := range links {
		if l.SourceEntityID == l.TargetEntityID || l.Score < x.minScore(l.RelationshipType) {
			continue
		}
		id := SuggestionID(l.SourceEntityID, l.TargetEntityID)
		if _, done := list[id]; done {
			continue
		}
		if b, ok := best[id]; ok && !x.better(l, b) {
			continue
		}
		best[id] = l
	}
	for _, id := range sortedKeys(best) {
		l := best[id]
		a, b := l.SourceEntityID, l.TargetEntityID
		if b < a {
			a, b = b, a
		}
		if linked, err := store.AssertedBetween(ctx, run.Tx, a, b); err != nil || linked {
			if err != nil {
				return err
			}
			continue
		}
		// A copy and its original, a chapter and the book that holds it: the store already says
		// what joins them, and "nothing links them" would not be true.
		if known, err := store.DerivedBetween(ctx, run.Tx, a, b, []string{TypeDuplicateOf, TypeContainedIn}); err != nil || known {
			if err != nil {
				return err
			}
			continue
		}
		shared, err := store.SharedReferents(ctx, run.Tx, a, b)
		if err != nil {
			return err
		}
		if len(shared) > 0 {
			continue
		}
		docs, err := store.EvidenceDocsOf(ctx, run.Tx, l.ID)
		if err != nil {
			return err
		}
		reason, err := x.reason(ctx, run, l, a, b)
		if err != nil {
			return err
		}
		kind := KindSimilar
		if l.RelationshipType == TypeCoOccurs {
			kind = KindCoOccurs
		}
		list[id] = store.Suggestion{ID: id, SourceEntityID: a, TargetEntityID: b, Kind: kind, Score: l.Score, Reason: reason,
			Evidence: l.Evidence, Enrichment: run.Name(), Version: run.Version(), EvidenceDocs: docs}
	}
	return nil
}

func (x *DiscoveryGap) minScore(typ string) float64 {
	if typ == TypeSimilar {
		return x.settings.MinSimilarity
	}
	return x.settings.MinCoOccurrence
}

// better reports whether l is a stronger reason for its pair than b.
func (x *DiscoveryGap) better(l, b store.DerivedLink) bool {
	if (l.RelationshipType == TypeSimilar) != (b.RelationshipType == TypeSimilar) {
		return l.RelationshipType == TypeSimilar
	}
	if l.Score != b.Score {
		return l.Score > b.Score
	}
	return l.ID < b.ID
}

// reason is the sentence a person reads: what the pair is, why it was raised, what is missing.
func (x *DiscoveryGap) reason(ctx context.Context, run *Run, l store.DerivedLink, a, b string) (string, error) {
	na, err := displayName(ctx, run, a)
	if err != nil {
		return "", err
	}
	nb, err := displayName(ctx, run, b)
	if err != nil {
		return "", err
	}
	why := fmt.Sprintf("look related (similarity %.2f)", l.Score)
	if l.RelationshipType == TypeCoOccurs {
		why = fmt.Sprintf("keep appearing together (co-occurrence %.2f)", l.Score)
	}
	return fmt.Sprintf("%s and %s %s; nothing links them and they share no concept.", na, nb, why), nil
}

// displayName names an entity for a sentence: a document by its path, anything else by its
// canonical name, quoted.
func displayName(ctx context.Context, run *Run, entity string) (string, error) {
	var name string
	// A document entity's identity key is its document ID (the primary key of documents).
	err := run.Tx.QueryRowContext(ctx, `SELECT coalesce(nullif(d.path, ''), e.canonical_name) FROM entities e
		LEFT JOIN documents d ON e.entity_type = 'document' AND d.document_id = e.identity_key WHERE e.entity_id = ?`, entity).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		name, err = entity, nil
	}
	if err != nil {
		return "", fmt.Errorf("name of %s: %w", entity, err)
	}
	return fmt.Sprintf("%q", name), nil
}
