package watch

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// fast keeps the tests quick: the defaults are exercised by the 5,000-file test.
func fast() Options {
	return Options{Debounce: 40 * time.Millisecond, Settle: 30 * time.Millisecond, PollEvery: 50 * time.Millisecond}
}

// syncBuffer is a log sink the tests can read while the watcher writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// collector reads Events until they are closed and lets a test wait for what it expects.
type collector struct {
	mu     sync.Mutex
	events []Event
	last   time.Time
	closed chan struct{}
}

func (c *collector) snapshot() []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Event(nil), c.events...)
}

// harness is a running Watcher with its events collected; stop (also run by Cleanup) cancels
// Run and checks that it returned and closed Events.
type harness struct {
	t    *testing.T
	w    *Watcher
	c    *collector
	logs *syncBuffer
	stop func()
	seen int // events already checked by expect
}

func start(t *testing.T, opts Options, roots ...string) *harness {
	t.Helper()
	logs := &syncBuffer{}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roots {
		if err := w.Add(r); err != nil {
			t.Fatalf("Add(%s): %v", r, err)
		}
	}
	h := &harness{t: t, w: w, logs: logs, c: &collector{closed: make(chan struct{})}}
	go func() {
		defer close(h.c.closed)
		for ev := range w.Events() {
			h.c.mu.Lock()
			h.c.events = append(h.c.events, ev)
			h.c.last = time.Now()
			h.c.mu.Unlock()
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	runErr := make(chan error, 1)
	go func() { runErr <- w.Run(ctx) }()
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-runErr:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("Run did not return within 5s of cancel")
			}
			select {
			case <-h.c.closed:
			case <-time.After(5 * time.Second):
				t.Errorf("Events not closed after Run returned")
			}
		})
	}
	t.Cleanup(h.stop)
	return h
}

// waitFor polls until cond holds on the events so far, failing the test after timeout.
func (h *harness) waitFor(timeout time.Duration, what string, cond func([]Event) bool) []Event {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		evs := h.c.snapshot()
		if cond(evs) {
			return evs
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s; got %d events:\n%s\nlog:\n%s", what, len(evs), dump(evs), h.logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// expect waits for the events since the last expect to include len(want), lets things settle,
// and checks they are exactly want (see expectExactly); it returns them.
func (h *harness) expect(base string, want ...string) []Event {
	h.t.Helper()
	from := h.seen
	h.waitFor(5*time.Second, fmt.Sprintf("%d more events %v", len(want), want), func(evs []Event) bool { return len(evs)-from >= len(want) })
	evs := h.quiet(settle)[from:]
	h.seen = from + len(evs)
	expectExactly(h.t, base, evs, want...)
	return evs
}

// quiet waits until no event has arrived for d (at most 10s) and returns all events.
func (h *harness) quiet(d time.Duration) []Event {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	startAt := time.Now()
	for time.Now().Before(deadline) {
		h.c.mu.Lock()
		last := h.c.last
		h.c.mu.Unlock()
		if last.Before(startAt) {
			last = startAt
		}
		if time.Since(last) >= d {
			return h.c.snapshot()
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatalf("events never went quiet")
	return nil
}

// settle is long enough for anything pending under fast() to have been reported.
const settle = 400 * time.Millisecond

// expectExactly checks the multiset of (op, path) against want ("+path" Changed, "-path" Removed,
// paths relative to base).
func expectExactly(t *testing.T, base string, evs []Event, want ...string) {
	t.Helper()
	got := map[string]int{}
	for _, ev := range evs {
		got[label(base, ev)]++
	}
	wantM := map[string]int{}
	for _, w := range want {
		wantM[w]++
	}
	var problems []string
	for k, n := range wantM {
		if got[k] != n {
			problems = append(problems, fmt.Sprintf("%s: want %d, got %d", k, n, got[k]))
		}
	}
	for k, n := range got {
		if _, ok := wantM[k]; !ok {
			problems = append(problems, fmt.Sprintf("%s: unexpected (%d)", k, n))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		t.Fatalf("events differ:\n  %s\nall events:\n%s", strings.Join(problems, "\n  "), dump(evs))
	}
}

func label(base string, ev Event) string {
	rel, err := filepath.Rel(base, ev.Path)
	if err != nil {
		rel = ev.Path
	}
	sign := "+"
	if ev.Op == Removed {
		sign = "-"
	}
	return sign + filepath.ToSlash(rel)
}

func dump(evs []Event) string {
	var b strings.Builder
	for i, ev := range evs {
		if i == 200 {
			fmt.Fprintf(&b, "  … %d more\n", len(evs)-i)
			break
		}
		fmt.Fprintf(&b, "  %s %s\n", ev.Op, ev.Path)
	}
	return b.String()
}

func statusOf(t *testing.T, w *Watcher, root string) RootStatus {
	t.Helper()
	for _, st := range w.Status() {
		if st.Root == root {
			return st
		}
	}
	t.Fatalf("no status for %s in %+v", root, w.Status())
	return RootStatus{}
}
