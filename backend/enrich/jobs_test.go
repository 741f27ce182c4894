package enrich

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// scripted is a test enrichment that writes a marker for each document, fails on one, and
// blocks on another until its context ends (a document whose linking would never finish).
type scripted struct {
	failDoc, hangDoc string
	sleep            time.Duration
}

func (s *scripted) Name() string                   { return "Scripted" }
func (s *scripted) Version() string                { return "1" }
func (s *scripted) ReactsTo() []Emission           { return []Emission{DocumentAnalyzed, DocumentRemoved} }
func (s *scripted) Configure(map[string]any) error { return nil }
func (s *scripted) Enrich(ctx context.Context, run *Run) error {
	if _, err := run.Tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?, 'x')`, "enriched:"+run.Doc.DocumentID); err != nil {
		return err
	}
	switch run.Doc.DocumentID {
	case s.failDoc:
		return errors.New("enrichment bug")
	case s.hangDoc:
		<-ctx.Done()
		return ctx.Err()
	}
	time.Sleep(s.sleep)
	return nil
}

// jobService is a Service of the given enrichments with the shipped settings of none.
func jobService(t *testing.T, es ...Enrichment) *Service {
	t.Helper()
	reg, err := spec.Load(spec.Source{Label: "test", FS: fstest.MapFS{}})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := newService(reg, es, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// claimEnrich leases every queued enrich job to "test", in job order.
func claimEnrich(t *testing.T, db *store.DB) []store.Job {
	t.Helper()
	var jobs []store.Job
	err := db.WriteTx(context.Background(), func(tx *store.Tx) error {
		var err error
		jobs, err = store.ClaimJobs(context.Background(), tx, "test", time.Now(), time.Minute, 100)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		jobs[i].LeaseOwner = "test"
	}
	return jobs
}

// TestEnrichJobsFailAloneAndStopOnBudget: a batch of enrich jobs is written in several short
// transactions (TxBudget), an enrichment failing on one document rolls back only that job's
// writes and fails only its job, and a document whose linking outlasts DocBudget is stopped
// with ENRICH_BUDGET_EXCEEDED (permanent: it is not retried) while the others are linked.
func TestEnrichJobsFailAloneAndStopOnBudget(t *testing.T) {
	db := openStore(t)
	for _, id := range []string{"a", "b", "c", "d", "e", "f"} {
		addDoc(t, db, id, id, "analyzed")
	}
	sc := &scripted{failDoc: "b", hangDoc: "d", sleep: 15 * time.Millisecond}
	svc := jobService(t, sc)
	h := &JobHandler{Service: svc, DB: db, Now: time.Now, TxBudget: 20 * time.Millisecond, DocBudget: 300 * time.Millisecond}
	commits := db.Commits()
	batch := claimEnrich(t, db)
	if len(batch) != 6 {
		t.Fatalf("claimed %d jobs", len(batch))
	}
	failed := h.Run(context.Background(), batch)
	byDoc := map[string]error{}
	for _, j := range batch {
		if err, ok := failed[j.JobID]; ok {
			byDoc[j.DocumentID] = err
		}
	}
	if len(byDoc) != 2 || byDoc["b"] == nil || errs.CodeOf(byDoc["d"]) != errs.EnrichBudgetExceeded || errs.Retryable(byDoc["d"]) {
		t.Fatalf("failed: %v, want b's bug and d stopped on its budget (not retryable)", byDoc)
	}
	for _, id := range []string{"a", "c", "e", "f"} {
		if v, _ := store.Setting(context.Background(), db.Reader(), "enriched:"+id); v != "x" {
			t.Errorf("%s: its enrichment's write was lost", id)
		}
	}
	for _, id := range []string{"b", "d"} {
		if v, _ := store.Setting(context.Background(), db.Reader(), "enriched:"+id); v != "" {
			t.Errorf("%s: the failed job's write was committed", id)
		}
	}
	// Four documents of 15 ms each, a 20 ms budget, one stopped at 300 ms: never one
	// transaction for the batch.
	if n := db.Commits() - commits; n < 3 {
		t.Errorf("the batch was written in %d transactions, want several short ones", n)
	}
	for _, j := range batch {
		if err := failed[j.JobID]; err != nil {
			if rerr := h.Record(context.Background(), j, err, errs.Retryable(err), time.Now()); rerr != nil {
				t.Fatal(rerr)
			}
		}
	}
	var state string
	var env string
	if err := db.Reader().QueryRowContext(context.Background(), `SELECT state, error FROM jobs WHERE document_id = 'd' AND phase = 'enrich'`).Scan(&state, &env); err != nil {
		t.Fatal(err)
	}
	if state != store.JobFailed || errs.FromEnvelope(json.RawMessage(env)).Code != errs.EnrichBudgetExceeded {
		t.Fatalf("d's job: %s %s", state, env)
	}
	if d, err := store.GetDocument(context.Background(), db.Reader(), "d"); err != nil || d.Status != "analyzed" || len(d.LastError) != 0 {
		t.Fatalf("a document whose linking stopped stays read and searchable: %+v %v", d, err)
	}
}

// prepped is a Preparer that records, for each document, what its run found prepared.
type prepped struct{ prepares int }

func (p *prepped) Name() string                   { return "Prepped" }
func (p *prepped) Version() string                { return "1" }
func (p *prepped) ReactsTo() []Emission           { return []Emission{DocumentAnalyzed} }
func (p *prepped) Configure(map[string]any) error { return nil }
func (p *prepped) Prepare(_ context.Context, pr *Prep) (any, error) {
	if _, ok := pr.Q.(*store.Tx); ok {
		return nil, errors.New("prepared inside a transaction")
	}
	p.prepares++
	return "prepared " + pr.Doc.ContentHash, nil
}
func (p *prepped) Enrich(ctx context.Context, run *Run) error {
	got, _ := run.Prepared.(string)
	_, err := run.Tx.ExecContext(ctx, `INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)`, "prepared:"+run.Doc.DocumentID, got)
	return err
}

// TestLinkingPreparesOutsideTheTransaction: what an enrichment works out from a document's
// own content is done on a reader before the write transaction, once, and handed to the
// document's run; a document that changed in between is worked out again inside (its run
// finds nothing prepared), never from its old content.
func TestLinkingPreparesOutsideTheTransaction(t *testing.T) {
	db := openStore(t)
	for _, id := range []string{"a", "b", "c"} {
		addDoc(t, db, id, id, "analyzed")
	}
	p := &prepped{}
	svc := jobService(t, p)
	ctx := context.Background()
	h := &JobHandler{Service: svc, DB: db, Now: time.Now}
	if failed := h.Run(ctx, claimEnrich(t, db)); len(failed) != 0 {
		t.Fatalf("failed: %v", failed)
	}
	read := func(id string) string {
		var v string
		if err := db.Reader().QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, "prepared:"+id).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, id := range []string{"a", "b", "c"} {
		if got := read(id); got != "prepared "+id {
			t.Errorf("%s's run found %q prepared, want %q", id, got, "prepared "+id)
		}
	}
	if p.prepares != 3 {
		t.Errorf("%d prepares for 3 documents", p.prepares)
	}

	// b changes after it was prepared: its run must not use what was prepared from before.
	if err := svc.Prepare(ctx, db.Reader(), []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	err := db.WriteTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE documents SET content_hash = 'b2', updated_at = ? WHERE document_id = 'b'`, "2025-01-02T00:00:00.000000000Z")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.WriteTx(ctx, func(tx *store.Tx) error {
		g := svc.NewGroup(tx, t0)
		for _, id := range []string{"a", "b"} {
			if err := g.Enrich(ctx, store.Job{DocumentID: id}); err != nil {
				return err
			}
		}
		return g.Finish(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := read("a"); got != "prepared a" {
		t.Errorf("a: %q", got)
	}
	if got := read("b"); got != "" {
		t.Errorf("b changed after it was prepared, yet its run found %q", got)
	}
}

// TestLinkingStepsAsideForASavedFile: while Yield says a reader's work comes first (a saved
// file being read), linking does not commit: no write transaction starts until it is done.
func TestLinkingStepsAsideForASavedFile(t *testing.T) {
	db := openStore(t)
	addDoc(t, db, "a", "a", "analyzed")
	addDoc(t, db, "b", "b", "analyzed")
	svc := jobService(t, &scripted{})
	batch := claimEnrich(t, db)
	before := db.Commits()
	busy := 5 // the saved file's read ends after five looks
	h := &JobHandler{Service: svc, DB: db, Now: time.Now, Yield: func() bool {
		if busy == 0 {
			return false
		}
		busy--
		if db.Commits() != before {
			t.Errorf("linking committed while a saved file was being read")
		}
		return true
	}}
	if failed := h.Run(context.Background(), batch); len(failed) != 0 {
		t.Fatal(failed)
	}
	if busy != 0 {
		t.Fatalf("linking did not wait for the saved file (%d looks left)", busy)
	}
	if db.Commits() == before {
		t.Fatal("nothing was linked")
	}
}

// holding is an enrichment whose run writes and then holds its transaction until released
// (or its context ends): a document whose linking takes long.
type holding struct {
	started chan struct{} // one send per run
	release chan struct{}
}

func (h *holding) Name() string                   { return "Holding" }
func (h *holding) Version() string                { return "1" }
func (h *holding) ReactsTo() []Emission           { return []Emission{DocumentAnalyzed} }
func (h *holding) Configure(map[string]any) error { return nil }
func (h *holding) Enrich(ctx context.Context, run *Run) error {
	if _, err := run.Tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?, 'x')`, "enriched:"+run.Doc.DocumentID); err != nil {
		return err
	}
	h.started <- struct{}{}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-h.release:
		return nil
	}
}

// TestLinkingGivesUpItsTransactionForASavedFile: a saved file that comes while a transaction
// of linking runs does not wait for its end: the transaction is rolled back at once (the saved
// file's write commits while that linking is still unfinished), nothing of it is kept, and the
// document is linked again afterwards, without a failure on its job.
func TestLinkingGivesUpItsTransactionForASavedFile(t *testing.T) {
	db := openStore(t)
	addDoc(t, db, "a", "a", "analyzed")
	hold := &holding{started: make(chan struct{}, 4), release: make(chan struct{})}
	svc := jobService(t, hold)
	batch := claimEnrich(t, db)
	var saving atomic.Bool
	// DocBudget: the document's linking is not stopped for taking long, only for the saved file.
	h := &JobHandler{Service: svc, DB: db, Now: time.Now, Yield: saving.Load, DocBudget: time.Minute}
	ctx := context.Background()
	ran := make(chan map[int64]error, 1)
	var release sync.Once
	free := func() { release.Do(func() { close(hold.release) }) }
	var result map[int64]error
	finished := false
	wait := func() map[int64]error {
		if !finished {
			result, finished = <-ran, true
		}
		return result
	}
	go func() { ran <- h.Run(ctx, batch) }()
	t.Cleanup(func() { saving.Store(false); free(); wait() }) // a failed check leaves no linking running
	<-hold.started                                            // linking holds the write lock now

	saving.Store(true) // a saved file is being read: its write must not wait for linking
	wrote := make(chan error, 1)
	go func() {
		wrote <- db.WriteTx(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES ('saved', 'x')`)
			return err
		})
	}()
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		saving.Store(false)
		free()
		wait()
		<-wrote
		t.Fatal("the saved file's write waited for linking's transaction")
	}
	var n int
	if err := db.Reader().QueryRowContext(ctx, `SELECT count(*) FROM settings WHERE key = 'enriched:a'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("what the abandoned transaction wrote was kept")
	}

	saving.Store(false) // the file is read: linking goes on
	<-hold.started
	free()
	if failed := wait(); len(failed) != 0 {
		t.Fatalf("jobs failed: %v", failed)
	}
	if err := db.Reader().QueryRowContext(ctx, `SELECT count(*) FROM settings WHERE key = 'enriched:a'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("the document was not linked after the saved file (%d rows)", n)
	}
	var state string
	if err := db.Reader().QueryRowContext(ctx, `SELECT state FROM jobs WHERE job_id = ?`, batch[0].JobID).Scan(&state); err != nil {
		t.Fatal(err)
	}
	if state != store.JobDone {
		t.Fatalf("job %s, want %s", state, store.JobDone)
	}
}

// warming is a Warmer whose catching up takes longer than a document's budget and whose runs
// need it done in their transaction.
type warming struct {
	took   time.Duration
	warmed store.Q
}

func (w *warming) Name() string                   { return "Warming" }
func (w *warming) Version() string                { return "1" }
func (w *warming) ReactsTo() []Emission           { return []Emission{DocumentAnalyzed} }
func (w *warming) Configure(map[string]any) error { return nil }
func (w *warming) Warm(ctx context.Context, tx store.Q, _ string) error {
	if w.warmed == tx {
		return nil // caught up in this transaction already
	}
	select {
	case <-time.After(w.took):
	case <-ctx.Done():
		return ctx.Err()
	}
	w.warmed = tx
	return nil
}
func (w *warming) Enrich(ctx context.Context, run *Run) error {
	if w.warmed != run.Tx {
		return errors.New("run before its index was brought up to date")
	}
	_, err := run.Tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?, 'x')`, "enriched:"+run.Doc.DocumentID)
	return err
}

// TestLinkingWarmsUpOutsideADocumentsBudget: the shared work of catching an index up (after a
// start: every document vector of the store) is no document's own, so it does not count
// against the document's budget — charged to it, the first document linked after a start
// failed for good whenever the load outlasted the budget.
func TestLinkingWarmsUpOutsideADocumentsBudget(t *testing.T) {
	db := openStore(t)
	addDoc(t, db, "a", "a", "analyzed")
	addDoc(t, db, "b", "b", "analyzed")
	w := &warming{took: 150 * time.Millisecond}
	svc := jobService(t, w)
	h := &JobHandler{Service: svc, DB: db, Now: time.Now, TxBudget: time.Second, DocBudget: 50 * time.Millisecond}
	batch := claimEnrich(t, db)
	if failed := h.Run(context.Background(), batch); len(failed) != 0 {
		t.Fatalf("failed: %v", failed)
	}
	for _, id := range []string{"a", "b"} {
		if v, _ := store.Setting(context.Background(), db.Reader(), "enriched:"+id); v != "x" {
			t.Errorf("%s was not linked", id)
		}
	}
}
