package enrich

import (
	"context"
	"encoding/json"
	"errors"
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
	reg, err := spec.Load(spec.Source{Label: "test", FS: fstest.MapFS{}})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := newService(reg, []Enrichment{sc}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
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
