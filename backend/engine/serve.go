package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/paths"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/backend/watch"
)

// AddWatchRoot starts watching a folder: it is remembered in the store (so every Strata process
// on this data folder watches it) and its files are registered now. Watching a folder shares it
// with remote callers, so a remote caller may only watch a folder it may already read.
//
// While its files are registered the folder carries a scan lease (renewed here, cleared at
// the end), and no Serve loop reconciles a folder under a lease: the watcher's reconcile of a
// new folder used to race this registration and register ~3,900 of 5,000 files a second time.
// Serve reconciles it once the lease is gone, which finds every file unchanged unless one
// changed during the add.
func (e *Engine) AddWatchRoot(ctx context.Context, who Caller, dir string) (*Import, error) {
	if !who.Local() {
		real, err := e.pathCheck(who)(ctx, dir)
		if err != nil {
			return nil, err
		}
		dir = real
	}
	abs, err := e.checkRoot(dir)
	if err != nil {
		return nil, err
	}
	err = e.db.WriteTx(ctx, func(tx *store.Tx) error {
		if _, err := store.AddWatchRoot(ctx, tx, abs, store.FormatTime(e.now())); err != nil {
			return err
		}
		return store.SetRootScan(ctx, tx, abs, store.FormatTime(e.now().Add(rootScanLease)))
	})
	if err != nil {
		return nil, errs.Wrap(errs.DBInsertFailed, err, "could not save the watched folder")
	}
	hctx, stop := context.WithCancel(ctx)
	renewed := make(chan struct{})
	go func() { defer close(renewed); e.renewRootScan(hctx, abs) }() // stopped and awaited below
	imp, err := e.importPaths(ctx, who, []string{abs}, map[string]any{"source": who.Via()})
	stop()
	<-renewed
	if err == nil {
		if rerr := e.recordSkippedAssets(context.WithoutCancel(ctx), abs, imp.Summary.Ignored.Assets); rerr != nil {
			e.log.Warn("record the watched folder's skipped assets", "root", abs, "err", rerr)
		}
	}
	// Cleared even when ctx ended: otherwise the folder waits out the lease before Serve
	// reconciles it.
	cctx := context.WithoutCancel(ctx)
	if cerr := e.db.WriteTx(cctx, func(tx *store.Tx) error { return store.SetRootScan(cctx, tx, abs, "") }); cerr != nil {
		e.log.Warn("clear the watched folder's scan lease", "root", abs, "err", cerr)
	}
	return imp, err
}

// rootScanLease is how long a folder being added stays out of reconciles without a renewal: a
// process that died mid-add leaves its folder to the next reconcile after at most this.
const rootScanLease = 30 * time.Second

// renewRootScan renews root's scan lease every third of it until ctx ends.
func (e *Engine) renewRootScan(ctx context.Context, root string) {
	tick := time.NewTicker(rootScanLease / 3)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			err := e.db.WriteTx(ctx, func(tx *store.Tx) error {
				return store.SetRootScan(ctx, tx, root, store.FormatTime(e.now().Add(rootScanLease)))
			})
			if err != nil && ctx.Err() == nil {
				e.log.Warn("renew the watched folder's scan lease", "root", root, "err", err)
			}
		}
	}
}

func (e *Engine) checkRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", errs.New(errs.Validation, "cannot resolve %q", dir)
	}
	st, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", errs.New(errs.FileNotFound, "%s does not exist or cannot be read", abs).With("path", abs)
	case !st.IsDir():
		return "", errs.New(errs.Validation, "%s is not a folder", abs).WithHint("ingest single files with `strata ingest FILE`")
	}
	roots, err := store.WatchRoots(context.Background(), e.db.Reader())
	if err != nil {
		return "", queryErr(err, "watched folders")
	}
	for _, r := range roots {
		switch {
		case paths.Host.Equal(r, abs):
			return "", errs.New(errs.Validation, "%s is already watched", abs).WithHint("see the watched folders with `strata watch list`")
		case paths.Host.Inside(abs, r):
			return "", errs.New(errs.Validation, "%s is inside the watched folder %s", abs, r).WithHint("its files are already watched")
		case paths.Host.Inside(r, abs):
			return "", errs.New(errs.Validation, "%s contains the watched folder %s", abs, r).
				WithHint("remove %s first (`strata watch remove %s`), then watch the larger folder", r, r)
		}
	}
	data := e.cfg.DataDir
	if paths.Host.Within(data, abs) || paths.Host.Within(abs, data) {
		return "", errs.New(errs.Validation, "%s contains or is inside Strata's data folder %s", abs, data).
			WithHint("watch a folder that does not hold the data folder, or move the data folder with --data")
	}
	return abs, nil
}

// RemoveWatchRoot stops watching a folder. Its documents stay in the store. The folder may be
// spelled as the OS allows (C:\Notes for c:\notes on Windows): the watched folder it names is
// removed.
func (e *Engine) RemoveWatchRoot(ctx context.Context, dir string) (bool, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false, errs.New(errs.Validation, "cannot resolve %q", dir)
	}
	roots, err := store.WatchRoots(ctx, e.db.Reader())
	if err != nil {
		return false, queryErr(err, "watched folders")
	}
	for _, r := range roots {
		if r != abs && paths.Host.Equal(r, abs) {
			abs = r
			break
		}
	}
	var removed bool
	err = e.db.WriteTx(ctx, func(tx *store.Tx) error {
		removed, err = store.RemoveWatchRoot(ctx, tx, abs)
		return err
	})
	if err != nil {
		return false, errs.Wrap(errs.DBInsertFailed, err, "could not update the watched folders")
	}
	if !removed {
		return false, errs.New(errs.Validation, "%s is not watched", abs).WithHint("see the watched folders with `strata watch list`")
	}
	return true, nil
}

// WatchRoots lists the watched folders.
func (e *Engine) WatchRoots(ctx context.Context) ([]string, error) {
	roots, err := store.WatchRoots(ctx, e.db.Reader())
	if err != nil {
		return nil, queryErr(err, "watched folders")
	}
	return roots, nil
}

// Reconcile brings the store in line with a folder after Strata was closed: new and changed
// files are registered (a file whose size and mtime match the store is not even hashed) and
// files that are gone are marked removed. It reads every file of the folder, secrets included
// (the watcher's rules, not the remote ones), so only the local user may ask for it.
func (e *Engine) Reconcile(ctx context.Context, who Caller, root string) (registered, removed int, err error) {
	if !who.Local() {
		e.log.Info("remote reconcile refused", "caller", who.String(), "path", root)
		return 0, 0, forbidPath(root, "only the local user can reconcile a folder")
	}
	return e.reconcile(ctx, root)
}

// reconcile is Reconcile for the watcher, whose roots the local user chose (AddWatchRoot).
func (e *Engine) reconcile(ctx context.Context, root string) (registered, removed int, err error) {
	known, err := store.FileDocumentsUnder(ctx, e.db.Reader(), strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator), paths.Host.FoldsCase())
	if err != nil {
		return 0, 0, queryErr(err, "documents")
	}
	// Files are matched by the OS's rules: on Windows and macOS a document registered as
	// c:\notes\a.md is the file the walk finds as C:\Notes\a.md.
	key := paths.Host.Key
	byPath := make(map[string]store.Document, len(known))
	for _, d := range known {
		byPath[key(d.Path)] = d
	}
	seen := map[string]bool{}
	var changed []string
	ig := e.Ignorer()
	ignored, err := watch.WalkCounting(ctx, root, ig, func(path string, info fs.FileInfo) error {
		seen[key(path)] = true
		if d, ok := byPath[key(path)]; ok && unchanged(d, info) {
			return nil
		}
		changed = append(changed, path)
		return ctx.Err()
	})
	var skip *watch.SkipError
	if err != nil && !errors.As(err, &skip) {
		return 0, 0, err
	}
	if err := e.recordSkippedAssets(ctx, root, ignored.Assets); err != nil {
		return 0, 0, err
	}
	if len(changed) > 0 {
		reg := e.progress.beginRegistration(false)
		if err := e.beginProgressRun(ctx); err != nil {
			reg.end()
			return 0, 0, err
		}
		reg.found(len(changed))
		for _, r := range e.register(ctx, reg, changed, map[string]any{"source": "reconcile"}) {
			if r.Err == nil {
				registered++
			}
		}
		reg.end()
	}
	for _, d := range known {
		if seen[key(d.Path)] {
			continue
		}
		_, err := os.Stat(d.Path)
		// Gone, or an asset an older Strata read (a minified script, a search index, a font it
		// failed on): a watched folder's documents are its files that are not skipped.
		gone := errors.Is(err, fs.ErrNotExist)
		staleAsset := err == nil && ig.IgnoredAsset(d.Path)
		if gone || staleAsset {
			if _, err := e.ingest.RemoveFile(ctx, d.Path); err == nil {
				removed++
			}
		}
	}
	e.runner.Wake()
	return registered, removed, nil
}

// recordSkippedAssets keeps how many asset files a full look at the watched folder root
// skipped, for its status (a write only when the count changed).
func (e *Engine) recordSkippedAssets(ctx context.Context, root string, n int) error {
	folders, err := store.WatchFolders(ctx, e.db.Reader())
	if err != nil {
		return queryErr(err, "watched folders")
	}
	for _, f := range folders {
		if f.Path == root && f.SkippedAssets != n {
			if err := e.db.WriteTx(ctx, func(tx *store.Tx) error { return store.SetSkippedAssets(ctx, tx, root, n) }); err != nil {
				return e.writeErr(err, "could not record the watched folder's skipped assets")
			}
		}
	}
	return nil
}

// WatchFolder is a watched folder with how many asset files its last full look skipped.
type WatchFolder = store.WatchFolder

// WatchFolders lists the watched folders with what each skipped as assets.
func (e *Engine) WatchFolders(ctx context.Context) ([]WatchFolder, error) {
	folders, err := store.WatchFolders(ctx, e.db.Reader())
	if err != nil {
		return nil, queryErr(err, "watched folders")
	}
	return folders, nil
}

// unchanged reports whether a file needs no registration: its document has the file's size
// and mtime. A failed document counts only if its failure would repeat on the same bytes
// (ingest.StaysFailed); an unreadable file is tried again, since that cause may have gone
// away. Registration itself compares the hash, so a failed file whose bytes are the same
// stays failed even when an event or a touch brings it there.
func unchanged(d store.Document, info fs.FileInfo) bool {
	if d.Size != info.Size() || d.Mtime != store.FormatTime(info.ModTime()) {
		return false
	}
	return docstate.Status(d.Status) != docstate.Failed || ingest.StaysFailed(d)
}

// Serve runs the headless loop that the desktop app also runs: it watches every watched
// folder (reconciling each at start), turns settled file events into registrations and
// removals, and runs the job workers. It returns when ctx is cancelled, after running jobs
// and the watcher have stopped.
//
// Only one process on a data folder does this work (owner.go): while another does, Serve
// waits, probing the embedder so that its status stays true, and takes the work over when
// that process ends.
func (e *Engine) Serve(ctx context.Context) error {
	every := e.cfg.RootSyncInterval
	if every <= 0 {
		every = 2 * time.Second
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wg.Add(1)
	go func() { defer wg.Done(); e.manageEmbeddings(ctx) }()
	lock, err := e.awaitOwnership(ctx, every)
	if lock == nil {
		return err
	}
	defer lock.Close() // releases it: the next process takes over
	e.owning.Store(true)
	defer e.owning.Store(false)

	w, err := watch.New(watch.Options{Ignore: e.Ignorer(), Logger: e.log})
	if err != nil {
		return errs.Wrap(errs.Internal, err, "cannot start the file watcher")
	}
	wg.Add(2)
	go func() { defer wg.Done(); _ = w.Run(ctx) }()
	go func() { defer wg.Done(); _ = e.runner.Run(ctx) }()

	// Roots watched but not reconciled yet: a folder whose files another call (or process)
	// is registering right now (its scan lease) is reconciled once that ends, not during it.
	unreconciled := map[string]bool{}
	syncRoots := func() {
		roots, err := store.WatchRoots(ctx, e.db.Reader())
		if err != nil {
			e.log.Error("read watched folders", "err", err)
			return
		}
		want := map[string]bool{}
		for _, r := range roots {
			want[r] = true
		}
		have := map[string]bool{}
		for _, r := range w.Roots() {
			have[r] = true
			if !want[r] {
				delete(unreconciled, r)
				if err := w.Remove(r); err != nil {
					e.log.Warn("stop watching", "root", r, "err", err)
				}
			}
		}
		for _, r := range roots {
			if have[r] {
				continue
			}
			// watch first, then reconcile: a change during the scan is also an event
			if err := w.Add(r); err != nil {
				e.log.Error("watch folder", "root", r, "err", err)
				continue
			}
			unreconciled[r] = true
		}
		if len(unreconciled) == 0 {
			return
		}
		scanning, err := store.ScanningRoots(ctx, e.db.Reader(), store.FormatTime(e.now()))
		if err != nil {
			e.log.Error("read watched folders", "err", err)
			return
		}
		for r := range unreconciled {
			if scanning[r] {
				continue
			}
			delete(unreconciled, r)
			wg.Add(1)
			go func(r string) {
				defer wg.Done()
				reg, rem, err := e.reconcile(ctx, r)
				e.log.Info("reconciled", "root", r, "registered", reg, "removed", rem, "err", err)
			}(r)
		}
	}
	syncRoots()
	tick := time.NewTicker(every) // watched folders added by other calls and processes
	defer tick.Stop()
	// Semantic jobs skipped for want of a chat model run when one appears.
	requeue := func() {
		if ok, _ := e.chat.Available(ctx); ok {
			if n, err := e.ingest.RequeueWaitingSemantic(ctx); err != nil {
				e.log.Error("requeue semantic jobs", "err", err)
			} else if n > 0 {
				e.log.Info("chat model available: semantic jobs queued", "jobs", n)
				e.runner.Wake()
			}
		}
	}
	requeue()
	models := time.NewTicker(30 * time.Second)
	defer models.Stop()
	e.mu.Lock()
	e.watcher = w
	e.mu.Unlock()
	defer func() { e.mu.Lock(); e.watcher = nil; e.mu.Unlock() }()
	express := make(chan struct{}, 1) // the express lane's one slot
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			syncRoots()
		case <-models.C:
			requeue()
		case ev, ok := <-w.Events():
			if !ok {
				return nil
			}
			// Take the events that are waiting too (a storm of saves, a folder moved in): runs of
			// saves are registered together, a transaction per 64 files instead of one each, in
			// the order they came.
			evs := []watch.Event{ev}
		drain:
			for len(evs) < 1024 {
				select {
				case more, ok := <-w.Events():
					if !ok {
						break drain
					}
					evs = append(evs, more)
				default:
					break drain
				}
			}
			e.applyEvents(ctx, evs, express, &wg)
		}
	}
}

// applyEvents registers and removes what settled file events say, in order: a run of saves is
// registered in one batch; a removal is applied where it came. One saved file alone takes the
// express lane: analysed at once, beside the workers and ahead of whatever the queue holds (a
// folder ingest can queue minutes of work), while it is free; otherwise files go through the
// queue.
func (e *Engine) applyEvents(ctx context.Context, evs []watch.Event, express chan struct{}, wg *sync.WaitGroup) {
	var run []string
	if len(evs) == 1 && evs[0].Op != watch.Removed {
		// A saved file: linking steps aside from now, its registration included.
		done := e.expressStarts()
		defer done()
	}
	flush := func() {
		if len(run) == 0 {
			return
		}
		regs := e.ingest.RegisterFiles(ctx, run, map[string]any{"source": "watch"})
		run = nil
		for _, r := range regs {
			if r.Err != nil {
				e.log.Info("register", "path", r.Path, "code", errs.CodeOf(r.Err))
			}
		}
		if len(regs) == 1 && regs[0].Result != nil && regs[0].Result.DocumentID != "" {
			select {
			case express <- struct{}{}:
				wg.Add(1)
				go func(id string) {
					defer func() { <-express; wg.Done() }()
					done := e.expressStarts()
					defer done()
					start := time.Now()
					if err := e.runner.RunDocument(ctx, id); err != nil {
						e.log.Warn("analyse a saved file now", "document", id, "err", err)
					}
					e.log.Debug("a saved file read at once", "document", id, "took", time.Since(start))
					e.runner.Wake() // its next phase, if any, and whatever it held up
				}(regs[0].Result.DocumentID)
				return
			default:
			}
		}
		e.runner.Wake()
	}
	for _, ev := range evs {
		if ev.Op != watch.Removed {
			run = append(run, ev.Path)
			continue
		}
		flush()
		if _, err := e.ingest.RemoveFile(ctx, ev.Path); err != nil {
			e.log.Error("remove", "path", ev.Path, "err", err)
		}
	}
	flush()
}

// expressFile marks, for every process on the data folder, that a saved file is being read now
// (its mtime is when it started): linking in any of them waits between its transactions, so the
// file has the cores and the write lock. A process that dies leaves a mark that goes stale
// after expressStale.
const (
	expressFile  = "express-reading"
	expressStale = 3 * time.Second
)

// expressStarts marks an express read as begun and returns the function that ends it.
func (e *Engine) expressStarts() func() {
	p := filepath.Join(e.cfg.DataDir, expressFile)
	e.expressN.Add(1)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		e.log.Debug("mark an express read", "err", err)
	}
	return func() {
		if e.expressN.Add(-1) == 0 {
			_ = os.Remove(p) // another process's mark may be there too: it goes stale on its own
		}
	}
}

// expressBusy reports whether a saved file is being read now, here or in another process on
// the folder (enrich.JobHandler.Yield).
func (e *Engine) expressBusy() bool {
	if e.expressN.Load() > 0 {
		return true
	}
	st, err := os.Stat(filepath.Join(e.cfg.DataDir, expressFile))
	return err == nil && e.now().Sub(st.ModTime()) < expressStale
}

// WatchStatus reports the running watcher's roots (empty when Serve is not running here).
func (e *Engine) WatchStatus() []watch.RootStatus {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.watcher == nil {
		return nil
	}
	return e.watcher.Status()
}

// RequeueSemantic probes the chat model now and, if it is there, queues again the semantic
// jobs that were skipped for want of one; it returns how many.
func (e *Engine) RequeueSemantic(ctx context.Context) (int, error) {
	e.chat.Forget()
	if ok, _ := e.chat.Available(ctx); !ok {
		return 0, nil
	}
	n, err := e.ingest.RequeueWaitingSemantic(ctx)
	if err != nil {
		return 0, errs.Wrap(errs.DBInsertFailed, err, "could not queue the semantic jobs")
	}
	e.runner.Wake()
	return n, nil
}
