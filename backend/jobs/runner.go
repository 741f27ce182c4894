// Package jobs runs Strata's durable jobs: a bounded pool of workers claims jobs from the
// queue with a lease, a heartbeat renews the lease while a batch runs, a failed attempt is
// retried with capped exponential backoff unless its error is permanent, and cancellation
// stops the workers and waits for them.
//
// A worker that dies leaves a lease that expires, and any process on the folder then claims
// the job again. What a job does and how its result and failures are written belong to the
// Handler (backend/ingest); this package owns only the scheduling, so it can be tested with a
// fake clock and a fake handler on a real queue.
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Handler does the work of claimed jobs and records their failures.
type Handler interface {
	// Run runs a batch of jobs leased to job.LeaseOwner and writes the results of those that
	// succeed; it returns the errors of those that failed, by job ID. ctx outlives a shutdown
	// request: a batch finishes (or its lease expires) rather than stopping half-written.
	Run(ctx context.Context, jobs []Job) map[int64]error
	// Record records a failed attempt: the job runs again at notBefore when retry is set,
	// and has failed for good otherwise.
	Record(ctx context.Context, job Job, cause error, retry bool, notBefore time.Time) error
}

// Retryable tells whether a failed attempt may succeed if tried again. The runner declares it
// and the caller supplies it (Strata's error registry: errs.Retryable).
type Retryable func(error) bool

// Runner executes durable jobs with a bounded pool of workers.
type Runner struct {
	Queue   Queue
	Handler Handler
	Clock   Clock     // default SystemClock(nil)
	Retry   Retryable // nil: every failure is retried (up to MaxAttempts)
	// Explain, when set, may replace a failed attempt's cause with a clearer error before the
	// retry decision and the record (Strata's engine turns a full disk into DISK_FULL, so a
	// document shows what happened instead of an internal error); nil keeps the cause.
	Explain func(error) error

	Workers     int           // default 2
	Lease       time.Duration // default 60s; the heartbeat renews it every Lease/3
	Poll        time.Duration // how often idle workers look for work queued by other processes; default 500ms
	MaxAttempts int           // attempts before a retryable failure is final; default 5
	Batch       int           // jobs claimed and committed together; default 16
	Log         *slog.Logger
	// Claimed, when set, hears every failed claim and every claim that leased jobs (nil), so
	// the caller can keep the store's health (a full disk fails every claim; the first claim
	// that succeeds again says space returned).
	Claimed func(err error)

	claimFails  atomic.Int32 // consecutive failed claims, over all workers
	recordFails atomic.Int32 // consecutive failures to record a failed job

	wakeMu  sync.Mutex
	wake    chan struct{} // closed (and replaced) by Wake: every idle worker hears it
	ended   chan struct{} // closed (and replaced) when a batch ends
	once    sync.Once
	running atomic.Int32
}

// Backoff is how long a job waits before attempt attempts+1: 2 s after the first, doubling,
// at most MaxBackoff. The cap keeps a job that failed on a missing Ollama or a locked disk
// from waiting hours once the cause is gone.
func Backoff(attempts int) time.Duration {
	if attempts > 30 { // the shift below would overflow long before; the cap applies anyway
		return MaxBackoff
	}
	return min(time.Second<<max(attempts, 0), MaxBackoff)
}

// MaxBackoff caps Backoff.
const MaxBackoff = 256 * time.Second

func (r *Runner) init() {
	r.once.Do(func() {
		if r.Clock == nil {
			r.Clock = SystemClock(nil)
		}
		if r.Workers <= 0 {
			r.Workers = 2
		}
		if r.Lease <= 0 {
			r.Lease = 60 * time.Second
		}
		if r.Poll <= 0 {
			r.Poll = 500 * time.Millisecond
		}
		if r.MaxAttempts <= 0 {
			r.MaxAttempts = 5
		}
		if r.Batch <= 0 {
			r.Batch = 16
		}
		if r.Log == nil {
			r.Log = slog.New(slog.DiscardHandler)
		}
		r.wake = make(chan struct{})
		r.ended = make(chan struct{})
	})
}

// Running reports whether Run is working in this process.
func (r *Runner) Running() bool { return r.running.Load() > 0 }

// Wake tells every idle worker that work was queued. It is a broadcast: with a one-slot
// signal only one worker woke and the others slept out their poll (500 ms), so a folder ingest
// ran on one core for its first half second (the quality corpus: 2.2 s → see BENCHMARKS.md).
func (r *Runner) Wake() {
	r.init()
	r.wakeMu.Lock()
	close(r.wake)
	r.wake = make(chan struct{})
	r.wakeMu.Unlock()
}

// RunDocument runs the runnable jobs of one document now, in the caller's goroutine, beside
// the workers and ahead of the queue (a file saved into a watched folder should not wait
// behind a folder ingest). It claims them with the usual lease, so a worker never runs them
// too; when a worker has them already it returns at once. It returns when the batch is
// written (or has failed and been recorded).
func (r *Runner) RunDocument(ctx context.Context, documentID string) error {
	r.init()
	owner := ownerID() + "/now"
	jobs, err := r.Queue.ClaimDocument(ctx, owner, documentID, r.Clock.Now(), r.Lease)
	if err != nil || len(jobs) == 0 {
		return err
	}
	r.runBatch(ctx, jobs, owner)
	return nil
}

// BatchEnded returns a channel that is closed when the next batch in this process has been
// written (or has failed). Someone waiting for documents looks again then rather than on a
// timer: a 100 ms poll added 50 ms on average to every `ingest --wait` and watched file.
func (r *Runner) BatchEnded() <-chan struct{} {
	r.init()
	r.wakeMu.Lock()
	defer r.wakeMu.Unlock()
	return r.ended
}

// woken is the channel the next Wake closes. A worker takes it before it claims, so a Wake
// that comes during the claim is not lost.
func (r *Runner) woken() <-chan struct{} {
	r.wakeMu.Lock()
	defer r.wakeMu.Unlock()
	return r.wake
}

// Run works until ctx is cancelled, then lets running batches finish (each within its lease)
// and returns once every worker has stopped.
func (r *Runner) Run(ctx context.Context) error {
	r.init()
	r.running.Add(1)
	defer r.running.Add(-1)
	owner := ownerID()
	var wg sync.WaitGroup
	for i := 0; i < r.Workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r.worker(ctx, fmt.Sprintf("%s/%d", owner, i))
		}(i)
	}
	wg.Wait()
	return ctx.Err()
}

// MaxClaimBackoff caps the wait between failed claims: long enough that a full disk is not
// hammered (it was tried twenty times a second), short enough that jobs resume within
// seconds of space returning.
const MaxClaimBackoff = 16 * time.Second

func (r *Runner) worker(ctx context.Context, owner string) {
	for ctx.Err() == nil {
		woken := r.woken()
		jobs, err := r.Queue.Claim(ctx, owner, r.Clock.Now(), r.Lease, r.Batch)
		if ctx.Err() != nil {
			return
		}
		wait := r.Poll
		if err != nil {
			wait = r.claimFailed(err)
		} else {
			r.claimSucceeded(len(jobs) > 0)
		}
		if err != nil || len(jobs) == 0 {
			wake := woken
			if err != nil {
				wake = nil // a failed claim waits out its backoff: new work does not make the disk work
			}
			select {
			case <-ctx.Done():
			case <-wake:
			case <-r.Clock.After(wait):
			}
			continue
		}
		r.runBatch(ctx, jobs, owner)
	}
}

// claimFailed reports a failed claim and returns how long to wait before the next: the poll
// interval doubled per consecutive failure, at most MaxClaimBackoff. There is no caller to
// return the error to, so it is logged, once when claims start failing (not once per try),
// and handed to Claimed.
func (r *Runner) claimFailed(err error) time.Duration {
	n := r.claimFails.Add(1)
	if n == 1 {
		r.Log.Error("claim jobs: pausing with backoff until claims succeed", "err", err)
	} else {
		r.Log.Debug("claim jobs", "failures", n, "err", err)
	}
	if r.Claimed != nil {
		r.Claimed(err)
	}
	return min(r.Poll<<min(n-1, 16), max(MaxClaimBackoff, r.Poll))
}

// claimSucceeded ends a run of failed claims. Claimed hears of it only when the claim wrote
// (leased jobs): finding the queue empty writes nothing, so it says nothing about the disk.
func (r *Runner) claimSucceeded(wrote bool) {
	if n := r.claimFails.Swap(0); n > 0 {
		r.Log.Info("claim jobs: resumed", "failed_claims", n)
	}
	if wrote && r.Claimed != nil {
		r.Claimed(nil)
	}
}

// runBatch runs claimed jobs under a heartbeat and records the failures. The batch gets a
// context that outlives a shutdown request: it finishes, or its lease expires and another
// worker takes it over.
func (r *Runner) runBatch(parent context.Context, jobs []Job, owner string) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	defer cancel()
	for i := range jobs {
		jobs[i].LeaseOwner = owner
	}
	var hb sync.WaitGroup
	hb.Add(1)
	go func() {
		defer hb.Done()
		r.heartbeat(ctx, jobs, owner)
	}()
	failed := r.Handler.Run(ctx, jobs)
	for _, j := range jobs { // in claim order, so failures are recorded deterministically
		if err, ok := failed[j.JobID]; ok && err != nil {
			r.fail(ctx, j, err)
		}
	}
	cancel()
	hb.Wait()
	r.wakeMu.Lock()
	close(r.ended)
	r.ended = make(chan struct{})
	r.wakeMu.Unlock()
}

// heartbeat renews the batch's leases every Lease/3 until ctx ends.
func (r *Runner) heartbeat(ctx context.Context, jobs []Job, owner string) {
	t := r.Clock.NewTicker(r.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
			err := r.Queue.Extend(ctx, jobs, owner, r.Clock.Now().Add(r.Lease))
			if err != nil && ctx.Err() == nil {
				// A missed renewal is survivable (the next tick tries again within the lease).
				r.Log.Warn("extend job leases", "err", err)
			}
		}
	}
}

// fail decides whether a failed attempt is retried and has the handler record it.
func (r *Runner) fail(ctx context.Context, job Job, cause error) {
	if r.Explain != nil {
		if e := r.Explain(cause); e != nil {
			cause = e
		}
	}
	retry := (r.Retry == nil || r.Retry(cause)) && job.Attempts < r.MaxAttempts
	now := r.Clock.Now()
	notBefore := now
	if retry {
		notBefore = now.Add(Backoff(job.Attempts))
	}
	if err := r.Handler.Record(ctx, job, cause, retry, notBefore); err != nil {
		// The job keeps its lease until it expires; then it is claimed and tried again. The
		// first of a run of failed records is an error; the rest (a full disk fails them all)
		// would bury it.
		if r.recordFails.Add(1) == 1 {
			r.Log.Error("record job failure", "job", job.JobID, "err", err)
		} else {
			r.Log.Debug("record job failure", "job", job.JobID, "err", err)
		}
	} else {
		r.recordFails.Store(0)
	}
	r.Log.Info("job failed", "job", job.JobID, "document", job.DocumentID, "err", cause, "retry", retry)
}

func ownerID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
}
