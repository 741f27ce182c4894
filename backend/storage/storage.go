// Package storage recognises the disk's own failures (no space left, an I/O error) in the
// errors that SQLite and file writes return, turns them into one clear envelope (DISK_FULL,
// STORAGE_FAILED) whose hint says what a person can do, and keeps the data folder's storage
// condition for `index_status`, `strata status` and the app.
//
// Why a package of its own: a full disk reaches Strata through many doors (a claim, a batch
// commit, a checkpoint, an upload) and each door used to report it as whatever that door
// reports (DB_INSERT_FAILED, INTERNAL_ERROR) or not at all (checkpoints). Classifying in one
// place keeps the code, the hint and the state the same whichever door the fault came in by.
package storage

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/strata-app/strata/backend/errs"
)

// Kind is what kind of storage fault an error is.
type Kind int

const (
	// None: not a storage fault (or no error).
	None Kind = iota
	// Full: no space left on the device or over quota. It goes away when space returns.
	Full
	// IO: the device failed a read, write or sync. It does not go away by waiting.
	IO
)

// Classify tells whether err is a storage fault: SQLite's SQLITE_FULL or SQLITE_IOERR (any
// extended code), or ENOSPC, EDQUOT, EIO from a file operation. SQLite's message is matched
// too, for errors that crossed a boundary as text (a job's stored cause).
func Classify(err error) Kind {
	if err == nil {
		return None
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch {
		case se.Code()&0xff == sqlite3.SQLITE_FULL:
			return Full
		case se.Code() == sqlite3.SQLITE_IOERR_SHMSIZE:
			// The shared-memory index could not grow: SQLite's word for ENOSPC on the -shm
			// file (seen when every write fails as on a full disk), not a failing device.
			return Full
		case se.Code()&0xff == sqlite3.SQLITE_IOERR:
			return IO
		}
	}
	switch {
	case errors.Is(err, syscall.ENOSPC), errorsIsQuota(err):
		return Full
	case errors.Is(err, syscall.EIO):
		return IO
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "database or disk is full"), strings.Contains(msg, "no space left on device"):
		return Full
	case strings.Contains(msg, "disk I/O error"), strings.Contains(msg, "input/output error"):
		return IO
	}
	return None
}

// State is the data folder's storage condition.
type State string

const (
	StateOK      State = "ok"      // writes succeed
	StateFull    State = "full"    // the last write failed for lack of space; jobs pause until it returns
	StateFailing State = "failing" // the disk reported an I/O error
)

// Status is the storage block of `index_status`.
type Status struct {
	State State `json:"state"`
	// FreeBytes is the space left to Strata on the data folder's file system; -1 where the
	// operating system does not say.
	FreeBytes int64  `json:"free_bytes"`
	DataDir   string `json:"data_dir"`
	// Since is when the current fault was first seen (empty when ok).
	Since string `json:"since,omitempty"`
	// Error is the fault's envelope (absent when ok).
	Error *errs.Error `json:"error,omitempty"`
}

// Monitor keeps the data folder's storage condition. It is safe for concurrent use.
type Monitor struct {
	dir string
	log *slog.Logger
	now func() time.Time

	mu    sync.Mutex
	state State
	err   *errs.Error
	since time.Time
	seq   uint64 // counts faults, so a waiter can tell a fault that came after it started
}

// NewMonitor watches the storage of the data folder dir. log receives one error when a fault
// begins and one line when it ends, not one per failed write.
func NewMonitor(dir string, log *slog.Logger, now func() time.Time) *Monitor {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	return &Monitor{dir: dir, log: log, now: now, state: StateOK}
}

// Observe records err if it is a storage fault and returns the envelope to report instead of
// it; it returns nil when err is not a storage fault.
func (m *Monitor) Observe(err error) *errs.Error {
	k := Classify(err)
	if k == None {
		return nil
	}
	ee := Envelope(k, m.dir, err)
	var prev *errs.Error
	if errors.As(err, &prev) && (prev.Code == errs.DiskFull || prev.Code == errs.StorageFailed) {
		ee = prev // already reported as the disk's fault: keep it, not an envelope of an envelope
	}
	st := StateFull
	if k == IO {
		st = StateFailing
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq++
	if m.state != st {
		// Logged once per change of condition: a full disk fails every write, and a line per
		// write buried the one line that mattered (twenty a second, issue 12).
		m.log.Error("storage fault", "state", string(st), "code", ee.Code, "data", m.dir, "err", err)
		m.since = m.now()
	}
	m.state, m.err = st, ee
	return ee
}

// OK records that a write succeeded: a full disk has space again. An I/O failure stays
// until the process restarts, since a disk that failed once is not trusted by one success.
func (m *Monitor) OK() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state != StateFull {
		return
	}
	m.log.Info("storage has space again; jobs resume", "data", m.dir, "since", m.since)
	m.state, m.err, m.since = StateOK, nil, time.Time{}
}

// Fault returns the current fault's envelope (nil when ok) and a sequence number that grows
// with every fault observed.
func (m *Monitor) Fault() (*errs.Error, uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err, m.seq
}

// Status returns the storage block, with the free space measured now.
func (m *Monitor) Status() Status {
	m.mu.Lock()
	st := Status{State: m.state, DataDir: m.dir, Error: m.err}
	if !m.since.IsZero() {
		st.Since = m.since.UTC().Format(time.RFC3339)
	}
	m.mu.Unlock()
	st.FreeBytes = -1
	if free, ok := FreeBytes(m.dir); ok {
		st.FreeBytes = int64(min(free, 1<<62))
	}
	return st
}

// Envelope is the error a person reads for a storage fault of kind k on data folder dir.
func Envelope(k Kind, dir string, cause error) *errs.Error {
	if k == IO {
		return errs.Wrap(errs.StorageFailed, cause, "the disk holding the data folder reported an I/O error").
			With("data_dir", dir).
			WithHint("check the disk (dmesg, SMART), then run the command again; move the data folder with --data if it keeps failing")
	}
	e := errs.Wrap(errs.DiskFull, cause, "the disk holding the data folder is full").With("data_dir", dir)
	free, ok := FreeBytes(dir)
	where := MountPoint(dir)
	if ok {
		e.With("free_bytes", int64(min(free, 1<<62)))
		return e.WithHint("%s free on %s; free space or move the data folder (%s) with --data; waiting jobs resume when space returns", HumanBytes(free), where, dir)
	}
	return e.WithHint("free space on %s or move the data folder (%s) with --data; waiting jobs resume when space returns", where, dir)
}

// HumanBytes writes n as a person reads it: 0 B, 512 B, 1.2 MB, 3.4 GB (powers of 1000, as
// df -H and file managers show free space).
func HumanBytes(n uint64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit && exp < 5; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}
