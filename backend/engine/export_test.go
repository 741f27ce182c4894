package engine

// Recounts is how many times the embedding census was counted (not answered from its cache).
func (e *Engine) Recounts() int64 { return e.emb.recounts.Load() }
