package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
)

func hermetic(c *engine.Config) { c.Embedder, c.OllamaHost = "static", "127.0.0.1:9" }

// IngestFiles merges registration answers with where the waited documents ended, and counts
// as failed both files that could not be registered and files whose analysis failed.
func TestIngestFilesMergesAndCountsFailures(t *testing.T) {
	dir := t.TempDir()
	e := open(t, hermetic)
	ctx := context.Background()
	good := write(t, filepath.Join(dir, "good.md"), "# Good\n\nA fine note about herons.")
	broken := write(t, filepath.Join(dir, "broken.pdf"), "%PDF-1.4\n1 0 obj\n<< /Type /Catalog")
	missing := filepath.Join(dir, "missing.md")

	res, err := e.IngestFiles(ctx, local, []string{good, broken, missing}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]engine.FileOutcome{}
	for _, o := range res.Documents {
		by[filepath.Base(o.Path)] = o
	}
	if len(res.Documents) != 3 || res.Failed != 2 {
		t.Fatalf("want 3 outcomes, 2 failed: %+v", res)
	}
	if o := by["good.md"]; o.Status != "analyzed" || o.Phases["analyze"] != "done" || o.Error != nil || o.DocumentID == "" {
		t.Errorf("good file: %+v", o)
	}
	if o := by["broken.pdf"]; o.Status != "failed" || o.Phases["analyze"] != "failed" || o.Error == nil || o.DocumentID == "" {
		t.Errorf("broken file: %+v", o)
	}
	if o := by["missing.md"]; o.Status != "failed" || o.Error == nil || o.Error.Code != errs.FileNotFound {
		t.Errorf("missing file: %+v", o)
	}

	// Without waiting, only what registration knows (the row as it left it: registered, its
	// analysis queued); the broken PDF has not failed yet.
	again := write(t, filepath.Join(dir, "later.md"), "# Later\n\nAnother note.")
	res, err = e.IngestFiles(ctx, local, []string{again, missing}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed != 1 || res.Documents[0].Status != "registered" || res.Documents[0].Phases["register"] == "" {
		t.Fatalf("without wait: %+v", res)
	}
}

// StoreUpload writes into DATA/uploads/<hash>/ under the file's own name (no folders) and
// ingests the file;
// a write that cannot complete leaves nothing behind (atomicfile's test breaks the write half
// way; here the folder cannot be created).
func TestStoreUpload(t *testing.T) {
	e := open(t, hermetic)
	ctx := context.Background()
	imp, err := e.StoreUpload(ctx, local, `..\notes/../../report.md`, []byte("# Report\n\nThe heron count rose in May."))
	if err != nil {
		t.Fatal(err)
	}
	if imp.Summary.Files != 1 || imp.Summary.Added+imp.Summary.Pending != 1 {
		t.Fatalf("upload summary: %+v", imp.Summary)
	}
	res := imp.Results
	if len(res) != 1 || res[0].Error != nil || res[0].Result == nil {
		t.Fatalf("upload: %+v", res)
	}
	if filepath.Dir(filepath.Dir(res[0].Path)) != filepath.Join(e.DataDir(), "uploads") || filepath.Base(res[0].Path) != "report.md" {
		t.Fatalf("stored at %s", res[0].Path)
	}
	if b, err := os.ReadFile(res[0].Path); err != nil || !strings.Contains(string(b), "heron") {
		t.Fatalf("stored file: %q %v", b, err)
	}
	ents, _ := os.ReadDir(filepath.Dir(res[0].Path))
	if len(ents) != 1 {
		t.Fatalf("%s holds %d entries, want 1 (no temporary file left)", filepath.Dir(res[0].Path), len(ents))
	}
	// The same name with other contents is another file, beside it.
	other, err := e.StoreUpload(ctx, local, "report.md", []byte("# Report\n\nThe heron count fell in June."))
	if err != nil || len(other.Results) != 1 || other.Results[0].Path == res[0].Path || filepath.Base(other.Results[0].Path) != "report.md" {
		t.Fatalf("a second report.md: %+v %v", other, err)
	}
	_, err = e.StoreUpload(ctx, local, "big.bin", make([]byte, engine.MaxUpload+1))
	wantCode(t, err, errs.FileTooLarge)

	blocked := open(t, hermetic)
	write(t, filepath.Join(blocked.DataDir(), "uploads"), "a file where the folder should be")
	_, err = blocked.StoreUpload(ctx, local, "a.md", []byte("# A"))
	wantCode(t, err, errs.Internal)
}

// DocumentView is the document with its chunks and the observations made from it, in one call.
func TestDocumentView(t *testing.T) {
	e := open(t, hermetic)
	ctx := context.Background()
	res := ingest(t, e, "", map[string]any{"text": "# Roadmap\n\nShip search in May. Mail ada@example.org.", "tags": []string{"planning"}})
	v, err := e.DocumentView(ctx, res.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := e.DocumentObservations(ctx, res.DocumentID)
	if v.DocumentID != res.DocumentID || len(v.Chunks) == 0 || len(v.Observations) == 0 || !reflect.DeepEqual(v.Observations, want) {
		t.Fatalf("view: %+v (observations %d, want %d)", v.DocumentDetail, len(v.Observations), len(want))
	}
	_, err = e.DocumentView(ctx, "doc_nope")
	wantCode(t, err, "DOCUMENT_NOT_FOUND")
}

// EntityWithProvenance gives every field the same provenance FieldProvenance gives it alone.
func TestEntityWithProvenance(t *testing.T) {
	e := open(t, withSpecs(policySpecs), hermetic)
	ctx := context.Background()
	a := ingest(t, e, "", gadget("t:high:v1", "2025-01-10T00:00:00Z", map[string]any{"trusted": "from-high", "labels": []string{"x"}}))
	ingest(t, e, "", gadget("t:low:v1", "2025-03-10T00:00:00Z", map[string]any{"trusted": "from-low", "labels": []string{"y"}}))
	id := a.EntityIDs[0]
	got, err := e.EntityWithProvenance(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := e.GetEntity(ctx, id, "")
	if !reflect.DeepEqual(got.Entity, snap) || len(got.Provenance) != len(snap.Snapshot) || len(snap.Snapshot) < 2 {
		t.Fatalf("entity %+v, %d provenances for %d fields", got.Entity, len(got.Provenance), len(snap.Snapshot))
	}
	for field := range snap.Snapshot {
		one, err := e.FieldProvenance(ctx, id, field)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Provenance[field], one) {
			t.Errorf("%s: together %+v, alone %+v", field, got.Provenance[field], one)
		}
	}
	if got.Provenance["trusted"].SourcePayload.PayloadID != a.PayloadID {
		t.Errorf("trusted comes from %s, want %s", got.Provenance["trusted"].SourcePayload.PayloadID, a.PayloadID)
	}
	_, err = e.EntityWithProvenance(ctx, "ent_000000000000000000000000")
	wantCode(t, err, errs.EntityNotFound)
}
