package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/store"
)

func docStatus(t *testing.T, in *Ingester, id string) docstate.Status {
	t.Helper()
	d, err := store.GetDocument(context.Background(), in.DB.Reader(), id)
	if err != nil {
		t.Fatal(err)
	}
	return docstate.Status(d.Status)
}

func claimOne(t *testing.T, in *Ingester) store.Job {
	t.Helper()
	ctx := context.Background()
	var jobs []store.Job
	err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		var err error
		jobs, err = store.ClaimJobs(ctx, tx, "test", in.Now(), time.Minute, 1)
		return err
	})
	if err != nil || len(jobs) != 1 {
		t.Fatalf("claim: %v (%d jobs)", err, len(jobs))
	}
	jobs[0].LeaseOwner = "test"
	return jobs[0]
}

// A file's document walks the life cycle through the writers, and an analysis that finishes
// after its file was removed does not bring the document back.
func TestDocumentStatusThroughTheWriters(t *testing.T) {
	in := newIngester(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(path, []byte("# Notes\n\nSome text worth finding.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := in.RegisterFile(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := docStatus(t, in, res.DocumentID); s != docstate.Registered {
		t.Fatalf("after register: %q", s)
	}

	job := claimOne(t, in)
	a, err := in.Analyze(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.RemoveFile(ctx, path); err != nil {
		t.Fatal(err)
	}
	if err := in.DB.WriteTx(ctx, func(tx *store.Tx) error { return in.WriteAnalyses(ctx, tx, []*Analysis{a}) }); err != nil {
		t.Fatal(err)
	}
	if s := docStatus(t, in, res.DocumentID); s != docstate.Removed {
		t.Fatalf("a late analysis revived a removed document: %q", s)
	}

	// Registered again, it is analysed normally.
	if _, err := in.RegisterFile(ctx, path, nil); err != nil {
		t.Fatal(err)
	}
	if s := docStatus(t, in, res.DocumentID); s != docstate.Registered {
		t.Fatalf("after registering again: %q", s)
	}
	job = claimOne(t, in)
	if a, err = in.Analyze(ctx, job); err != nil {
		t.Fatal(err)
	}
	if err := in.DB.WriteTx(ctx, func(tx *store.Tx) error { return in.WriteAnalyses(ctx, tx, []*Analysis{a}) }); err != nil {
		t.Fatal(err)
	}
	if s := docStatus(t, in, res.DocumentID); s != docstate.Analyzed {
		t.Fatalf("after analysis: %q", s)
	}
}
