package engine

import (
	"testing"
	"time"
)

// jobs builds the store's job counts (phase → state → n) from pairs.
func jobCounts(phases map[string][2]int) map[string]map[string]int {
	out := map[string]map[string]int{}
	for p, c := range phases { // [queued+running, done]
		out[p] = map[string]int{"queued": c[0], "done": c[1]}
	}
	return out
}

func phase(t *testing.T, p Progress, name string) PhaseProgress {
	t.Helper()
	for _, ph := range p.Phases {
		if ph.Phase == name {
			return ph
		}
	}
	t.Fatalf("no %s phase in %+v", name, p)
	return PhaseProgress{}
}

// A phase's figures count from the start of the run (not the store's history); its rate is
// "estimating" until the samples span MinRateSpan, then items a second over the window with
// the time left at that rate; a phase that stops moving is stalled and shows no time left; a
// later phase with nothing running while an earlier one works is waiting, not stalled.
func TestProgressRatesAreHonest(t *testing.T) {
	tr := newProgressTracker()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

	// The store already holds 900 analysed documents from earlier runs; 1,000 are queued now.
	p := tr.report(at(0), jobCounts(map[string][2]int{"analyze": {1000, 900}, "enrich": {1000, 900}}))
	a := phase(t, p, "analyze")
	if !p.Active || a.Done != 0 || a.Total != 1000 || a.State != RateEstimating || a.ETASeconds != 0 {
		t.Fatalf("start of a run: %+v", a)
	}
	if e := phase(t, p, "enrich"); e.State != RateWaiting || e.Label != "linking" {
		t.Fatalf("linking while analysis runs: %+v", e)
	}
	// 100 done after 2 s: moving, but not long enough to say how fast.
	a = phase(t, tr.report(at(2), jobCounts(map[string][2]int{"analyze": {900, 1000}, "enrich": {1000, 900}})), "analyze")
	if a.Done != 100 || a.State != RateEstimating || a.Rate != 0 || a.ETASeconds != 0 {
		t.Fatalf("after 2 s: %+v", a)
	}
	// 500 done after 10 s: 50 a second, 500 left, 10 s.
	a = phase(t, tr.report(at(10), jobCounts(map[string][2]int{"analyze": {500, 1400}, "enrich": {1000, 900}})), "analyze")
	if a.State != RateMoving || a.Rate != 50 || a.ETASeconds != 10 || a.Label != "analyzing" {
		t.Fatalf("after 10 s: %+v", a)
	}
	// Nothing more for StallAfter: no time left is shown for what is not moving.
	a = phase(t, tr.report(at(10).Add(StallAfter), jobCounts(map[string][2]int{"analyze": {500, 1400}, "enrich": {1000, 900}})), "analyze")
	if a.State != RateStalled || a.ETASeconds != 0 || a.Rate != 0 {
		t.Fatalf("stalled: %+v", a)
	}
	// Analysis ends: it stays listed as done while linking goes on, and linking starts moving.
	end := at(40)
	p = tr.report(end, jobCounts(map[string][2]int{"analyze": {0, 1900}, "enrich": {990, 910}}))
	if a = phase(t, p, "analyze"); a.State != RateDone || a.Done != 1000 || a.Total != 1000 {
		t.Fatalf("analysis done: %+v", a)
	}
	if e := phase(t, p, "enrich"); e.State != RateEstimating || e.Done != 10 || e.Total != 1000 {
		t.Fatalf("linking under way: %+v", e)
	}
	// Everything done: the run ends, nothing is listed, and the next run counts from there.
	p = tr.report(end.Add(time.Second), jobCounts(map[string][2]int{"analyze": {0, 1900}, "enrich": {0, 1900}}))
	if p.Active || len(p.Phases) != 0 {
		t.Fatalf("idle: %+v", p)
	}
	a = phase(t, tr.report(end.Add(2*time.Second), jobCounts(map[string][2]int{"analyze": {3, 1900}})), "analyze")
	if a.Done != 0 || a.Total != 3 {
		t.Fatalf("a new run: %+v", a)
	}
}

// While files are being registered the run is active and the register phase is listed with
// its figures, before any job exists: the status never says nothing is going on (or 0 %) while
// a folder is being added. While the folder is still being walked the total is marked as
// still counting.
func TestProgressCountsRegistration(t *testing.T) {
	tr := newProgressTracker()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reg := tr.beginRegistration(true)
	p := tr.report(now, nil)
	r := phase(t, p, "register")
	if !p.Active || !r.Counting || r.Total != 0 || r.Label != "registering" {
		t.Fatalf("walking: %+v", p)
	}
	reg.found(5000)
	reg.walked()
	reg.writing(64)
	reg.registered(640, 3)
	r = phase(t, tr.report(now.Add(time.Second), nil), "register")
	if r.Counting || r.Done != 640 || r.Total != 5000 || r.Failed != 3 || r.Running != 64 {
		t.Fatalf("registering: %+v", r)
	}
	for s := 2; s <= 6; s++ { // 700 a second from here on: 4,140 in the 6 s since the first sample
		reg.registered(700, 0)
		r = phase(t, tr.report(now.Add(time.Duration(s)*time.Second), map[string]map[string]int{"analyze": {"queued": 700 * (s - 1)}}), "register")
	}
	if r.State != RateMoving || r.Done != 640+3500 || int(r.Rate+0.5) != 690 || r.ETASeconds != 2 {
		t.Fatalf("registration's rate: %+v", r)
	}
	reg.end()
	p = tr.report(now.Add(7*time.Second), map[string]map[string]int{"analyze": {"queued": 4000}})
	if r = phase(t, p, "register"); r.State != RateDone || r.Total != r.Done {
		t.Fatalf("registration ended: %+v", r)
	}
	if !p.Active {
		t.Fatal("analysis still queued, yet the run is not active")
	}
}

// A run counts from when its work began, not from the first status asked for: analysis that
// finished between the start of a registration and the first report is part of the run ("0 /
// 910" stood beside 475 new chunks when the first report took the base).
func TestProgressCountsFromTheRunsStart(t *testing.T) {
	tr := newProgressTracker()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reg := tr.beginRegistration(true)
	tr.beginRun(jobCounts(map[string][2]int{"analyze": {0, 900}})) // 900 analysed by earlier runs
	reg.found(1100)
	reg.registered(1100, 0)
	// The first report: 176 of this run's documents are analysed already.
	a := phase(t, tr.report(now, jobCounts(map[string][2]int{"analyze": {924, 1076}})), "analyze")
	if a.Done != 176 || a.Total != 1100 {
		t.Fatalf("the first report of a run: %+v", a)
	}
	// A second beginRun while the run goes on changes nothing.
	tr.beginRun(jobCounts(map[string][2]int{"analyze": {924, 1076}}))
	if a = phase(t, tr.report(now.Add(time.Second), jobCounts(map[string][2]int{"analyze": {900, 1100}})), "analyze"); a.Done != 200 {
		t.Fatalf("the run's start moved: %+v", a)
	}
}

// A run that ended while no status was asked for (a server without a window) does not count
// into the next one.
func TestProgressRunEndedUnseen(t *testing.T) {
	tr := newProgressTracker()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reg := tr.beginRegistration(true)
	tr.beginRun(jobCounts(map[string][2]int{"analyze": {0, 0}}))
	reg.end()
	tr.report(now, jobCounts(map[string][2]int{"analyze": {500, 0}})) // the first run, under way
	// It ends (500 analysed) with nobody asking; a new folder is added.
	reg = tr.beginRegistration(true)
	tr.beginRun(jobCounts(map[string][2]int{"analyze": {0, 500}}))
	reg.found(20)
	reg.registered(20, 0)
	a := phase(t, tr.report(now.Add(time.Minute), jobCounts(map[string][2]int{"analyze": {15, 505}})), "analyze")
	if a.Done != 5 || a.Total != 20 {
		t.Fatalf("the second run counts the first one: %+v", a)
	}
}
