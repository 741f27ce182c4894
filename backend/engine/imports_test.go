package engine_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/internal/benchdata"
	"github.com/strata-app/strata/internal/testenv"
)

// An import is counted once per file, in one of added, changed, identical (unchanged, moved,
// a copy) or failed (by reason), with the ignored files and folders apart, and said in one line.
func TestImportSummaryCountsEachFileOnce(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	dir := t.TempDir()
	known := write(t, filepath.Join(dir, "known.md"), "# Known\n\nA note Strata already holds.\n")
	changed := write(t, filepath.Join(dir, "changed.md"), "# Changed\n\nThe first version.\n")
	if _, err := e.IngestFiles(ctx, local, []string{known, changed}, true, nil); err != nil {
		t.Fatal(err)
	}
	write(t, changed, "# Changed\n\nThe second version, longer than the first.\n")
	write(t, filepath.Join(dir, "a.md"), "# Alpha\n\nThe heron count rose in May.\n")
	write(t, filepath.Join(dir, "b.md"), "# Beta\n\nThe otters moved upstream.\n")
	write(t, filepath.Join(dir, "copy-of-a.md"), "# Alpha\n\nThe heron count rose in May.\n")
	write(t, filepath.Join(dir, "junk.bin"), string([]byte{0, 1, 2, 3, 0xff, 0xfe, 0, 0, 7, 9}))
	write(t, filepath.Join(dir, "truncated.pdf"), "%PDF-1.4\n1 0 obj\n<< /Type /Catalog")
	write(t, filepath.Join(dir, ".hidden.md"), "# Hidden\n")
	write(t, filepath.Join(dir, "node_modules", "x.js"), "module.exports = 1\n")

	r, err := e.IngestFiles(ctx, local, []string{dir}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := r.Summary
	want := engine.ImportSummary{Files: 7, Added: 2, Updated: 1, Unchanged: 1, Duplicates: 1, Failed: 2,
		FailedBy: map[string]int{string(errs.UnsupportedFileType): 1, string(errs.AnalysisFailed): 1}, Finished: true}
	want.Ignored.Files, want.Ignored.Folders = 1, 1
	if s.Files != want.Files || s.Added != want.Added || s.Updated != want.Updated || s.Unchanged != want.Unchanged ||
		s.Duplicates != want.Duplicates || s.Moved != 0 || s.Failed != want.Failed || s.Ignored != want.Ignored ||
		s.Pending != 0 || !s.Finished || len(s.FailedBy) != 2 || s.FailedBy[string(errs.UnsupportedFileType)] != 1 ||
		s.FailedBy[string(errs.AnalysisFailed)] != 1 {
		t.Fatalf("summary:\n got %+v\nwant %+v", s, want)
	}
	if s.Added+s.Updated+s.Identical()+s.Failed+s.Pending != s.Files {
		t.Fatalf("the counts do not add up to the files: %+v", s)
	}
	line := "7 files: 2 added, 1 changed and read again, 2 identical to files already here, 2 failed; 1 file and 1 folder ignored"
	if s.Text() != line || s.Line != line {
		t.Fatalf("line:\n got %q\nwant %q", s.Text(), line)
	}
	if r.Failed != 2 {
		t.Fatalf("the outcomes count %d failed, the summary 2", r.Failed)
	}

	// The same folder again: nothing new, the failures stay failures.
	r, err = e.IngestFiles(ctx, local, []string{dir}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Summary.Text(), "7 files: 5 identical to files already here, 2 failed; 1 file and 1 folder ignored"; got != want {
		t.Fatalf("again:\n got %q\nwant %q", got, want)
	}
}

// The line's words for small and large counts, and while files are still being read. The
// cases are shared with the UI's test (frontend/src/lib/progress.test.ts), which renders the
// same counts for a batch of uploads: both must say the same words.
func TestImportSummaryText(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "import_lines.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Summary engine.ImportSummary `json:"summary"`
		Line    string               `json:"line"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 5 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		if got := c.Summary.Text(); got != c.Line {
			t.Errorf("%+v:\n got %q\nwant %q", c.Summary, got, c.Line)
		}
	}
}

// An import through Import (the window's and the browser's door) answers at once with what
// registration knows, and Status.Imports follows it until its files are read, counting the
// failures analysis finds.
func TestImportIsFollowedUntilRead(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "good.md"), "# Good\n\nA fine note about herons.\n")
	write(t, filepath.Join(dir, "truncated.pdf"), "%PDF-1.4\n1 0 obj\n<< /Type /Catalog")
	imp, err := e.Import(ctx, local, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if s := imp.Summary; s.ID == "" || s.ID != imp.ID || s.Folder != dir || s.Files != 2 || s.Added != 0 || s.Pending != 2 || s.Finished || s.Line != "2 files: 2 being analysed" {
		t.Fatalf("at registration: %+v", s)
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Imports) != 1 || st.Imports[0].ID != imp.ID || st.Imports[0].Finished {
		t.Fatalf("status imports: %+v", st.Imports)
	}
	if !st.Progress.Active || !slices.ContainsFunc(st.Progress.Phases, func(p engine.PhaseProgress) bool { return p.Phase == "analyze" && p.Total == 2 }) {
		t.Fatalf("progress while 2 files wait for analysis: %+v", st.Progress)
	}
	var ids []string
	for _, r := range imp.Results {
		ids = append(ids, r.Result.DocumentID)
	}
	if _, err := e.WaitDocuments(ctx, ids, nil); err != nil {
		t.Fatal(err)
	}
	if st, err = e.Status(ctx); err != nil {
		t.Fatal(err)
	}
	s := st.Imports[0]
	if !s.Finished || s.Added != 1 || s.Failed != 1 || s.FailedBy[string(errs.AnalysisFailed)] != 1 || s.FinishedAt == "" ||
		s.Line != "2 files: 1 added, 1 failed" {
		t.Fatalf("after analysis: %+v", s)
	}
}

// Adding a folder while Strata serves registers each file once. The watcher's loop sees the new
// folder within RootSyncInterval and used to reconcile it at once, racing the add's own
// registration: of 5,000 files, ~3,900 were registered twice. The folder's scan lease holds
// the reconcile back until the add is done; the reconcile then finds every file unchanged.
// While the add runs, the status is never idle and lists the registration.
func TestAddingAFolderWhileServingRegistersEachFileOnce(t *testing.T) {
	src := t.TempDir()
	const n = 1500
	if err := benchdata.WriteNotes(src, 0, n); err != nil {
		t.Fatal(err)
	}
	logs := &testenv.LogBuffer{}
	cfg := config(t.TempDir(), func(c *engine.Config) {
		c.RootSyncInterval = 10 * time.Millisecond
		c.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	e, err := engine.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- e.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
		e.Close()
	})

	added := make(chan *engine.Import, 1)
	go func() {
		imp, err := e.AddWatchRoot(ctx, local, src)
		if err != nil {
			t.Error(err)
		}
		added <- imp
	}()
	watchedDuring, statuses := false, 0
	var imp *engine.Import
	for imp == nil {
		select {
		case imp = <-added:
			continue
		case <-time.After(20 * time.Millisecond):
		}
		st, err := e.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		select { // a status read after the add returned proves nothing about the add
		case imp = <-added:
			continue
		default:
		}
		statuses++
		if !st.Progress.Active || !slices.ContainsFunc(st.Progress.Phases, func(p engine.PhaseProgress) bool { return p.Phase == "register" }) {
			t.Fatalf("the status while %d files are being added: %+v", n, st.Progress)
		}
		for _, w := range e.WatchStatus() {
			watchedDuring = watchedDuring || w.Root == src
		}
	}
	if imp == nil {
		t.FailNow()
	}
	if !watchedDuring {
		t.Fatalf("the serve loop did not watch the folder while it was being added (%d statuses): the race was not exercised", statuses)
	}
	if imp.Summary.Files != n || imp.Summary.Failed != 0 {
		t.Fatalf("add: %+v", imp.Summary)
	}
	// The reconcile comes once the add is done, and registers nothing.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(logs.String(), "msg=reconciled root="+src) {
		if time.Now().After(deadline) {
			t.Fatalf("the added folder was not reconciled after the add; log:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if line := logs.Line("msg=reconciled root=" + src); !strings.Contains(line, "registered=0 ") {
		t.Fatalf("the reconcile after the add registered files again: %s", line)
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Counts.Submissions != n {
		t.Fatalf("%d registrations (submissions) for %d files: each file must be registered once", st.Counts.Submissions, n)
	}
}

// A file already here found at a new path counts as moved (ingest.Result.Moved), not unchanged.
func TestImportCountsAMovedFile(t *testing.T) {
	e := open(t, withStaticEmbedder)
	ctx := context.Background()
	dir := t.TempDir()
	old, moved := filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md")
	if err := os.WriteFile(old, []byte("# Heron\n\nThe heron colony by the river.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Import(ctx, local, []string{old}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(old, moved); err != nil {
		t.Fatal(err)
	}
	imp, err := e.Import(ctx, local, []string{moved})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Summary.Moved != 1 || imp.Summary.Unchanged != 0 || len(imp.Results) != 1 || imp.Results[0].Result == nil || !imp.Results[0].Result.Moved {
		t.Fatalf("moved file: %+v %+v", imp.Summary, imp.Results)
	}
}
