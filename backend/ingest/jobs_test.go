package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// Recording failures: a retry only re-queues the job; a final analysis failure fails the
// document through its life cycle and takes its chunks out of the index.
func TestRecordJobFailure(t *testing.T) {
	in := newIngester(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(path, []byte("# A\n\ntext\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := in.RegisterFile(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := &jobHandler{in: in}
	job := claimOne(t, in)
	cause := errs.New(errs.Internal, "disk busy")
	if err := h.Record(ctx, job, cause, true, in.Now()); err != nil {
		t.Fatal(err)
	}
	if s := docStatus(t, in, res.DocumentID); s != docstate.Registered {
		t.Fatalf("a retry changed the status to %q", s)
	}
	job = claimOne(t, in)
	if err := h.Record(ctx, job, errs.New(errs.AnalysisFailed, "damaged"), false, in.Now()); err != nil {
		t.Fatal(err)
	}
	d, err := store.GetDocument(ctx, in.DB.Reader(), res.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != string(docstate.Failed) || d.PhaseAnalyze != "failed" || errs.FromEnvelope(d.LastError).Code != errs.AnalysisFailed {
		t.Fatalf("document after a final failure: %+v", d)
	}
	jobs, err := store.JobsOf(ctx, in.DB.Reader(), res.DocumentID)
	if err != nil || jobs[0].State != store.JobFailed {
		t.Fatalf("job %+v %v", jobs, err)
	}
	// A worker whose lease is gone records nothing.
	if err := h.Record(ctx, job, cause, true, in.Now()); err != nil {
		t.Fatalf("a lost lease is not an error: %v", err)
	}
	if jobs, _ := store.JobsOf(ctx, in.DB.Reader(), res.DocumentID); jobs[0].State != store.JobFailed {
		t.Fatalf("a lost lease overwrote the job: %+v", jobs[0])
	}
}

// TestMislabelledBinarySaysSo: random bytes saved as notes.md are refused as binary data that
// is not the Markdown its name promises, not as "a format Strata does not read".
func TestMislabelledBinarySaysSo(t *testing.T) {
	in := newIngester(t)
	path := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(path, []byte{0, 1, 2, 0xff, 0xfe, 0, 9, 'x'}, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := in.RegisterFile(context.Background(), path, nil)
	if e := errs.As(err); e == nil || e.Code != errs.UnsupportedFileType || !strings.Contains(e.Message, "binary data, not the markdown") {
		t.Fatalf("got %v", err)
	}
}
