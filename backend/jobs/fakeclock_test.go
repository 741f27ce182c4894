package jobs

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a Clock that moves only when the test advances it. BlockUntil lets a test wait
// until the runner is parked on the clock (idle between polls, or heartbeat ticking) before
// moving time, so no test sleeps.
type fakeClock struct {
	mu      sync.Mutex
	cond    *sync.Cond
	now     time.Time
	waiters []*fakeWaiter
}

type fakeWaiter struct {
	at     time.Time
	period time.Duration // >0: a ticker
	c      chan time.Time
}

func newFakeClock() *fakeClock {
	c := &fakeClock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) add(w *fakeWaiter) {
	c.mu.Lock()
	c.waiters = append(c.waiters, w)
	c.cond.Broadcast()
	c.mu.Unlock()
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	w := &fakeWaiter{at: c.Now().Add(d), c: make(chan time.Time, 1)}
	c.add(w)
	return w.c
}

func (c *fakeClock) NewTicker(d time.Duration) Ticker {
	w := &fakeWaiter{at: c.Now().Add(d), period: d, c: make(chan time.Time, 1)}
	c.add(w)
	return fakeTicker{c, w}
}

type fakeTicker struct {
	c *fakeClock
	w *fakeWaiter
}

func (t fakeTicker) C() <-chan time.Time { return t.w.c }

func (t fakeTicker) Stop() {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	t.c.remove(t.w)
	t.c.cond.Broadcast()
}

func (c *fakeClock) remove(w *fakeWaiter) {
	for i, x := range c.waiters {
		if x == w {
			c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
			return
		}
	}
}

// Advance moves time and fires every timer due (a ticker at most once per call, like a real
// ticker dropping ticks nobody read).
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	keep := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			keep = append(keep, w)
			continue
		}
		select {
		case w.c <- c.now:
		default:
		}
		if w.period > 0 {
			w.at = c.now.Add(w.period)
			keep = append(keep, w)
		}
	}
	c.waiters = keep
	c.cond.Broadcast()
}

// BlockUntil waits until n timers or tickers are pending. The deadline only turns a runner
// that never parks (a bug) into a failure instead of a hung test.
func (c *fakeClock) BlockUntil(t testing.TB, n int) {
	t.Helper()
	expired := false
	stop := time.AfterFunc(10*time.Second, func() {
		c.mu.Lock()
		expired = true
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer stop.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.waiters) < n && !expired {
		c.cond.Wait()
	}
	if len(c.waiters) < n {
		t.Fatalf("timed out waiting for %d timers on the clock (%d pending)", n, len(c.waiters))
	}
}
