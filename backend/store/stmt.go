package store

import (
	"context"
	"database/sql"
	"sync"
)

// Parsing SQL dominates the cost of a small write with modernc's SQLite (about two thirds of an
// ingest before this cache), so statements are prepared once and reused.
//
// The writer pool has one connection, which a transaction holds; a statement cannot be prepared
// on the pool while inside one. So a query first seen inside a transaction runs unprepared and
// is remembered; WriteTx prepares the remembered queries after the transaction ends, and later
// transactions bind the prepared statement to themselves with Tx.StmtContext (same connection,
// no re-parse). Readers prepare lazily on their own pool.

const maxCachedStmts = 256 // queries are parameterised, so the set is small; this only bounds mistakes

type stmtCache struct {
	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	wanted map[string]bool
}

func newStmtCache() *stmtCache {
	return &stmtCache{stmts: map[string]*sql.Stmt{}, wanted: map[string]bool{}}
}

func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.stmts[query]
	if st == nil && len(c.stmts)+len(c.wanted) < maxCachedStmts {
		c.wanted[query] = true
	}
	return st
}

// prepareWanted prepares the queries remembered since the last call; db must be free (no
// transaction open on it from this goroutine).
func (c *stmtCache) prepareWanted(ctx context.Context, db *sql.DB) {
	c.mu.Lock()
	wanted := c.wanted
	c.wanted = map[string]bool{}
	c.mu.Unlock()
	for q := range wanted {
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			continue // the query already ran (or failed) unprepared; it will simply stay unprepared
		}
		c.mu.Lock()
		if c.stmts[q] == nil {
			c.stmts[q] = st
			st = nil
		}
		c.mu.Unlock()
		if st != nil {
			st.Close()
		}
	}
}

// get returns a statement prepared on db, preparing it now if needed (readers only).
func (c *stmtCache) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	st := c.stmts[query]
	full := len(c.stmts) >= maxCachedStmts
	c.mu.Unlock()
	if st != nil || full {
		return st, nil
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev := c.stmts[query]; prev != nil {
		st.Close()
		return prev, nil
	}
	c.stmts[query] = st
	return st, nil
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = map[string]*sql.Stmt{}
}

// Tx is a write transaction; its queries reuse prepared statements.
type Tx struct {
	tx    *sql.Tx
	cache *stmtCache
}

// ExecContext runs a statement in the transaction.
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.cache.lookup(query); st != nil {
		return t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

// QueryContext runs a query in the transaction.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.cache.lookup(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a one-row query in the transaction.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.cache.lookup(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}

// readQ runs reads on the reader pool with prepared statements.
type readQ struct {
	db    *sql.DB
	cache *stmtCache
}

func (r readQ) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := r.cache.get(ctx, r.db, query)
	if err != nil || st == nil {
		return r.db.ExecContext(ctx, query, args...)
	}
	return st.ExecContext(ctx, args...)
}

func (r readQ) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := r.cache.get(ctx, r.db, query)
	if err != nil || st == nil {
		return r.db.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

func (r readQ) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := r.cache.get(ctx, r.db, query)
	if err != nil || st == nil {
		return r.db.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}
