package engine

import "github.com/strata-app/strata/backend/store"

// DB is the engine's database, for tests that check what its writes left there.
func (e *Engine) DB() *store.DB { return e.db }
