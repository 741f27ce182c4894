// Package store owns Strata's SQLite database: schema migrations, connection settings and every
// query. It imports nothing else of Strata's, so the data model can be read in one place.
//
// Several processes may open one data folder at once (the GUI, `strata mcp`, a CLI call). WAL
// lets readers run beside one writer; every write transaction begins IMMEDIATE (_txlock) so it
// takes the write lock up front and waits in the busy handler instead of failing half-way with
// "database is locked"; and WriteTx retries the rare busy error that escapes the timeout.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrNotFound is returned by single-row reads that find nothing.
var ErrNotFound = errors.New("not found")

// TimeFormat is how every timestamp is stored: UTC, fixed width, so text order is time order.
const TimeFormat = "2006-01-02T15:04:05.000000000Z"

// FormatTime renders t in TimeFormat.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// BusyTimeout is how long a writer waits for another process's write lock.
const BusyTimeout = 30 * time.Second

// DB is an open Strata database: one writer connection and a pool of readers.
type DB struct {
	write      *sql.DB
	read       *sql.DB
	ckpt       *sql.DB // one connection that only runs checkpoints
	path       string
	writeStmts *stmtCache
	readStmts  *stmtCache
	commits    atomic.Int64
	ckptMu     sync.Mutex
	ckptErr    error // the first checkpoint failure not yet taken (TakeCheckpointErr)
	stop       context.CancelFunc
	done       chan struct{}
}

// Open opens (creating if needed) the database file at path and brings its schema up to date.
func Open(ctx context.Context, path string) (*DB, error) {
	w, err := sql.Open("sqlite", dsn(path, false, writerCacheKiB))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// One writer connection per process: writes queue here instead of fighting over the lock.
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", dsn(path, true, readerCacheKiB))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s for reading: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	c, err := sql.Open("sqlite", dsn(path, false, checkpointCacheKiB))
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("open %s for checkpoints: %w", path, err)
	}
	c.SetMaxOpenConns(1)
	db := &DB{write: w, read: r, ckpt: c, path: path, writeStmts: newStmtCache(), readStmts: newStmtCache(), done: make(chan struct{})}
	if err := db.migrate(ctx); err != nil {
		close(db.done)
		db.Close()
		return nil, err
	}
	cctx, cancel := context.WithCancel(context.Background())
	db.stop = cancel
	go db.checkpointer(cctx)
	return db, nil
}

// checkpointer copies committed WAL frames into the database file in the background, so that
// the commit that happens to cross SQLite's auto-checkpoint threshold does not pay for it on an
// ingest's latency. PASSIVE never blocks writers or readers; a checkpoint that finds another
// process checkpointing simply skips.
func (db *DB) checkpointer(ctx context.Context) {
	defer close(db.done)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	seen := int64(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		n := db.commits.Load()
		if n == seen {
			continue
		}
		seen = n
		// A failed checkpoint loses nothing (the frames stay in the WAL) and the next tick
		// retries it, but it is not swallowed: it is the first place a failing disk shows
		// (with synchronous=NORMAL a commit does not fsync; a checkpoint does), so it is kept
		// for TakeCheckpointErr, which the engine reports.
		_ = db.Checkpoint(ctx)
	}
}

// Checkpoint copies committed WAL frames into the database file and syncs it (PASSIVE: it
// skips frames another connection is using rather than wait). A failure is returned and also
// kept for TakeCheckpointErr, since the background checkpointer has no caller to return it to.
func (db *DB) Checkpoint(ctx context.Context) error {
	_, err := db.ckpt.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
	if err == nil || ctx.Err() != nil {
		return err // a cancelled checkpoint says nothing about the disk
	}
	err = fmt.Errorf("checkpoint %s: %w", db.path, err)
	db.ckptMu.Lock()
	if db.ckptErr == nil {
		db.ckptErr = err
	}
	db.ckptMu.Unlock()
	return err
}

// TakeCheckpointErr returns the first checkpoint failure since the last call (nil if none)
// and forgets it. A later checkpoint that succeeds does not erase it: with nothing left to
// copy, a checkpoint does not sync, so its success would hide a disk that failed a sync.
func (db *DB) TakeCheckpointErr() error {
	db.ckptMu.Lock()
	defer db.ckptMu.Unlock()
	err := db.ckptErr
	db.ckptErr = nil
	return err
}

// Page cache per connection, in KiB. SQLite's page cache lives outside the Go heap (modernc
// allocates it from its own C heap), so every connection's fills up to its size and stays
// resident: at 32 MiB each, the writer, four readers and the checkpointer could hold 190 MB,
// most of a serving process's 480–500 MB peak at 100k chunks. A miss costs a read syscall that
// the OS page cache answers (the file is shared by all connections and processes there), so
// only the writer keeps a large cache, where an ingest's index pages are dirtied and re-read
// within one transaction; readers get 8 MiB, which holds the upper levels of the indexes a
// search descends (FTS, chunks, documents), and the checkpointer, which reads only the WAL,
// needs none to speak of.
const (
	writerCacheKiB     = 32 << 10
	readerCacheKiB     = 8 << 10
	checkpointCacheKiB = 1 << 10
)

func dsn(path string, readOnly bool, cacheKiB int) string {
	q := url.Values{}
	for _, p := range []string{
		fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()),
		"journal_mode(WAL)",
		"synchronous(NORMAL)",
		"foreign_keys(1)",
		fmt.Sprintf("cache_size(-%d)", cacheKiB), // per connection: see writerCacheKiB
		"wal_autocheckpoint(20000)",              // a safety net: checkpoints normally run in the background (checkpointer)
		// The WAL file keeps the size of its largest burst unless told otherwise; after a
		// checkpoint that resets it, it is truncated back to this (64 MiB), so a long linking
		// run leaves no WAL of gigabytes behind for every reader to search through.
		"journal_size_limit(67108864)",
	} {
		q.Add("_pragma", p)
	}
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	}
	q.Set("_txlock", "immediate")
	return "file:" + path + "?" + q.Encode()
}

// Commits counts the write transactions this process has committed on db.
func (db *DB) Commits() int64 { return db.commits.Load() }

// Path is the database file's path.
func (db *DB) Path() string { return db.path }

// Close closes both pools.
func (db *DB) Close() error {
	if db.stop != nil {
		db.stop()
	}
	<-db.done
	// The last checkpoint runs here rather than inside SQLite's close, which keeps the WAL
	// and reports success when its checkpoint fails: a disk failing its sync would go unseen.
	var ckpt error
	if db.commits.Load() > 0 {
		ckpt = db.Checkpoint(context.Background())
	}
	db.readStmts.close()
	db.writeStmts.close()
	return errors.Join(ckpt, db.read.Close(), db.write.Close(), db.ckpt.Close())
}

// Reader runs queries on the reader pool with prepared statements.
func (db *DB) Reader() Q { return readQ{db: db.read, cache: db.readStmts} }

// ReadDB is the reader pool itself, for read transactions.
func (db *DB) ReadDB() *sql.DB { return db.read }

// SchemaVersion is the number of the last applied migration.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := db.read.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// checkMigrationNumbers refuses two migrations with one number, or a gap: the version would
// say both were applied when only the first was (two branches that each added "0009" once
// left a column missing, and every enrich job failed on it).
func checkMigrationNumbers[M any](sorted []M, key func(M) (int, string)) error {
	for i, m := range sorted {
		n, name := key(m)
		if n != i+1 {
			if i > 0 {
				if p, pname := key(sorted[i-1]); p == n {
					return fmt.Errorf("migrations %s and %s have one number", pname, name)
				}
			}
			return fmt.Errorf("migration %s: expected number %d (migrations are numbered 1, 2, 3 … without gaps)", name, i+1)
		}
	}
	return nil
}

// migrate applies the numbered migrations that are newer than PRAGMA user_version, each in its
// own IMMEDIATE transaction, re-reading the version inside it so two processes opening a new
// folder at once apply each migration exactly once.
func (db *DB) migrate(ctx context.Context) error {
	entries, err := fs.ReadDir(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("list migrations: %w", err)
	}
	type mig struct {
		n    int
		name string
	}
	var list []mig
	for _, e := range entries {
		n, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: name must start with a number", e.Name())
		}
		list = append(list, mig{n, e.Name()})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].n < list[j].n })
	if err := checkMigrationNumbers(list, func(m mig) (int, string) { return m.n, m.name }); err != nil {
		return err
	}
	// A store that is up to date is only read: opening it must not take the write lock, or
	// every reader (`strata status`, `strata mcp` launched by an AI client) waits behind the
	// process that is writing — 17 IMMEDIATE transactions, one per migration, made a reader
	// wait for as long as another process held the lock (32 s to 2.5 min while linking ran).
	current, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	for _, m := range list {
		if m.n <= current {
			continue
		}
		body, err := migrations.ReadFile("migrations/" + m.name)
		if err != nil {
			return fmt.Errorf("read migration %s: %w", m.name, err)
		}
		err = db.WriteTx(ctx, func(t *Tx) error {
			// migrations are multi-statement scripts: run them on the raw transaction, unprepared
			var v int
			if err := t.tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
				return err
			}
			if v >= m.n {
				return nil
			}
			if _, err := t.tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			_, err := t.tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.n))
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
	}
	return nil
}

// WriteTx runs fn in one IMMEDIATE transaction and commits it, or rolls it back if fn fails.
// A busy error (another process held the lock past the busy timeout) is retried with backoff,
// so callers never see "database is locked" under ordinary contention.
func (db *DB) WriteTx(ctx context.Context, fn func(tx *Tx) error) error {
	backoff := 20 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := db.writeOnce(ctx, fn)
		db.writeStmts.prepareWanted(ctx, db.write)
		if err == nil || !IsBusy(err) || attempt >= 5 {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(backoff):
		}
		backoff *= 2
	}
}

func (db *DB) writeOnce(ctx context.Context, fn func(tx *Tx) error) (err error) {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin write: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback() // the original error is what matters; rollback of a failed tx adds nothing
		}
	}()
	if err = fn(&Tx{tx: tx, cache: db.writeStmts}); err != nil {
		return err
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	db.commits.Add(1)
	return nil
}

// IsBusy reports whether err is SQLite's SQLITE_BUSY or SQLITE_LOCKED.
func IsBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return true
		}
	}
	return false
}
