package engine

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/enrich"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/store"
)

// EnrichmentStatus is one enrichment's state, as index_status and `strata enrich status`
// report it.
type EnrichmentStatus struct {
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Enabled     bool              `json:"enabled"`
	ReactsTo    []enrich.Emission `json:"reacts_to"`
	Links       int               `json:"links"`       // derived links it holds now
	Suggestions int               `json:"suggestions"` // open suggestions it raised
}

// EnrichStatus is the enrichments' state and the backlog they share: documents whose enrich
// job is queued or running, and those whose last attempt failed.
type EnrichStatus struct {
	Enrichments []EnrichmentStatus `json:"enrichments"`
	Backlog     int                `json:"backlog"`
	Failed      int                `json:"failed"`
}

// EnrichStatus reports each registered enrichment and the shared backlog.
func (e *Engine) EnrichStatus(ctx context.Context) (*EnrichStatus, error) {
	return e.enrichStatus(ctx, nil)
}

// enrichStatus is EnrichStatus with the enrich jobs by state already counted (Status counts
// every job by phase and state in one pass), or nil to count them here.
func (e *Engine) enrichStatus(ctx context.Context, jobs map[string]int) (*EnrichStatus, error) {
	r := e.db.Reader()
	links, sugg, err := store.CountDerived(ctx, r)
	if err != nil {
		return nil, queryErr(err, "derived links")
	}
	out := &EnrichStatus{Enrichments: []EnrichmentStatus{}}
	for _, in := range e.enrich.List() {
		out.Enrichments = append(out.Enrichments, EnrichmentStatus{Name: in.Name, Version: in.Version, Enabled: in.Enabled,
			ReactsTo: in.ReactsTo, Links: links[in.Name], Suggestions: sugg[in.Name]})
	}
	if jobs != nil {
		out.Backlog, out.Failed = jobs[store.JobQueued]+jobs[store.JobRunning], jobs[store.JobFailed]
		return out, nil
	}
	// Counted in jobs_phase_state (0010): only the enrich jobs queued, running or failed are
	// read, each an index entry, not every done job of the store.
	err = r.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE state IN ('queued', 'running')), count(*) FILTER (WHERE state = 'failed')
		FROM jobs WHERE phase = 'enrich' AND state IN ('queued', 'running', 'failed')`).Scan(&out.Backlog, &out.Failed)
	if err != nil {
		return nil, queryErr(err, "enrich jobs")
	}
	return out, nil
}

// WaitEnriched processes jobs (in this process, unless its workers already run) until no enrich
// job is queued or running, so what a caller reads next includes every derived link.
func (e *Engine) WaitEnriched(ctx context.Context) error {
	if !e.runner.Running() {
		wctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); _ = e.runner.Run(wctx) }() // stopped and awaited below
		defer func() { stop(); <-done }()
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		ended := e.runner.BatchEnded()
		var n int
		err := e.db.Reader().QueryRowContext(ctx, `SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')
			AND (phase = 'enrich' OR phase = 'analyze')`).Scan(&n)
		if err != nil {
			return queryErr(err, "jobs")
		}
		if n == 0 {
			return nil
		}
		e.runner.Wake()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ended:
		case <-tick.C:
		}
	}
}

// EnrichRunResult is what `strata enrich run` did.
type EnrichRunResult struct {
	Enrichment string `json:"enrichment,omitempty"` // "" = every enabled enrichment
	Documents  int    `json:"documents"`
	Changed    int    `json:"changed"` // derived rows written or removed (0: nothing changed)
}

// RunEnrichment derives again: with a name, that enrichment (even if switched off) over every
// document, here and now; without, every document is queued for every enabled enrichment and
// the call waits for the backlog to clear.
func (e *Engine) RunEnrichment(ctx context.Context, name string) (*EnrichRunResult, error) {
	if name == "" {
		var n int
		err := e.db.WriteTx(ctx, func(tx *store.Tx) error {
			var err error
			n, err = store.EnqueueEnrichAll(ctx, tx, store.FormatTime(e.now()))
			return err
		})
		if err != nil {
			return nil, e.writeErr(err, "could not queue the enrichments")
		}
		if err := e.WaitEnriched(ctx); err != nil {
			return nil, err
		}
		return &EnrichRunResult{Documents: n}, nil
	}
	if !e.enrich.Has(name) {
		return nil, errs.New(errs.Validation, "no enrichment is called %q", name).With("field", "name").
			WithHint("one of %s", strings.Join(e.enrichmentNames(), ", "))
	}
	var docs []string
	rows, err := e.db.Reader().QueryContext(ctx, `SELECT document_id FROM documents ORDER BY document_id`)
	if err != nil {
		return nil, queryErr(err, "documents")
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, queryErr(err, "documents")
		}
		docs = append(docs, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, queryErr(err, "documents")
	}
	out := &EnrichRunResult{Enrichment: name, Documents: len(docs)}
	const batch = 64 // documents per transaction: short enough not to hold ingest back
	for i := 0; i < len(docs); i += batch {
		part := docs[i:min(i+batch, len(docs))]
		err := e.db.WriteTx(ctx, func(tx *store.Tx) error {
			now := store.FormatTime(e.now())
			for _, id := range part {
				n, err := e.enrich.RunOne(ctx, tx, name, id, now)
				if err != nil {
					return err
				}
				out.Changed += n
			}
			return nil
		})
		if err != nil {
			return nil, e.writeErr(err, "the enrichment failed")
		}
	}
	return out, nil
}

// writeErr is the envelope of a failed write: a storage fault as such, an envelope as is,
// anything else DB_INSERT_FAILED with what was being done.
func (e *Engine) writeErr(err error, what string) error {
	if ee := e.storageFault(err); ee != nil {
		return ee
	}
	if ee := (*errs.Error)(nil); errors.As(err, &ee) {
		return ee
	}
	return errs.Wrap(errs.DBInsertFailed, err, "%s", what).WithHint("nothing was written; retry")
}

// SuggestionItem is a suggestion with both ends named (as in a relationship listing).
type SuggestionItem struct {
	store.Suggestion
	Source EntityRef `json:"source"`
	Target EntityRef `json:"target"`
}

// SuggestionPage is a page of DiscoveryGap's suggestions.
type SuggestionPage struct {
	Suggestions []SuggestionItem `json:"suggestions"`
	Total       int              `json:"total"`
	Limit       int              `json:"limit"`
	Offset      int              `json:"offset"`
}

// Suggestions pages through suggestions in a state (open by default; "all" for every state).
func (e *Engine) Suggestions(ctx context.Context, state string, limit, offset int) (*SuggestionPage, error) {
	limit, offset, err := pageLimit(limit, offset)
	if err != nil {
		return nil, err
	}
	switch state {
	case "":
		state = store.SuggestionOpen
	case "all":
		state = ""
	case store.SuggestionOpen, store.SuggestionAccepted, store.SuggestionDismissed:
	default:
		return nil, errs.New(errs.Validation, "state %q is not open, accepted, dismissed or all", state).With("field", "state")
	}
	list, total, err := store.ListSuggestions(ctx, e.db.Reader(), state, limit, offset)
	if err != nil {
		return nil, queryErr(err, "suggestions")
	}
	ids := make([]string, 0, 2*len(list))
	for _, s := range list {
		ids = append(ids, s.SourceEntityID, s.TargetEntityID)
	}
	refs, err := store.EntityRefs(ctx, e.db.Reader(), ids)
	if err != nil {
		return nil, queryErr(err, "the suggestions' ends")
	}
	out := &SuggestionPage{Suggestions: make([]SuggestionItem, len(list)), Total: total, Limit: limit, Offset: offset}
	for i, s := range list {
		out.Suggestions[i] = SuggestionItem{Suggestion: s, Source: refs[s.SourceEntityID], Target: refs[s.TargetEntityID]}
	}
	return out, nil
}

// SuggestionDecision is the outcome of accepting or dismissing a suggestion.
type SuggestionDecision struct {
	Suggestion   store.Suggestion    `json:"suggestion"`
	Relationship *store.Relationship `json:"relationship,omitempty"` // the asserted edge an accept created
}

// DecideSuggestion accepts a suggestion — asserting a relationship of typ (RELATED_TO if
// empty) between its ends, as `relationships create` would — or dismisses it. Either way the
// decision is remembered: the pair is not suggested again.
func (e *Engine) DecideSuggestion(ctx context.Context, id string, accept bool, typ, by string) (*SuggestionDecision, error) {
	if !strings.HasPrefix(id, "sug_") {
		return nil, errs.New(errs.Validation, "%q is not a suggestion ID", id).With("field", "id").
			WithHint("suggestion IDs look like sug_…; list them with `strata suggestions`")
	}
	out := &SuggestionDecision{}
	err := e.db.WriteTx(ctx, func(tx *store.Tx) error {
		s, err := store.GetSuggestion(ctx, tx, id)
		if errors.Is(err, store.ErrNotFound) {
			return errs.New(errs.SuggestionNotFound, "no suggestion %s", id).With("id", id).
				WithHint("it may have been retracted (its evidence changed); list the open ones with `strata suggestions`")
		}
		if err != nil {
			return err
		}
		if s.State != store.SuggestionOpen {
			return errs.New(errs.SuggestionDecided, "suggestion %s was %s already", id, s.State).With("id", id).With("state", s.State)
		}
		now := store.FormatTime(e.now())
		state, relID := store.SuggestionDismissed, ""
		if accept {
			if typ == "" {
				typ = enrich.TypeRelatedTo
			}
			r, _, err := ingest.CreateRelationship(ctx, tx, store.Relationship{RelationshipType: typ, SourceEntityID: s.SourceEntityID,
				TargetEntityID: s.TargetEntityID, CreatedAt: now,
				Metadata: []byte(`{"accepted_suggestion":"` + s.ID + `"}`)})
			if err != nil {
				return err
			}
			out.Relationship, state, relID = &r, store.SuggestionAccepted, r.ID
		}
		if err := store.DecideSuggestion(ctx, tx, id, state, by, relID, now); err != nil {
			return err
		}
		out.Suggestion, err = store.GetSuggestion(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, e.writeErr(err, "could not record the decision")
	}
	return out, nil
}
