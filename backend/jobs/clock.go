package jobs

import "time"

// Clock is the runner's time. The runner reads the time for leases and backoff, waits between
// polls and ticks its heartbeat only through it, so tests drive leases, heartbeats and backoff
// by moving a fake clock instead of sleeping.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
	NewTicker(d time.Duration) Ticker
}

// Ticker is the part of *time.Ticker the runner uses.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// SystemClock is the real clock; now, when not nil, replaces time.Now (Strata's engine passes
// its configured clock, so job timestamps agree with the rest of the store).
func SystemClock(now func() time.Time) Clock {
	if now == nil {
		now = time.Now
	}
	return systemClock{now: now}
}

type systemClock struct{ now func() time.Time }

func (c systemClock) Now() time.Time                       { return c.now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (systemClock) NewTicker(d time.Duration) Ticker       { return systemTicker{time.NewTicker(d)} }

type systemTicker struct{ t *time.Ticker }

func (t systemTicker) C() <-chan time.Time { return t.t.C }
func (t systemTicker) Stop()               { t.t.Stop() }
