package jobs

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/store"
)

var (
	errTransient = errors.New("transient: the disk was busy")
	errPermanent = errors.New("permanent: the file is damaged")
)

func retryable(err error) bool { return !errors.Is(err, errPermanent) }

// testQueue is the real StoreQueue on SQLite in a temporary folder; it reports each lease
// extension so a test can wait for the heartbeat.
type testQueue struct {
	StoreQueue
	extended chan time.Time
}

func (q *testQueue) Extend(ctx context.Context, jobs []Job, owner string, until time.Time) error {
	err := q.StoreQueue.Extend(ctx, jobs, owner, until)
	select {
	case q.extended <- until:
	default:
	}
	return err
}

func newQueue(t *testing.T) *testQueue {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &testQueue{StoreQueue: StoreQueue{DB: db}, extended: make(chan time.Time, 16)}
}

// enqueue queues an analyze job for a new document, due now.
func enqueue(t *testing.T, q *testQueue, clk Clock, docID string) {
	t.Helper()
	ctx := context.Background()
	now := store.FormatTime(clk.Now())
	err := q.DB.WriteTx(ctx, func(tx *store.Tx) error {
		if _, err := store.InsertDocument(ctx, tx, store.Document{DocumentID: docID, Kind: "file", Status: "registered",
			PhaseRegister: "done", PhaseAnalyze: "queued", PhaseSemantic: "pending", CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		// The store queues an enrich job with every new document (migration 0008); these
		// tests schedule one job per document of their own.
		if _, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE document_id = ? AND phase = 'enrich'`, docID); err != nil {
			return err
		}
		return store.EnqueueJob(ctx, tx, docID, "pay_"+docID, "analyze", store.JobQueued, now)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func jobOf(t *testing.T, q *testQueue, docID string) Job {
	t.Helper()
	list, err := store.JobsOf(context.Background(), q.DB.Reader(), docID)
	if err != nil || len(list) != 1 {
		t.Fatalf("jobs of %s: %v (%d)", docID, err, len(list))
	}
	return list[0]
}

type record struct {
	job       Job
	cause     error
	retry     bool
	notBefore time.Time
}

// testHandler does what a test tells it; a job that succeeds is finished as done (while its
// lease is held), a failure is recorded as ingest records it: queued again at notBefore, or
// failed.
type testHandler struct {
	q   *testQueue
	clk Clock
	// work runs each job; nil: success.
	work func(ctx context.Context, j Job) error

	mu       sync.Mutex
	runs     []Job
	ran      chan Job    // after each job's write
	recorded chan record // after each failure is recorded
}

func newHandler(q *testQueue, clk Clock, work func(context.Context, Job) error) *testHandler {
	return &testHandler{q: q, clk: clk, work: work, ran: make(chan Job, 16), recorded: make(chan record, 16)}
}

func (h *testHandler) Run(ctx context.Context, jobs []Job) map[int64]error {
	failed := map[int64]error{}
	for _, j := range jobs {
		h.mu.Lock()
		h.runs = append(h.runs, j)
		h.mu.Unlock()
		var err error
		if h.work != nil {
			err = h.work(ctx, j)
		}
		if err != nil {
			failed[j.JobID] = err
		} else {
			now := store.FormatTime(h.clk.Now())
			err = h.q.DB.WriteTx(ctx, func(tx *store.Tx) error {
				return store.FinishJob(ctx, tx, j.JobID, j.LeaseOwner, store.JobDone, nil, now, now)
			})
			if err != nil {
				failed[j.JobID] = err
			}
		}
		h.ran <- j
	}
	return failed
}

func (h *testHandler) Record(ctx context.Context, j Job, cause error, retry bool, notBefore time.Time) error {
	state := store.JobFailed
	if retry {
		state = store.JobQueued
	}
	err := h.q.DB.WriteTx(ctx, func(tx *store.Tx) error {
		return store.FinishJob(ctx, tx, j.JobID, j.LeaseOwner, state, nil, store.FormatTime(notBefore), store.FormatTime(h.clk.Now()))
	})
	h.recorded <- record{j, cause, retry, notBefore}
	return err
}

func (h *testHandler) runCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.runs)
}

// recv waits for a value; the deadline only turns a hang into a failure, it orders nothing.
func recv[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// start runs r until the test ends (or stop is called) and returns stop, which cancels the
// runner and waits for Run to return.
func start(t *testing.T, r *Runner) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() { cancel(); err = recv(t, done, "the runner to stop") })
		return err
	}
	t.Cleanup(func() { stop() })
	return stop
}

func newRunner(q *testQueue, h *testHandler, clk Clock) *Runner {
	return &Runner{Queue: q, Handler: h, Clock: clk, Retry: retryable, Workers: 1, Lease: time.Minute, Poll: time.Second, MaxAttempts: 5}
}

// A job whose worker died keeps its lease until the lease expires; then another worker takes
// it over, and the dead worker's late write is refused.
func TestLeaseExpiresAndAnotherWorkerTakesOver(t *testing.T) {
	clk := newFakeClock()
	q := newQueue(t)
	enqueue(t, q, clk, "doc_a")
	ctx := context.Background()
	claimed, err := q.Claim(ctx, "dead", clk.Now(), time.Minute, 10)
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	h := newHandler(q, clk, nil)
	start(t, newRunner(q, h, clk))

	clk.BlockUntil(t, 1) // idle: the job is leased
	clk.Advance(30 * time.Second)
	clk.BlockUntil(t, 1) // polled again, found nothing, idle again
	if j := jobOf(t, q, "doc_a"); j.LeaseOwner != "dead" || h.runCount() != 0 {
		t.Fatalf("taken over while the lease held: %+v", j)
	}

	clk.Advance(31 * time.Second) // past the lease
	j := recv(t, h.ran, "the takeover")
	if j.LeaseOwner == "dead" || j.Attempts != 2 {
		t.Fatalf("takeover ran %+v", j)
	}
	if got := jobOf(t, q, "doc_a"); got.State != store.JobDone {
		t.Fatalf("job after takeover: %+v", got)
	}
	err = q.DB.WriteTx(ctx, func(tx *store.Tx) error {
		return store.FinishJob(ctx, tx, claimed[0].JobID, "dead", store.JobDone, nil, "", "")
	})
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the dead worker could still write: %v", err)
	}
}

// While a batch runs, the heartbeat renews its lease, so no one takes the job over after
// the first lease would have expired.
func TestHeartbeatExtendsTheLease(t *testing.T) {
	clk := newFakeClock()
	t0 := clk.Now()
	q := newQueue(t)
	enqueue(t, q, clk, "doc_a")
	started, release := make(chan struct{}), make(chan struct{})
	h := newHandler(q, clk, func(ctx context.Context, j Job) error {
		close(started)
		<-release
		return nil
	})
	start(t, newRunner(q, h, clk))
	recv(t, started, "the job to start")

	clk.BlockUntil(t, 1) // the heartbeat's ticker (the only worker is busy)
	clk.Advance(20 * time.Second)
	if until := recv(t, q.extended, "a heartbeat"); !until.Equal(t0.Add(80 * time.Second)) {
		t.Fatalf("lease extended until %v, want t0+80s", until)
	}
	if j := jobOf(t, q, "doc_a"); j.LeaseUntil != store.FormatTime(t0.Add(80*time.Second)) {
		t.Fatalf("stored lease %q", j.LeaseUntil)
	}

	clk.Advance(45 * time.Second) // t0+65: the first lease is over, the renewed one is not
	other, err := q.Claim(context.Background(), "other", clk.Now(), time.Minute, 10)
	if err != nil || len(other) != 0 {
		t.Fatalf("another worker claimed a job with a live heartbeat: %v %v", other, err)
	}
	close(release)
	recv(t, h.ran, "the job to finish")
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	want := map[int]time.Duration{0: time.Second, 1: 2 * time.Second, 2: 4 * time.Second, 5: 32 * time.Second,
		8: 256 * time.Second, 9: MaxBackoff, 64: MaxBackoff, 1000: MaxBackoff}
	for n, w := range want {
		if got := Backoff(n); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", n, got, w)
		}
	}
	prev := time.Duration(0)
	for n := 0; n < 100; n++ {
		d := Backoff(n)
		if d < prev || d > MaxBackoff {
			t.Fatalf("Backoff(%d) = %v after %v", n, d, prev)
		}
		prev = d
	}
}

// A retryable failure is queued again after its backoff and not before; then it runs again.
func TestRetryableFailureIsRetriedAfterBackoff(t *testing.T) {
	clk := newFakeClock()
	t0 := clk.Now()
	q := newQueue(t)
	enqueue(t, q, clk, "doc_a")
	var calls int
	h := newHandler(q, clk, func(ctx context.Context, j Job) error {
		calls++ // one worker: no race
		if calls == 1 {
			return errTransient
		}
		return nil
	})
	start(t, newRunner(q, h, clk))

	rec := recv(t, h.recorded, "the failure")
	if !rec.retry || !rec.notBefore.Equal(t0.Add(Backoff(1))) || !errors.Is(rec.cause, errTransient) {
		t.Fatalf("recorded %+v, want a retry at t0+%v", rec, Backoff(1))
	}
	recv(t, h.ran, "the first attempt")
	clk.BlockUntil(t, 1)
	clk.Advance(time.Second) // t0+1s: not due yet
	clk.BlockUntil(t, 1)
	if h.runCount() != 1 {
		t.Fatalf("retried before its backoff: %d runs", h.runCount())
	}
	clk.Advance(time.Second) // t0+2s: due
	j := recv(t, h.ran, "the retry")
	if j.Attempts != 2 {
		t.Fatalf("retry attempt %d", j.Attempts)
	}
	if got := jobOf(t, q, "doc_a"); got.State != store.JobDone {
		t.Fatalf("job after retry: %+v", got)
	}
}

// A permanent failure is final at once; a retryable one becomes final after MaxAttempts.
func TestPermanentFailureIsNotRetried(t *testing.T) {
	for _, c := range []struct {
		name        string
		err         error
		maxAttempts int
		runs        int
	}{
		{"permanent", errPermanent, 5, 1},
		{"retryable, attempts used up", errTransient, 2, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := newFakeClock()
			q := newQueue(t)
			enqueue(t, q, clk, "doc_a")
			h := newHandler(q, clk, func(context.Context, Job) error { return c.err })
			r := newRunner(q, h, clk)
			r.MaxAttempts = c.maxAttempts
			start(t, r)
			var last record
			for i := 0; i < c.runs; i++ {
				last = recv(t, h.recorded, "a failure")
				if i < c.runs-1 {
					clk.BlockUntil(t, 1)
					clk.Advance(Backoff(last.job.Attempts))
				}
			}
			if last.retry {
				t.Fatalf("the last failure is retried: %+v", last)
			}
			if j := jobOf(t, q, "doc_a"); j.State != store.JobFailed {
				t.Fatalf("job %+v, want failed", j)
			}
			clk.BlockUntil(t, 1)
			clk.Advance(10 * MaxBackoff)
			clk.BlockUntil(t, 1) // polled after every backoff could have passed
			if n := h.runCount(); n != c.runs {
				t.Fatalf("%d runs, want %d", n, c.runs)
			}
		})
	}
}

// Cancelling Run stops the workers, but Run returns only once the running batch has finished
// and been written.
func TestCancelStopsAndAwaitsWorkers(t *testing.T) {
	clk := newFakeClock()
	q := newQueue(t)
	enqueue(t, q, clk, "doc_a")
	started, release := make(chan struct{}), make(chan struct{})
	h := newHandler(q, clk, func(ctx context.Context, j Job) error {
		close(started)
		<-release
		return ctx.Err() // the batch's context is not the cancelled one
	})
	r := newRunner(q, h, clk)
	r.Workers = 3
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	recv(t, started, "the job to start")
	if !r.Running() {
		t.Fatal("Running is false while Run works")
	}
	cancel()
	select {
	case <-done:
		t.Fatal("Run returned while a batch was still running")
	default:
	}
	close(release)
	if err := recv(t, done, "Run to return"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v", err)
	}
	if r.Running() {
		t.Fatal("Running is true after Run returned")
	}
	if j := jobOf(t, q, "doc_a"); j.State != store.JobDone {
		t.Fatalf("the batch was abandoned: %+v", j)
	}
}

// Wake reaches every idle worker: two jobs queued while both workers wait out a long poll run
// side by side at once. With a one-slot signal only one worker woke; the other slept out its
// poll, so a folder ingest began on one core.
func TestWakeReachesEveryIdleWorker(t *testing.T) {
	q := newQueue(t)
	clk := newFakeClock()
	var mu sync.Mutex
	running, alone := 0, false
	both := make(chan struct{})
	h := newHandler(q, clk, func(ctx context.Context, j Job) error {
		mu.Lock()
		running++
		if running == 2 {
			close(both)
		}
		mu.Unlock()
		select {
		case <-both:
			return nil
		case <-time.After(5 * time.Second):
			mu.Lock()
			alone = true
			mu.Unlock()
			return errors.New("ran alone")
		}
	})
	r := newRunner(q, h, clk)
	r.Workers, r.Batch = 2, 1
	start(t, r)
	clk.BlockUntil(t, 2) // both workers found nothing and wait out their poll
	enqueue(t, q, clk, "doc_a")
	enqueue(t, q, clk, "doc_b")
	r.Wake()
	recv(t, h.ran, "a job")
	mu.Lock()
	defer mu.Unlock()
	if alone {
		t.Fatal("a job ran alone: the other idle worker did not wake")
	}
}
