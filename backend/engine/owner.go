package engine

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/errs"
)

// The background work of a data folder (watching its folders, running its queued jobs,
// building its semantic space) is done by one process at a time: the first Serve to take the
// folder's owner lock. Another process on the folder (`strata mcp` launched by an AI client
// beside the app, a second `strata serve`) answers readers only, and takes the work over when
// the owner ends. Two owners would each watch every folder, register each saved file twice,
// and link the same backlog side by side, taking the write lock in turns from each other and
// from the saved file a reader waits for.
const ownerFile = "background.lock"

// tryOwn takes the owner lock if no other process holds it, recording this process's pid in
// the file for people reading it; nil when another process owns the work.
func (e *Engine) tryOwn() (*os.File, error) {
	f, err := e.tryLockOwner()
	if f != nil {
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0) // informative only
		}
	}
	return f, err
}

// tryLockOwner takes the owner lock if it is free (nil when another process holds it).
func (e *Engine) tryLockOwner() (*os.File, error) {
	p := filepath.Join(e.cfg.DataDir, ownerFile)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot open %s", p)
	}
	ok, err := tryLock(f)
	if !ok {
		f.Close()
		if err != nil {
			return nil, errs.Wrap(errs.Internal, err, "cannot lock %s", p)
		}
		return nil, nil
	}
	return f, nil
}

// awaitOwnership returns the owner lock once this process holds it, trying again every
// interval; nil when ctx ends first.
func (e *Engine) awaitOwnership(ctx context.Context, every time.Duration) (io.Closer, error) {
	said := false
	for {
		f, err := e.tryOwn()
		if err != nil {
			// A folder where the lock cannot be made: work as before the lock, alone or not.
			e.log.Warn("cannot tell whether another process does the background work: doing it here", "err", err)
			return io.NopCloser(nil), nil
		}
		if f != nil {
			if said {
				e.log.Info("the other Strata process ended: this one does the background work now")
			}
			return f, nil
		}
		if !said {
			e.log.Info("another Strata process does this data folder's background work (watching, reading, linking): this one answers only",
				"owner", e.ownerPID())
			said = true
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-time.After(every):
		}
	}
}

// ownerPID is the pid the owner lock's file names (0 when it cannot be read).
func (e *Engine) ownerPID() int {
	b, err := os.ReadFile(filepath.Join(e.cfg.DataDir, ownerFile))
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// background tells who does the folder's background work. To know whether anyone does, a
// process that does not takes the lock for a moment: a Serve trying at that moment tries again
// at its next turn.
func (e *Engine) background() Background {
	if e.owning.Load() {
		return Background{Running: true, Here: true, PID: os.Getpid()}
	}
	f, err := e.tryLockOwner()
	if f != nil {
		f.Close()
		return Background{}
	}
	if err != nil {
		return Background{Running: true} // cannot tell: say nothing of whom
	}
	return Background{Running: true, PID: e.ownerPID()}
}
