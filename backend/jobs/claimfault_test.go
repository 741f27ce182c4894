package jobs

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fullQueue is the real queue behind a switch that makes every claim fail as SQLite does on a
// full disk (the process boundary: the disk itself is faked here, and driven for real by the
// engine's tmpfs test and scripts/diskfault.sh).
type fullQueue struct {
	*testQueue
	full   atomic.Bool
	claims atomic.Int32
}

var errFull = errors.New("claim jobs: database or disk is full (13)")

func (q *fullQueue) Claim(ctx context.Context, owner string, now time.Time, lease time.Duration, n int) ([]Job, error) {
	q.claims.Add(1)
	if q.full.Load() {
		return nil, errFull
	}
	return q.testQueue.Claim(ctx, owner, now, lease, n)
}

// levelCounter counts log records by level.
type levelCounter struct {
	mu sync.Mutex
	n  map[slog.Level]int
}

func (c *levelCounter) Enabled(context.Context, slog.Level) bool { return true }
func (c *levelCounter) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[r.Level]++
	return nil
}
func (c *levelCounter) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *levelCounter) WithGroup(string) slog.Handler      { return c }
func (c *levelCounter) count(l slog.Level) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[l]
}

// While claims fail (a full disk), the runner logs one error and backs off instead of trying
// every poll, and it resumes by itself, running the waiting job, once claims succeed again.
func TestFailingClaimsBackOffLogOnceAndResume(t *testing.T) {
	clk := newFakeClock()
	q := &fullQueue{testQueue: newQueue(t)}
	q.full.Store(true)
	h := newHandler(q.testQueue, clk, nil)
	logs := &levelCounter{n: map[slog.Level]int{}}
	var heard []error
	var mu sync.Mutex
	r := newRunner(q.testQueue, h, clk)
	r.Queue = q
	r.Log = slog.New(logs)
	r.Claimed = func(err error) { mu.Lock(); heard = append(heard, err); mu.Unlock() }
	enqueue(t, q.testQueue, clk, "doc_full")
	start(t, r)

	for range 60 { // one minute, a second at a time
		clk.BlockUntil(t, 1)
		clk.Advance(time.Second)
	}
	clk.BlockUntil(t, 1)
	// Poll is 1 s: without backoff a minute is 60 claims; with it 1+2+4+8+16+16+16 s is 7.
	if n := q.claims.Load(); n > 8 {
		t.Fatalf("%d claims in a minute of a full disk, want a backoff (≤ 8)", n)
	}
	if n := logs.count(slog.LevelError); n != 1 {
		t.Fatalf("%d error lines for one full disk, want 1", n)
	}
	if h.runCount() != 0 {
		t.Fatal("a job ran while claims failed")
	}

	q.full.Store(false) // space returns
	clk.Advance(MaxClaimBackoff)
	if j := recv(t, h.ran, "the waiting job to run after space returned"); j.DocumentID != "doc_full" {
		t.Fatalf("ran %s", j.DocumentID)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) < 2 || !errors.Is(heard[0], errFull) || heard[len(heard)-1] != nil {
		t.Fatalf("Claimed heard %v, want the failures then a success (nil)", heard)
	}
}

// Explain replaces a failed attempt's cause before the retry decision and the record: a raw
// "disk is full" becomes the clearer error the caller gives (Strata's DISK_FULL), and that
// error is what decides the retry.
func TestExplainReplacesTheCause(t *testing.T) {
	clk := newFakeClock()
	q := newQueue(t)
	enqueue(t, q, clk, "doc_x")
	h := newHandler(q, clk, func(context.Context, Job) error { return errFull })
	r := newRunner(q, h, clk)
	explained := errors.New("DISK_FULL: the disk holding the data folder is full")
	r.Explain = func(err error) error {
		if errors.Is(err, errFull) {
			return explained
		}
		return nil
	}
	var asked error
	r.Retry = func(err error) bool { asked = err; return false }
	start(t, r)
	rec := recv(t, h.recorded, "the failure")
	if rec.cause != explained || asked != explained {
		t.Fatalf("recorded %v, retry asked about %v; want the explained error for both", rec.cause, asked)
	}
	if rec.retry {
		t.Fatal("retried although Retry said no")
	}
}
