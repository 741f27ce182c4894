package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/store"
)

// failingEnricher fails the enrich job of one document after writing something, and succeeds
// for the others.
type failingEnricher struct{ failDoc string }

func (f failingEnricher) Enrich(ctx context.Context, tx store.Q, job store.Job, now string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?, 'x')`, "enriched:"+job.DocumentID); err != nil {
		return err
	}
	if job.DocumentID == f.failDoc {
		return errors.New("enrichment bug")
	}
	return nil
}

// TestFailingEnrichmentFailsOnlyItsJob: enrich jobs run in the batch's write transaction, each
// in a savepoint, so an enrichment failing on one document rolls back only its own writes and
// fails only its own job; the batch's analyses and the other enrich jobs commit.
func TestFailingEnrichmentFailsOnlyItsJob(t *testing.T) {
	in := newIngester(t)
	ctx := context.Background()
	dir := t.TempDir()
	var docs []string
	for _, name := range []string{"a.md", "b.md"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("# "+name+"\n\nsome text\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		res, err := in.RegisterFile(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, res.DocumentID)
	}
	in.Enricher = failingEnricher{failDoc: docs[0]}
	var batch []store.Job
	err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		var err error
		batch, err = store.ClaimJobs(ctx, tx, "test", in.Now(), time.Minute, 16)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var enrichJobs, analyzeJobs int
	for i := range batch {
		batch[i].LeaseOwner = "test"
		switch batch[i].Phase {
		case PhaseEnrich:
			enrichJobs++
		case PhaseAnalyze:
			analyzeJobs++
		}
	}
	if enrichJobs != 2 || analyzeJobs != 2 {
		t.Fatalf("claimed %d enrich and %d analyze jobs, want 2 and 2: %+v", enrichJobs, analyzeJobs, batch)
	}
	failed := (&jobHandler{in: in}).Run(ctx, batch)
	if len(failed) != 1 {
		t.Fatalf("failed jobs: %v, want only a's enrich job", failed)
	}
	for id := range failed {
		for _, j := range batch {
			if j.JobID == id && (j.Phase != PhaseEnrich || j.DocumentID != docs[0]) {
				t.Fatalf("the failed job is %+v", j)
			}
		}
	}
	for _, id := range docs {
		d, err := store.GetDocument(ctx, in.DB.Reader(), id)
		if err != nil || d.Status != "analyzed" {
			t.Fatalf("%s: %+v %v — the failing enrichment held the analyses back", id, d.Status, err)
		}
	}
	if v, _ := store.Setting(ctx, in.DB.Reader(), "enriched:"+docs[0]); v != "" {
		t.Fatal("the failed enrichment's write was committed")
	}
	if v, _ := store.Setting(ctx, in.DB.Reader(), "enriched:"+docs[1]); v != "x" {
		t.Fatal("the other enrichment's write was lost")
	}
}
