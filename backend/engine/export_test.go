package engine

import (
	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/store"
)

// DB is the engine's database, for tests that check what its writes left there.
func (e *Engine) DB() *store.DB { return e.db }

// SetAskOptions replaces the extractive answer's options (nil: the defaults), for TestFitAsk.
func (e *Engine) SetAskOptions(o *answer.Options) { e.askOptions = o }
