package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/paths"
)

// Op says what happened to a file.
type Op int

const (
	// Changed: the file exists with content the watcher had not reported (created, written,
	// renamed or moved into place). The engine dedups by content hash, so a Changed for
	// unchanged bytes (after an overflow rescan, say) is harmless.
	Changed Op = iota + 1
	// Removed: a file the watcher knew is gone (deleted, renamed or moved away, its directory
	// deleted, or newly ignored).
	Removed
)

func (o Op) String() string {
	switch o {
	case Changed:
		return "changed"
	case Removed:
		return "removed"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Event is one settled change to one file.
type Event struct {
	Path string // absolute and cleaned
	Op   Op
	Root string // the watched root the file is under, as given to Add
}

// Modes reported in RootStatus.
const (
	ModePolling = "polling"
)

// ModeNotify is the mode name of the platform's notification API ("inotify" on Linux).
var ModeNotify = func() string {
	switch runtime.GOOS {
	case "linux", "android":
		return "inotify"
	case "windows":
		return "ReadDirectoryChangesW"
	case "solaris", "illumos":
		return "fen"
	}
	return "kqueue"
}()

// RootStatus is how one root is being watched, for `strata watch list` and the GUI.
type RootStatus struct {
	Root      string
	Mode      string // ModeNotify or ModePolling
	Dirs      int    // directories watched (or walked, when polling)
	Files     int    // files known
	Overflows int    // kernel queue overflows, each followed by a rescan
	Err       string // why the root is polled or degraded; "" when all is well
}

// The defaults of Options. A saved file is reported Debounce+Settle (100 ms) after its last
// write; they were 250 ms + 100 ms, which made a 1 MB file saved into a watched folder
// searchable 0.47–0.56 s after the write (issue 13 asks ≤ 300 ms). The shorter quiet period
// is safe because it grows with the burst (quietFor) and the settle look still has to find
// size and mtime unchanged; and a file read before its writer was done is read again on the
// writer's next event (the analysis also re-checks the bytes it registered).
//
// fsnotify v1.10.1 does not export inotify's close-after-write (its UnportableCloseWrite is
// still unexported), which would tell a finished write from a pause directly.
const (
	DefaultDebounce    = 50 * time.Millisecond
	DefaultMaxDebounce = time.Second
	DefaultSettle      = 50 * time.Millisecond
)

// Options configures a Watcher. Zero values mean the defaults.
type Options struct {
	// Debounce is how long a path must be quiet before it is looked at, so that the several
	// events of one save become one. It grows with the burst (see quietFor): a path written to
	// for a while must stay quiet for a quarter of that time, at most MaxDebounce, so a slow
	// copy that pauses is not taken for finished. Default 50ms; negative means none.
	Debounce time.Duration
	// MaxDebounce caps the quiet period a long burst of writes asks for. Default 1s.
	MaxDebounce time.Duration
	// Settle is how long a file's size and mtime must hold still, after Debounce, before it
	// is reported, so a file still being copied in is not read half-written. Default 50ms;
	// negative means none.
	Settle time.Duration
	// PollEvery is the interval of the polling fallback. Default 2s.
	PollEvery time.Duration
	// Ignore decides what is never watched; nil means NewIgnorer().
	Ignore *Ignorer
	// Logger receives warnings (limits, overflows) and errors; nil discards them.
	Logger *slog.Logger
	// ForcePolling polls every root instead of using notifications (tests, network drives).
	ForcePolling bool

	hooks *testHooks
}

// testHooks let tests stand in for the kernel: fail an add-watch with ENOSPC, fail to create
// an instance with EMFILE, act between the steps of watching a new directory, or stall a
// root's loop until the kernel queue overflows.
type testHooks struct {
	newNotify   func() (*fsnotify.Watcher, error)
	addWatch    func(fw *fsnotify.Watcher, dir string) error
	beforeWatch func(dir string)
	afterWatch  func(dir string)
	stall       <-chan struct{}
}

// ErrClosed is returned by Add after Run has returned or Close was called.
var ErrClosed = errors.New("watch: watcher closed")

// Watcher watches a set of roots recursively and reports settled per-file events.
//
// Lifecycle: New, any number of Add, then Run (which blocks until its context is done and
// then stops everything and closes Events). Add and Remove are safe before and during Run.
// A Watcher that is never Run must be Closed to release its notification instances.
type Watcher struct {
	opts   Options
	ig     *Ignorer
	log    *slog.Logger
	events chan Event

	mu     sync.Mutex
	state  int // idle, running, closed
	runCtx context.Context
	roots  map[string]*root
	adding map[string]bool
}

const (
	stateIdle = iota
	stateRunning
	stateClosed
)

// New returns a Watcher with no roots.
func New(opts Options) (*Watcher, error) {
	switch {
	case opts.Debounce == 0:
		opts.Debounce = DefaultDebounce
	case opts.Debounce < 0:
		opts.Debounce = 0
	}
	if opts.MaxDebounce <= 0 {
		opts.MaxDebounce = DefaultMaxDebounce
	}
	opts.MaxDebounce = max(opts.MaxDebounce, opts.Debounce)
	switch {
	case opts.Settle == 0:
		opts.Settle = DefaultSettle
	case opts.Settle < 0:
		opts.Settle = 0
	}
	if opts.PollEvery <= 0 {
		opts.PollEvery = 2 * time.Second
	}
	if opts.Ignore == nil {
		opts.Ignore = NewIgnorer()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.hooks == nil {
		opts.hooks = &testHooks{}
	}
	return &Watcher{
		opts:   opts,
		ig:     opts.Ignore,
		log:    opts.Logger.With("component", "watch"),
		events: make(chan Event, 256),
		roots:  map[string]*root{},
		adding: map[string]bool{},
	}, nil
}

// Events delivers settled events; it is closed when Run returns (or Close is called on a
// Watcher never run). Reading it promptly matters: while it is full, roots stop reading
// notifications and the kernel queue may overflow (which is survived by a rescan).
func (w *Watcher) Events() <-chan Event { return w.events }

// Add watches dir and everything below it. When Add returns, every directory is watched and
// the files present are known (they are not reported: start-up reconciliation walks the root
// with Walk and compares against the store, so call Add first and reconcile after, and no
// change falls between the two).
//
// Roots may not overlap: a root inside another would report each event twice.
func (w *Watcher) Add(dir string) error {
	p := absClean(dir)
	info, err := os.Stat(p)
	if err != nil {
		return errs.Wrap(errs.Validation, err, "cannot watch %s", p).
			WithHint("check that the folder exists and that Strata may read it")
	}
	if !info.IsDir() {
		return errs.New(errs.Validation, "cannot watch %s: not a folder", p).
			WithHint("watch the folder that contains it")
	}
	if w.ig.excluded(p) {
		return errs.New(errs.Validation, "cannot watch %s: it is inside Strata's own data folder", p).
			WithHint("watch a folder outside the data folder")
	}

	w.mu.Lock()
	if err := w.checkAddLocked(p); err != nil {
		w.mu.Unlock()
		return err
	}
	w.adding[p] = true
	w.mu.Unlock()

	r := newRoot(p, &w.opts, w.log, w.events)
	setupErr := r.setup()

	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.adding, p)
	if setupErr != nil {
		r.stop()
		return fmt.Errorf("watch: add %s: %w", p, setupErr)
	}
	if w.state == stateClosed {
		r.stop()
		return fmt.Errorf("watch: add %s: %w", p, ErrClosed)
	}
	w.roots[p] = r
	if w.state == stateRunning {
		r.start(w.runCtx)
	}
	return nil
}

func (w *Watcher) checkAddLocked(p string) error {
	if w.state == stateClosed {
		return fmt.Errorf("watch: add %s: %w", p, ErrClosed)
	}
	others := make([]string, 0, len(w.roots)+len(w.adding))
	for other := range w.roots {
		others = append(others, other)
	}
	for other := range w.adding {
		others = append(others, other)
	}
	for _, other := range others {
		switch {
		case paths.Host.Equal(other, p):
			return errs.New(errs.Validation, "%s is already watched", p)
		case paths.Host.Inside(p, other):
			return errs.New(errs.Validation, "cannot watch %s: it is inside the watched folder %s", p, other).
				WithHint("it is already watched as part of %s", other)
		case paths.Host.Inside(other, p):
			return errs.New(errs.Validation, "cannot watch %s: it contains the watched folder %s", p, other).
				WithHint("remove %s first (strata watch remove), then add %s", other, p)
		}
	}
	return nil
}

// Remove stops watching root. Its files are not reported as Removed: whether the documents
// of an unwatched folder stay in the store is the engine's decision. dir may be spelled as the
// OS allows (another case on Windows and macOS).
func (w *Watcher) Remove(dir string) error {
	p := absClean(dir)
	w.mu.Lock()
	r, ok := w.roots[p]
	if !ok {
		for other, or := range w.roots {
			if paths.Host.Equal(other, p) {
				p, r, ok = other, or, true
				break
			}
		}
	}
	delete(w.roots, p)
	w.mu.Unlock()
	if !ok {
		return errs.New(errs.Validation, "%s is not watched", p).WithHint("strata watch list shows the watched folders")
	}
	r.stop()
	return nil
}

// Roots lists the watched roots, sorted.
func (w *Watcher) Roots() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.roots))
	for p := range w.roots {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Status reports how each root is watched, sorted by root.
func (w *Watcher) Status() []RootStatus {
	w.mu.Lock()
	roots := make([]*root, 0, len(w.roots))
	for _, r := range w.roots {
		roots = append(roots, r)
	}
	w.mu.Unlock()
	out := make([]RootStatus, 0, len(roots))
	for _, r := range roots {
		out = append(out, r.snapshot())
	}
	slices.SortFunc(out, func(a, b RootStatus) int { return strings.Compare(a.Root, b.Root) })
	return out
}

// Run watches until ctx is done, then stops every root, waits for their goroutines and
// closes Events. It returns nil on cancellation; it can be called once.
func (w *Watcher) Run(ctx context.Context) error {
	w.mu.Lock()
	if w.state != stateIdle {
		w.mu.Unlock()
		return errors.New("watch: Run called twice or after Close")
	}
	w.state = stateRunning
	w.runCtx = ctx
	for _, r := range w.roots {
		r.start(ctx)
	}
	w.mu.Unlock()

	<-ctx.Done()
	w.shutdown()
	return nil
}

// Close releases a Watcher that was never Run (Run cleans up after itself; Close is then a
// no-op). It closes Events.
func (w *Watcher) Close() error {
	w.mu.Lock()
	idle := w.state == stateIdle
	w.mu.Unlock()
	if idle {
		w.shutdown()
	}
	return nil
}

func (w *Watcher) shutdown() {
	w.mu.Lock()
	if w.state == stateClosed {
		w.mu.Unlock()
		return
	}
	w.state = stateClosed
	roots := w.roots
	w.roots = map[string]*root{}
	w.mu.Unlock()
	for _, r := range roots {
		r.stop()
	}
	close(w.events)
}
