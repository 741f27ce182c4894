package engine

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/store"
)

// Progress is what Strata is working on, phase by phase, in figures a person can read:
// "registering 1,200 / 5,000 · 700 files/s · about 6 s left". The engine computes it; every
// client (the window, the browser, `strata status`) only renders it.
//
// A run of work begins when files are being registered or any job is waiting, and ends when
// nothing is; each phase counts from the run's start, so "analyzing 300 / 5,000" is about the
// folder being added, not the store's history. A phase that had work in this run stays listed
// (done) until the whole run ends, so a person sees analysis finished while linking goes on.
type Progress struct {
	// Active: some phase has work (files being registered or found, jobs waiting or running).
	Active bool `json:"active"`
	// Phases in pipeline order: register, analyze, semantic, embed, enrich (those with work in
	// this run).
	Phases []PhaseProgress `json:"phases"`
}

// PhaseProgress is one phase of the current run.
type PhaseProgress struct {
	Phase string `json:"phase"` // register | analyze | semantic | embed | enrich
	// Label is the phase in the words the clients show: "registering", "analyzing", "reading
	// with the local model", "embedding", "linking".
	Label string `json:"label"`
	// Done counts the items finished in this run (done, failed or skipped); Total is Done plus
	// what is still to do, so it grows while files are still being found.
	Done    int `json:"done"`
	Total   int `json:"total"`
	Running int `json:"running"` // being worked on now (jobs leased, files in a registration batch)
	Failed  int `json:"failed"`  // of Done, failed
	// Counting: the total is still growing (registration is still finding files).
	Counting bool `json:"counting,omitempty"`
	// State says whether Rate and ETASeconds mean anything; see RateState.
	State RateState `json:"state"`
	// Rate is items a second over the last RateWindow, 0 unless State is moving.
	Rate float64 `json:"rate"`
	// ETASeconds is the time left at Rate, 0 unless State is moving.
	ETASeconds int `json:"eta_seconds"`
}

// RateState says how far a phase's rate can be trusted.
type RateState string

const (
	// RateEstimating: the phase is under way but has not moved for long enough (MinRateSpan)
	// to give an honest rate.
	RateEstimating RateState = "estimating"
	// RateMoving: Rate and ETASeconds hold.
	RateMoving RateState = "moving"
	// RateWaiting: the phase has work but waits for an earlier one (linking waits for
	// analysis), so it has no rate and no time left.
	RateWaiting RateState = "waiting"
	// RateStalled: nothing of the phase finished for StallAfter (a full disk, a slow file):
	// no time left is shown for what is not moving.
	RateStalled RateState = "stalled"
	// RateDone: nothing left in this run.
	RateDone RateState = "done"
)

// RateStates lists the states, for the UI's generated enum.
func RateStates() []RateState {
	return []RateState{RateEstimating, RateMoving, RateWaiting, RateStalled, RateDone}
}

// RateStateEnum is RateStates for Wails' EnumBind, so the UI's states are Go's.
var RateStateEnum = docstate.Enum(RateStates())

// The rate's windows. A phase's rate is measured over the last RateWindow of samples (taken
// when the status is read: every 0.7–1 s while a window is open), and only once they span
// MinRateSpan: registration runs at ~700 files/s and analysis at ~300/s on two cores, so five
// seconds hold thousands of items, while a batch of 16 analyses ending at once would make a
// one-second rate jump. A phase whose count has not moved for StallAfter is stalled.
const (
	RateWindow  = 30 * time.Second
	MinRateSpan = 5 * time.Second
	StallAfter  = 20 * time.Second
)

// phaseOrder is the pipeline's order; an earlier phase with work makes a later idle one wait.
var phaseOrder = []string{ingest.PhaseRegister, ingest.PhaseAnalyze, ingest.PhaseSemantic, ingest.PhaseEmbed, ingest.PhaseEnrich}

var phaseLabels = map[string]string{
	ingest.PhaseRegister: "registering",
	ingest.PhaseAnalyze:  "analyzing",
	ingest.PhaseSemantic: "reading with the local model",
	ingest.PhaseEmbed:    "embedding",
	ingest.PhaseEnrich:   "linking",
}

type sample struct {
	at   time.Time
	done int
}

// progressTracker keeps what the store does not: how many files the registrations of this
// process have found and registered, and, per phase, where the run began and the recent
// samples the rate is measured on. Job counts come from the store at each report, so work
// another process does on the same data folder shows too.
type progressTracker struct {
	mu sync.Mutex

	run         bool           // a run is under way
	base        map[string]int // finished jobs per phase when the run began
	baseFailed  map[string]int // of them failed
	baseSkipped map[string]int // of them skipped
	seen        map[string]bool
	// samples and lastMove per phase: the rate's data.
	samples  map[string][]sample
	lastMove map[string]time.Time
	lastDone map[string]int

	// Registration in this run: files found, registered (or refused), of them failed; walks
	// still finding files; files in the batch being written now; registrations under way.
	regFound, regDone, regFailed int
	walking, inflight, active    int
}

func newProgressTracker() *progressTracker {
	t := &progressTracker{}
	t.reset()
	return t
}

func (t *progressTracker) reset() {
	t.run = false
	t.base, t.baseFailed, t.baseSkipped, t.seen = map[string]int{}, map[string]int{}, map[string]int{}, map[string]bool{}
	t.samples, t.lastMove, t.lastDone = map[string][]sample{}, map[string]time.Time{}, map[string]int{}
	t.regFound, t.regDone, t.regFailed = 0, 0, 0
}

// registration is one registration call's handle on the tracker.
type registration struct {
	t       *progressTracker
	walking bool
}

// beginRegistration starts counting a registration; walking says it still has to find its
// files (a folder being added), so its total is not known yet.
func (t *progressTracker) beginRegistration(walking bool) *registration {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.active++
	if walking {
		t.walking++
	}
	return &registration{t: t, walking: walking}
}

// found adds n files to be registered.
func (r *registration) found(n int) {
	r.t.mu.Lock()
	r.t.regFound += n
	r.t.mu.Unlock()
}

// walked says all of this registration's files are found.
func (r *registration) walked() {
	r.t.mu.Lock()
	defer r.t.mu.Unlock()
	if r.walking {
		r.walking = false
		r.t.walking--
	}
}

// writing says n files are being registered now (0: none).
func (r *registration) writing(n int) {
	r.t.mu.Lock()
	r.t.inflight = n
	r.t.mu.Unlock()
}

// registered counts n more files registered, failed of them failed.
func (r *registration) registered(n, failed int) {
	r.t.mu.Lock()
	r.t.regDone += n
	r.t.regFailed += failed
	r.t.mu.Unlock()
}

// end ends the registration.
func (r *registration) end() {
	r.walked()
	r.t.mu.Lock()
	r.t.active--
	r.t.inflight = 0
	r.t.mu.Unlock()
}

// beginRun starts counting a run from jobs (the store's job counts when its work began), unless
// one is being counted: a phase counts what finished after this. The engine calls it when files
// start being registered, so work done before the first status was asked for counts too
// (the first report took the base, and "analyzing 0 / 910" stood beside 475 new chunks).
func (t *progressTracker) beginRun(jobs map[string]map[string]int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// A run that ended while nobody asked for a status (a server without a window) is still
	// marked as running: ended, it must not count into this one.
	if t.run && t.active <= 1 && !pendingJobs(jobs) {
		t.reset()
	}
	t.startRun(jobs)
}

// pendingJobs reports whether any job of jobs waits or runs.
func pendingJobs(jobs map[string]map[string]int) bool {
	for _, c := range jobs {
		if c[store.JobQueued]+c[store.JobRunning] > 0 {
			return true
		}
	}
	return false
}

func (t *progressTracker) startRun(jobs map[string]map[string]int) {
	if t.run {
		return
	}
	t.run = true
	for p, c := range jobs {
		t.base[p], t.baseFailed[p], t.baseSkipped[p] = c[store.JobDone]+c[store.JobFailed]+c[store.JobSkipped], c[store.JobFailed], c[store.JobSkipped]
	}
}

// report turns the job counts (by phase and state, from the store) into the run's progress at
// now, and samples each phase for its rate.
func (t *progressTracker) report(now time.Time, jobs map[string]map[string]int) Progress {
	t.mu.Lock()
	defer t.mu.Unlock()
	finished := func(p string) int {
		c := jobs[p]
		return c[store.JobDone] + c[store.JobFailed] + c[store.JobSkipped]
	}
	pending := func(p string) int { return jobs[p][store.JobQueued] + jobs[p][store.JobRunning] }

	if t.active == 0 && !pendingJobs(jobs) {
		t.reset()
		return Progress{Phases: []PhaseProgress{}}
	}
	t.startRun(jobs) // when no registration started it (retried or re-embedded documents)
	out := Progress{Active: true, Phases: []PhaseProgress{}}
	earlierBusy := false
	for _, p := range phaseOrder {
		var ph PhaseProgress
		if p == ingest.PhaseRegister {
			if t.regFound == 0 && t.walking == 0 {
				continue
			}
			ph = PhaseProgress{Done: t.regDone, Total: t.regFound, Running: t.inflight, Failed: t.regFailed, Counting: t.walking > 0}
			if t.active == 0 {
				ph.Total = ph.Done // a registration cancelled half-way registers no more
			}
		} else {
			if pending(p) > 0 {
				t.seen[p] = true
			}
			if !t.seen[p] {
				continue
			}
			done := max(0, finished(p)-t.base[p]) // a phase with no rows at the run's start counts from 0
			if pending(p) == 0 && done > 0 && jobs[p][store.JobSkipped]-t.baseSkipped[p] == done {
				continue // every job of it was skipped (the local model's phase without a model): nothing was done
			}
			ph = PhaseProgress{Done: done, Total: done + pending(p), Running: jobs[p][store.JobRunning],
				Failed: max(0, jobs[p][store.JobFailed]-t.baseFailed[p])}
		}
		ph.Phase, ph.Label = p, phaseLabels[p]
		t.rate(&ph, now, earlierBusy)
		if ph.State != RateDone {
			earlierBusy = true
		}
		out.Phases = append(out.Phases, ph)
	}
	return out
}

// rate samples ph and fills its State, Rate and ETASeconds.
func (t *progressTracker) rate(ph *PhaseProgress, now time.Time, earlierBusy bool) {
	p := ph.Phase
	left := ph.Total - ph.Done
	if left <= 0 && !ph.Counting {
		ph.State = RateDone
		delete(t.samples, p)
		return
	}
	s := t.samples[p]
	if last, ok := t.lastDone[p]; !ok || last != ph.Done { // appeared or moved: the stall clock starts again
		t.lastMove[p], t.lastDone[p] = now, ph.Done
	}
	if len(s) == 0 || now.Sub(s[len(s)-1].at) >= 250*time.Millisecond {
		s = append(s, sample{now, ph.Done})
	}
	// Keep the window, plus the newest sample older than it as the window's start.
	cut := 0
	for cut+1 < len(s) && now.Sub(s[cut+1].at) >= RateWindow {
		cut++
	}
	s = s[cut:]
	t.samples[p] = s
	first := s[0]
	span := now.Sub(first.at)
	moved := ph.Done - first.done
	// A phase that waits for an earlier one (nothing of it running) says so rather than
	// stalled: linking is claimed only when no analysis is runnable.
	waits := earlierBusy && ph.Running == 0
	switch {
	case now.Sub(t.lastMove[p]) >= StallAfter && waits, moved <= 0 && waits:
		// Time spent waiting is not the phase's pace: its rate is measured from when it starts.
		ph.State = RateWaiting
		delete(t.samples, p)
	case now.Sub(t.lastMove[p]) >= StallAfter:
		ph.State = RateStalled
	case moved <= 0 || span < MinRateSpan:
		ph.State = RateEstimating
	default:
		ph.State = RateMoving
		ph.Rate = float64(moved) / span.Seconds()
		ph.ETASeconds = int(math.Ceil(float64(left) / ph.Rate))
	}
}

// beginProgressRun starts counting a run from the store's job counts now, when registration
// starts one (see progressTracker.beginRun). Called after beginRegistration, so a status asked
// for in between cannot end the run it starts.
func (e *Engine) beginProgressRun(ctx context.Context) error {
	jobs, err := store.JobCounts(ctx, e.db.Reader())
	if err != nil {
		return queryErr(err, "jobs")
	}
	e.progress.beginRun(jobs)
	return nil
}
