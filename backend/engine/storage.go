package engine

import (
	"context"
	"errors"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/storage"
)

// StorageStatus is the storage block of Status: whether the data folder's disk accepts writes.
type StorageStatus = storage.Status

// lowSpace is the free space under which Status reports the disk full before a write has
// failed: a process that has not written yet (`strata status`) still tells the truth about a
// disk that cannot take one more batch.
const lowSpace = 1 << 20

// storageFault returns the storage envelope for err (DISK_FULL, STORAGE_FAILED), recording
// the condition, or nil when err is not the disk's fault.
func (e *Engine) storageFault(err error) *errs.Error {
	if err == nil {
		return nil
	}
	return e.storage.Observe(err)
}

// claimed is the job runner's report of each claim: a failed claim on a full disk pauses the
// workers (the runner backs off) and a claim that succeeds again ends the condition. A
// checkpoint's failure is read here too, since claims are the store's heartbeat while it runs.
func (e *Engine) claimed(err error) {
	if err != nil {
		if e.storageFault(err) == nil {
			e.log.Debug("claim failed", "err", err) // the runner logged it once already
		}
		return
	}
	if cerr := e.db.TakeCheckpointErr(); e.storageFault(cerr) != nil {
		return
	}
	e.storage.OK()
}

// explain is the job runner's Explain: a job that failed on the disk records DISK_FULL
// (retryable: it backs off, space may return) or STORAGE_FAILED (not retried), never the
// internal error its raw SQLite cause would become.
func (e *Engine) explain(err error) error {
	if ee := e.storageFault(err); ee != nil {
		return ee
	}
	return nil
}

// StorageStatus reports the data folder's storage: the fault this process saw last, the
// last checkpoint's failure, and the free space measured now.
func (e *Engine) StorageStatus() StorageStatus {
	_ = e.storageFault(e.db.TakeCheckpointErr()) // recorded; Status below reports it
	st := e.storage.Status()
	if st.State == storage.StateOK && st.FreeBytes >= 0 && st.FreeBytes < lowSpace {
		st.State = storage.StateFull
		st.Error = storage.Envelope(storage.Full, st.DataDir, errors.New("free space is below 1 MB"))
	}
	return st
}

// syncStore checkpoints the store so that what a waited ingest reports done is on the disk
// itself, not only in the write-ahead log: a failing sync (EIO) then fails the command
// instead of passing unseen. Only a storage fault is returned; another checkpoint failure
// leaves the frames in the WAL, where the next checkpoint copies them.
func (e *Engine) syncStore(ctx context.Context) error {
	err := e.db.Checkpoint(ctx)
	if ee := e.storageFault(err); ee != nil {
		return ee
	}
	if err != nil && ctx.Err() == nil {
		e.log.Warn("checkpoint after waiting", "err", err)
	}
	return nil
}
