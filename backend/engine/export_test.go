package engine

import "github.com/strata-app/strata/backend/store"

// Recounts is how many times the embedding census was counted (not answered from its cache).
func (e *Engine) Recounts() int64 { return e.emb.recounts.Load() }

// DB is the engine's database, for tests that check what its writes left there.
func (e *Engine) DB() *store.DB { return e.db }
