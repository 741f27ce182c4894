package engine

import (
	"context"

	"github.com/strata-app/strata/backend/store"
)

// Overview counts documents by type, status and day, for the library's chart.
func (e *Engine) Overview(ctx context.Context) (*store.Overview, error) {
	o, err := store.DocumentOverview(ctx, e.db.Reader())
	if err != nil {
		return nil, queryErr(err, "the overview")
	}
	return o, nil
}

// DocumentObservations lists what was observed in a document (at most 1000), each with the
// span it came from, so a reader can link facts to the text.
func (e *Engine) DocumentObservations(ctx context.Context, id string) ([]store.Observation, error) {
	if _, err := e.GetDocumentRow(ctx, id); err != nil {
		return nil, err
	}
	obs, err := store.DocumentObservations(ctx, e.db.Reader(), id, 1000)
	if err != nil {
		return nil, queryErr(err, "observations")
	}
	if obs == nil {
		obs = []store.Observation{}
	}
	return obs, nil
}
