package watch

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// fileState is what decides whether a file changed: a chmod leaves it alone, a write moves
// size or mtime, a rename over the file moves the inode.
type fileState struct {
	size  int64
	mtime int64
	ino   uint64
}

func stateOf(info fs.FileInfo) fileState {
	_, ino, _ := sysIDs(info)
	return fileState{size: info.Size(), mtime: info.ModTime().UnixNano(), ino: ino}
}

// dirNode is one known directory: its identity (to tell a stale event from a new directory
// at the same path), whether it has a watch, and the names of the files and subdirectories
// known in it, so that deleting or moving it can report each file.
type dirNode struct {
	key     fileKey
	watched bool
	files   map[string]struct{}
	subdirs map[string]struct{}
}

// pend is a path waiting to be looked at. The debounce phase ends at due; the settle phase
// then re-stats until two looks Settle apart agree.
type pend struct {
	first    time.Time // the first event of this burst
	due      time.Time
	settling bool
	last     fileState
	force    bool // report Changed even if the state is the known one (rescan after overflow)
	queued   bool // has an entry in the heap (never more than one)
}

// root is one watched tree. Its state is owned by its loop goroutine once started (by Add's
// goroutine before that); only the published status is shared, under statusMu.
type root struct {
	path  string
	opts  *Options
	ig    *Ignorer
	log   *slog.Logger
	out   chan<- Event
	hooks *testHooks

	fw          *fsnotify.Watcher // nil when polling
	pollReason  string
	rootMissing bool
	dirs        map[string]*dirNode
	files       map[string]fileState
	pending     map[string]*pend
	queue       dueHeap
	overflows   int
	warned      map[string]string // path → last error logged for it

	statusMu sync.Mutex
	status   RootStatus

	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

func newRoot(p string, opts *Options, log *slog.Logger, out chan<- Event) *root {
	return &root{
		path:    p,
		opts:    opts,
		ig:      opts.Ignore,
		log:     log.With("root", p),
		out:     out,
		hooks:   opts.hooks,
		dirs:    map[string]*dirNode{},
		files:   map[string]fileState{},
		pending: map[string]*pend{},
	}
}

// setup watches the tree and records the files present, without reporting them. It runs in
// Add's goroutine, before the loop exists.
func (r *root) setup() error {
	defer r.publish()
	if r.opts.ForcePolling {
		r.pollReason = "polling forced by options"
		return r.sync(context.Background(), r.path, true, false)
	}
	if err := r.startNotify(); err != nil {
		if !r.fallBack(err) {
			return err
		}
		return r.sync(context.Background(), r.path, true, false)
	}
	err := r.sync(context.Background(), r.path, true, false)
	if err != nil && r.fallBack(err) {
		return r.sync(context.Background(), r.path, true, false)
	}
	return err
}

// startNotify opens a notification instance for the root.
func (r *root) startNotify() error {
	newNotify := fsnotify.NewWatcher
	if r.hooks.newNotify != nil {
		newNotify = r.hooks.newNotify
	}
	fw, err := newNotify()
	if err != nil {
		return fmt.Errorf("start file notifications: %w", err)
	}
	r.fw = fw
	r.pollReason = ""
	for _, n := range r.dirs {
		n.watched = false
	}
	return nil
}

// fallBack switches the root to polling when err is an inotify limit, logging what to do
// about it; it reports whether it did.
func (r *root) fallBack(err error) bool {
	advice, ok := limitAdvice(err)
	if !ok {
		return false
	}
	r.closeNotify()
	r.pollReason = fmt.Sprintf("%v; %s", err, advice)
	r.log.Warn("file notifications unavailable, polling this folder every "+r.opts.PollEvery.String()+" instead",
		"err", err, "fix", advice)
	return true
}

func (r *root) closeNotify() {
	if r.fw != nil {
		_ = r.fw.Close() // only fails if the descriptor is already gone
		r.fw = nil
	}
	for _, n := range r.dirs {
		n.watched = false
	}
}

// start runs the loop in a goroutine owned by the root: stop cancels and waits for it.
func (r *root) start(ctx context.Context) {
	ctx, r.cancel = context.WithCancel(ctx)
	r.done = make(chan struct{})
	go func() {
		defer close(r.done)
		r.loop(ctx)
	}()
}

// stop ends the loop (if started), waits for it, and closes the notification instance
// (which waits for fsnotify's reader goroutine).
func (r *root) stop() {
	r.stopOnce.Do(func() {
		if r.cancel != nil {
			r.cancel()
			<-r.done
		}
		r.closeNotify()
	})
}

func (r *root) loop(ctx context.Context) {
	if r.hooks.stall != nil {
		select {
		case <-r.hooks.stall:
		case <-ctx.Done():
			return
		}
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var timerAt time.Time
	var ticker *time.Ticker
	defer func() {
		if ticker != nil {
			ticker.Stop()
		}
	}()

	for {
		var (
			evC   <-chan fsnotify.Event
			errC  <-chan error
			pollC <-chan time.Time
		)
		if r.fw != nil {
			evC, errC = r.fw.Events, r.fw.Errors
			if ticker != nil {
				ticker.Stop()
				ticker = nil
			}
		} else {
			if ticker == nil {
				ticker = time.NewTicker(r.opts.PollEvery)
			}
			pollC = ticker.C
		}
		if next, ok := r.queue.peek(); !ok {
			timer.Stop()
			timerAt = time.Time{}
		} else if !next.Equal(timerAt) {
			timer.Reset(time.Until(next))
			timerAt = next
		}

		select {
		case <-ctx.Done():
			return
		case ev, ok := <-evC:
			if !ok { // fsnotify closed underneath us; keep the root covered by polling
				r.closeNotify()
				r.pollReason = "file notifications stopped unexpectedly"
				r.log.Error(r.pollReason + "; polling this folder instead")
				r.poll(ctx)
				continue
			}
			r.handle(ctx, ev)
		case err, ok := <-errC:
			if ok {
				r.handleError(ctx, err)
			}
		case <-pollC:
			r.poll(ctx)
		case <-timer.C:
			timerAt = time.Time{}
			r.fire(ctx)
		}
		r.publish()
	}
}

// handle turns one raw notification into work: directories are dealt with at once (a new one
// must be watched before anything else happens in it), files are marked dirty.
func (r *root) handle(ctx context.Context, ev fsnotify.Event) {
	p := filepath.Clean(ev.Name)
	gone := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
	if p == r.path {
		if gone && !r.stillSameDir(p) {
			r.lostRoot(ctx)
		}
		return
	}
	if filepath.Base(p) == IgnoreFileName {
		r.schedule(p, false)
		return
	}
	if n := r.dirs[p]; n != nil {
		// A known directory. Events about it can be stale (fsnotify reports a moved
		// directory's own MOVE_SELF after the parent's MOVED_FROM), so believe the disk.
		if gone || ev.Has(fsnotify.Create) {
			if !r.stillSameDir(p) {
				r.dropDir(p)
				if ev.Has(fsnotify.Create) {
					r.syncDir(ctx, p, false)
				}
			}
		}
		return
	}
	if ev.Has(fsnotify.Create) {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			if r.dirs[filepath.Dir(p)] != nil && !r.ig.Ignored(p, true) && r.enterable(p) {
				r.syncDir(ctx, p, false)
			}
			return
		}
	}
	if _, known := r.files[p]; !known && r.ig.Ignored(p, false) {
		return
	}
	r.schedule(p, false)
}

// enterable applies Walk's symlink rule to a directory that appeared at p: a real directory
// is entered; a symlink only if it leads outside the root and not back up the tree.
func (r *root) enterable(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return true
	}
	follow, err := followDir(realPath(r.path), filepath.Dir(p), p)
	if err != nil {
		r.warnOnce(p, "skipped while scanning", err)
	}
	return follow
}

// warnOnce logs a problem with a path once per distinct error, so that polling every few
// seconds does not repeat the same warning forever.
func (r *root) warnOnce(p, msg string, err error) {
	text := err.Error()
	if r.warned[p] == text {
		return
	}
	if r.warned == nil {
		r.warned = map[string]string{}
	}
	r.warned[p] = text
	r.log.Warn(msg, "path", p, "err", err)
}

// stillSameDir reports whether the known directory at p is still there (same inode).
func (r *root) stillSameDir(p string) bool {
	n := r.dirs[p]
	if n == nil {
		return false
	}
	info, err := os.Stat(p)
	return err == nil && info.IsDir() && keyOf(p, info) == n.key
}

func (r *root) handleError(ctx context.Context, err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		r.overflows++
		r.log.Warn("the kernel dropped file notifications (queue overflow); rescanning the folder",
			"hint", "if this repeats, raise fs.inotify.max_queued_events")
		r.syncDir(ctx, r.path, true)
		return
	}
	r.log.Error("file notification error", "err", err)
}

// lostRoot handles the root itself being deleted or moved: every known file is gone, and
// with no parent watch the only way to notice the folder coming back is to poll for it.
func (r *root) lostRoot(ctx context.Context) {
	r.log.Warn("the watched folder disappeared; polling until it comes back")
	r.closeNotify()
	r.pollReason = "the folder is missing"
	r.poll(ctx)
}

// poll walks the root and schedules what differs from the known state. When the root had
// gone missing and is back, notifications are tried again.
func (r *root) poll(ctx context.Context) {
	if err := r.sync(ctx, r.path, false, false); err != nil && ctx.Err() == nil {
		r.log.Warn("poll failed", "err", err)
	}
	if r.rootMissing && r.dirs[r.path] != nil {
		r.rootMissing = false
		r.log.Info("the watched folder is back")
		if r.opts.ForcePolling {
			return
		}
		if err := r.startNotify(); err != nil {
			r.fallBack(err)
			return
		}
		r.syncDir(ctx, r.path, false)
	}
}

// syncDir is sync with the limit fallback: if watching a new directory hits an inotify limit,
// the root switches to polling and is polled at once so nothing is missed.
func (r *root) syncDir(ctx context.Context, dir string, force bool) {
	err := r.sync(ctx, dir, false, force)
	if err == nil && r.rootMissing && r.fw != nil {
		r.lostRoot(ctx)
		return
	}
	if err == nil || ctx.Err() != nil {
		return
	}
	if r.fallBack(err) {
		r.poll(ctx)
		return
	}
	r.log.Warn("scanning a folder failed", "dir", dir, "err", err)
}

// sync brings the part of the tree at dir in line with the disk: it watches directories not
// yet watched (before listing them), forgets directories that vanished or became ignored, and
// either records file states (record, during setup) or schedules every file whose state
// differs from the known one (every file, if force) and every known file not found.
func (r *root) sync(ctx context.Context, dir string, record, force bool) error {
	seenDirs := map[string]bool{}
	seenFiles := map[string]bool{}
	wk := &walker{
		ctx: ctx,
		ig:  r.ig,
		onDir: func(d string, key fileKey) error {
			seenDirs[d] = true
			n := r.dirs[d]
			if n != nil && n.key != key {
				r.dropDir(d) // replaced by another directory at the same path
				n = nil
			}
			if n == nil {
				n = r.addNode(d, key)
			}
			if r.fw != nil && !n.watched {
				if err := r.addWatch(d); err != nil {
					if _, limit := limitAdvice(err); limit || d == r.path {
						return err // the caller falls back to polling, or Add fails
					}
					// One folder that cannot be watched (no permission, gone in the
					// meantime) must not cost the rest of the root. It is left out, and
					// tried again on the next rescan.
					r.warnOnce(d, "cannot watch this folder; its files are left out", err)
					return errSkipDir
				}
				n.watched = true
			}
			return nil
		},
		onFile: func(p string, info fs.FileInfo) error {
			seenFiles[p] = true
			st := stateOf(info)
			if record {
				r.setKnown(p, st)
				return nil
			}
			if old, ok := r.files[p]; force || !ok || old != st {
				r.mark(p, force)
			}
			return nil
		},
		onSkip: func(p string, err error) {
			r.warnOnce(p, "skipped while scanning", err)
		},
	}
	var err error
	if dir != r.path && r.dirs[filepath.Dir(dir)] == nil {
		err = fs.ErrNotExist // its parent is not tracked: treat as gone
	} else {
		err = wk.walk(r.path, dir)
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !isNotDir(err) {
			return err
		}
		if dir == r.path {
			r.rootMissing = true
		}
		if r.dirs[dir] != nil {
			r.dropDir(dir)
		}
		return nil
	}
	// Forget what vanished: collect first, dropDir edits the tree.
	var gone []string
	r.eachDir(dir, func(d string, n *dirNode) {
		if !seenDirs[d] {
			gone = append(gone, d)
			return
		}
		for name := range n.files {
			if p := filepath.Join(d, name); !seenFiles[p] {
				r.mark(p, false)
			}
		}
	})
	for _, d := range gone {
		if r.dirs[d] != nil {
			r.dropDir(d)
		}
	}
	return nil
}

func (r *root) addWatch(dir string) error {
	if r.hooks.beforeWatch != nil {
		r.hooks.beforeWatch(dir)
	}
	var err error
	if r.hooks.addWatch != nil {
		err = r.hooks.addWatch(r.fw, dir)
	} else {
		err = r.fw.Add(dir)
	}
	if err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	if r.hooks.afterWatch != nil {
		r.hooks.afterWatch(dir)
	}
	return nil
}

func (r *root) addNode(d string, key fileKey) *dirNode {
	n := &dirNode{key: key, files: map[string]struct{}{}, subdirs: map[string]struct{}{}}
	r.dirs[d] = n
	if d != r.path {
		if parent := r.dirs[filepath.Dir(d)]; parent != nil {
			parent.subdirs[filepath.Base(d)] = struct{}{}
		}
	}
	return n
}

// eachDir calls fn for d and every known directory below it, parents first.
func (r *root) eachDir(d string, fn func(string, *dirNode)) {
	n := r.dirs[d]
	if n == nil {
		return
	}
	fn(d, n)
	for name := range n.subdirs {
		r.eachDir(filepath.Join(d, name), fn)
	}
}

// dropDir forgets the directory d and everything known below it, removes their watches, and
// schedules each known file inside for a look, which reports it Removed unless it turns out
// to still be there (a directory renamed and renamed back).
func (r *root) dropDir(d string) {
	var all []string
	r.eachDir(d, func(p string, n *dirNode) {
		all = append(all, p)
		for name := range n.files {
			r.schedule(filepath.Join(p, name), false)
		}
	})
	for i := len(all) - 1; i >= 0; i-- { // children first
		p := all[i]
		if n := r.dirs[p]; n != nil && n.watched && r.fw != nil {
			// Removing the watch now, not when the kernel gets round to it, matters for
			// renames: re-adding the same inode under its new path while the old watch is
			// still registered would leave fsnotify reporting the old path.
			_ = r.fw.Remove(p) // ErrNonExistentWatch when the kernel already dropped it
		}
		delete(r.dirs, p)
	}
	if parent := r.dirs[filepath.Dir(d)]; parent != nil {
		delete(parent.subdirs, filepath.Base(d))
	}
}

func (r *root) setKnown(p string, st fileState) {
	r.files[p] = st
	if n := r.dirs[filepath.Dir(p)]; n != nil {
		n.files[filepath.Base(p)] = struct{}{}
	}
}

func (r *root) forget(p string) {
	delete(r.files, p)
	if n := r.dirs[filepath.Dir(p)]; n != nil {
		delete(n.files, filepath.Base(p))
	}
}

// schedule marks p dirty: it will be looked at once quiet for quietFor.
func (r *root) schedule(p string, force bool) {
	now := time.Now()
	pd := r.pending[p]
	if pd == nil {
		pd = &pend{first: now}
		r.pending[p] = pd
	}
	pd.due = now.Add(r.quietFor(now.Sub(pd.first)))
	pd.settling = false
	pd.force = pd.force || force
	if !pd.queued {
		pd.queued = true
		heap.Push(&r.queue, dueItem{due: pd.due, path: p})
	}
}

// quietFor is how long a path whose events have been coming for burst must be quiet before it
// is looked at: Debounce, or a quarter of the burst when that is longer, at most MaxDebounce.
// A save is one burst of a few milliseconds and is looked at after Debounce; a copy that has
// been writing for two seconds must pause for half a second before it counts as finished, so
// a slow writer's hiccup does not get its file read half-written.
func (r *root) quietFor(burst time.Duration) time.Duration {
	return min(max(r.opts.Debounce, burst/4), r.opts.MaxDebounce)
}

// mark is schedule for scans: a path already waiting keeps its place, so that polling every
// PollEvery cannot keep pushing back a file that is still settling (the settle phase re-stats
// it anyway).
func (r *root) mark(p string, force bool) {
	if pd := r.pending[p]; pd != nil {
		pd.force = pd.force || force
		return
	}
	r.schedule(p, force)
}

// fireBatch bounds how many paths one timer tick looks at. A burst of thousands of files comes
// due at once; handing control back to the loop between batches keeps notifications flowing
// (and the kernel queue from overflowing) while they are worked through. The timer is re-armed
// at once for the rest.
const fireBatch = 512

// fire looks at the paths whose time has come, up to fireBatch of them.
func (r *root) fire(ctx context.Context) {
	now := time.Now()
	for range fireBatch {
		next, ok := r.queue.peek()
		if !ok || next.After(now) {
			return
		}
		it := heap.Pop(&r.queue).(dueItem)
		pd := r.pending[it.path]
		if pd == nil {
			continue
		}
		pd.queued = false
		if pd.due.After(now) { // touched again since it was queued
			pd.queued = true
			heap.Push(&r.queue, dueItem{due: pd.due, path: it.path})
			continue
		}
		if !r.look(ctx, it.path, pd, now) {
			return // ctx done while sending
		}
	}
}

// look decides what a dirty path amounts to by comparing the disk with the known state. It
// returns false if ctx ended while an event was being sent.
func (r *root) look(ctx context.Context, p string, pd *pend, now time.Time) bool {
	dir := filepath.Dir(p)
	if filepath.Base(p) == IgnoreFileName {
		delete(r.pending, p)
		r.ig.invalidate(dir)
		if r.dirs[dir] != nil {
			r.syncDir(ctx, dir, false)
		}
		return true
	}
	info, err := os.Stat(p)
	parent := r.dirs[dir]
	if err == nil && info.IsDir() {
		// A directory now (reached through a new symlink, or a file replaced by one).
		delete(r.pending, p)
		ok := r.removeKnown(ctx, p)
		if parent != nil && r.dirs[p] == nil && !r.ig.Ignored(p, true) && r.enterable(p) {
			r.syncDir(ctx, p, false)
		}
		return ok
	}
	if err != nil || !info.Mode().IsRegular() || parent == nil || r.ig.Ignored(p, false) {
		delete(r.pending, p)
		return r.removeKnown(ctx, p)
	}
	st := stateOf(info)
	if r.opts.Settle > 0 && (!pd.settling || st != pd.last) && !r.stillSince(pd, info.ModTime(), info.Size(), now) {
		pd.settling, pd.last = true, st
		pd.due = now.Add(r.opts.Settle)
		pd.queued = true
		heap.Push(&r.queue, dueItem{due: pd.due, path: p})
		return true
	}
	delete(r.pending, p)
	old, known := r.files[p]
	r.setKnown(p, st)
	if known && old == st && !pd.force {
		return true // chmod, touch without change, or a rename that put the same file back
	}
	return r.emit(ctx, Event{Path: p, Op: Changed, Root: r.path})
}

// stillSince tells whether the first look at a file can stand for the settle phase: with
// notifications, a file whose mtime is at least Settle old has not been written for Settle
// (every write moves the mtime, and the debounce saw no event meanwhile), which is what a
// second look Settle later would find; it saves Settle on every saved file. Polling, or an
// mtime in the future (a network share's clock), keeps the second look. So does an empty file:
// a writer that creates a file and stalls before its first write (a loaded machine) leaves
// exactly that, and reading it then would report the file once empty and again when written.
func (r *root) stillSince(pd *pend, mtime time.Time, size int64, now time.Time) bool {
	if r.fw == nil || pd.settling || size == 0 {
		return false
	}
	age := now.Sub(mtime)
	return age >= r.opts.Settle && mtime.Before(now)
}

func (r *root) removeKnown(ctx context.Context, p string) bool {
	if _, known := r.files[p]; !known {
		return true
	}
	r.forget(p)
	return r.emit(ctx, Event{Path: p, Op: Removed, Root: r.path})
}

func (r *root) emit(ctx context.Context, ev Event) bool {
	select {
	case r.out <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// publish copies the loop's counters into the status Status reads.
func (r *root) publish() {
	st := RootStatus{Root: r.path, Mode: ModeNotify, Dirs: len(r.dirs), Files: len(r.files), Overflows: r.overflows}
	if r.fw == nil {
		st.Mode = ModePolling
		st.Err = r.pollReason
	}
	if r.rootMissing {
		st.Err = "the folder is missing"
	}
	r.statusMu.Lock()
	r.status = st
	r.statusMu.Unlock()
}

func (r *root) snapshot() RootStatus {
	r.statusMu.Lock()
	defer r.statusMu.Unlock()
	return r.status
}

// dueItem and dueHeap order dirty paths by when they are due. Each path has at most one item;
// a path touched again keeps its item and is re-queued when the item comes up early.
type dueItem struct {
	due  time.Time
	path string
}

type dueHeap []dueItem

func (h dueHeap) Len() int           { return len(h) }
func (h dueHeap) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h dueHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any)        { *h = append(*h, x.(dueItem)) }
func (h *dueHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

func (h dueHeap) peek() (time.Time, bool) {
	if len(h) == 0 {
		return time.Time{}, false
	}
	return h[0].due, true
}
