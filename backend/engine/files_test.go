package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
)

func write(t testing.TB, path, content string) string {
	t.Helper()
	mkfile(t, path, content)
	return path
}

func ingestFile(t testing.TB, e *engine.Engine, path string) *engine.IngestResult {
	t.Helper()
	res, err := e.Ingest(context.Background(), local, "", mustJSON(t, map[string]any{"file_path": path}))
	if err != nil {
		t.Fatalf("ingest %s: %v", path, err)
	}
	return res
}

func settle(t testing.TB, e *engine.Engine, ids ...string) []engine.Document {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	docs, err := e.WaitDocuments(ctx, ids, nil)
	if err != nil {
		t.Fatalf("wait: %v", err)
	}
	return docs
}

const note = `---
title: Q3 planning
tags: [planning, acme]
---
# Q3 planning

Meet ada@lovelace.org on 2025-03-14 about the €1,200.00 renewal. #budget

## Risks

See https://acme.org/risks for details.
`

func TestFilePhasesAndHeuristics(t *testing.T) {
	dir := t.TempDir()
	e := open(t)
	ctx := context.Background()
	p := write(t, filepath.Join(dir, "plan.md"), note)
	res := ingestFile(t, e, p)
	if res.InputKind != "extract-file" || res.DocumentID == "" || res.Phases["register"] != "done" || res.Phases["analyze"] != "queued" {
		t.Fatalf("register result: %+v", res)
	}
	d := settle(t, e, res.DocumentID)[0]
	if d.Status != "analyzed" || d.PhaseAnalyze != "done" || d.PhaseSemantic != "skipped" || d.Title != "Q3 planning" {
		t.Fatalf("after analyze: %+v", d)
	}
	detail, err := e.GetDocument(ctx, res.DocumentID)
	if err != nil || len(detail.Chunks) == 0 {
		t.Fatalf("chunks: %v %v", detail, err)
	}
	if detail.Chunks[len(detail.Chunks)-1].Heading != "Q3 planning > Risks" || detail.Chunks[0].LineStart < 5 {
		t.Fatalf("chunk structure: %+v", detail.Chunks)
	}
	s, err := e.GetEntity(ctx, res.EntityIDs[0], "")
	if err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]string{"title": `"Q3 planning"`, "dates": `["2025-03-14"]`, "emails": `["ada@lovelace.org"]`,
		"tags": `["acme","budget","planning"]`, "format": `"markdown"`, "urls": `["https://acme.org/risks"]`} {
		if got := field(t, s, f); got != want {
			t.Errorf("document %s = %s, want %s", f, got, want)
		}
	}
	rels, _ := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: res.EntityIDs[0], Direction: "outbound", Type: "REFERS_TO", Derived: assertedOnly})
	if rels.Total != 1 { // the contact; the tags' concepts are derived by an enrichment (below)
		t.Errorf("document refers to %d entities, want 1", rels.Total)
	}
	waitEnriched(t, e)
	tagged := 0
	for _, l := range linksOfType(t, e, "REFERS_TO") {
		for _, c := range []string{"acme", "budget", "planning"} { // 2 declared, 1 trailing #tag
			if strings.HasSuffix(l, " → "+c+" (1.000)") {
				tagged++
			}
		}
	}
	if tagged != 3 {
		t.Errorf("derived REFERS_TO to the 3 tags' concepts: %d of %v", tagged, linksOfType(t, e, "REFERS_TO"))
	}
	people, _ := e.ListEntities(ctx, "person", "ada@lovelace.org", 0, 0)
	if people.Total != 1 {
		t.Fatal("no contact for the e-mail address")
	}
	obs, _ := e.ListObservations(ctx, people.Entities[0].EntityID, 0, 0)
	if !strings.Contains(string(obs.Observations[0].Span), `"line":7`) {
		t.Errorf("contact span should cite line 7: %s", obs.Observations[0].Span)
	}
	// Registering the same unchanged file again does nothing.
	again := ingestFile(t, e, p)
	if again.Created || again.DocumentID != res.DocumentID {
		t.Fatalf("unchanged file: %+v", again)
	}
}

func TestFileChangeDeleteMoveCopy(t *testing.T) {
	dir := t.TempDir()
	e := open(t)
	ctx := context.Background()
	p := write(t, filepath.Join(dir, "a.md"), "# First title\n\nalpha beta\n")
	r1 := ingestFile(t, e, p)
	settle(t, e, r1.DocumentID)

	// change: new payload, old chunks replaced, history kept
	write(t, p, "# Second title\n\ngamma delta\n")
	r2 := ingestFile(t, e, p)
	if !r2.Created || r2.DocumentID != r1.DocumentID || r2.PayloadID == r1.PayloadID {
		t.Fatalf("change: %+v", r2)
	}
	settle(t, e, r2.DocumentID)
	detail, _ := e.GetDocument(ctx, r1.DocumentID)
	if len(detail.Chunks) != 1 || !strings.Contains(detail.Chunks[0].Text, "gamma") {
		t.Fatalf("old chunks still indexed: %+v", detail.Chunks)
	}
	// The engine's clock is the test clock, one second a call: observations are ordered.
	obs, _ := e.ListObservations(ctx, r1.EntityIDs[0], 0, 0)
	var firstAnalyze string
	for _, o := range obs.Observations {
		if o.Extractor == "file:analyze" && strings.Contains(string(o.Fields), "First title") {
			firstAnalyze = o.ObservedAt
		}
	}
	old, err := e.GetEntity(ctx, r1.EntityIDs[0], firstAnalyze)
	if err != nil || field(t, old, "title") != `"First title"` {
		t.Fatalf("snapshot at the first version should show the old title: %v %v", old, err)
	}
	now, _ := e.GetEntity(ctx, r1.EntityIDs[0], "")
	if field(t, now, "title") != `"Second title"` {
		t.Fatalf("current title %s", field(t, now, "title"))
	}

	// copy: same bytes at a second path are not extracted again
	cp := write(t, filepath.Join(dir, "copy.md"), "# Second title\n\ngamma delta\n")
	rc := ingestFile(t, e, cp)
	dc := settle(t, e, rc.DocumentID)[0]
	if dc.DuplicateOf != r1.DocumentID || dc.PhaseAnalyze != "skipped" {
		t.Fatalf("copy: %+v", dc)
	}

	// move: same document, new path, not re-extracted
	moved := filepath.Join(dir, "sub", "renamed.md")
	os.MkdirAll(filepath.Dir(moved), 0o755)
	if err := os.Rename(p, moved); err != nil {
		t.Fatal(err)
	}
	jobsBefore, _ := e.GetDocument(ctx, r1.DocumentID)
	rm := ingestFile(t, e, moved)
	if rm.DocumentID != r1.DocumentID || rm.Created || !strings.Contains(rm.Message, "Moved") {
		t.Fatalf("move: %+v", rm)
	}
	jobsAfter, _ := e.GetDocument(ctx, r1.DocumentID)
	if len(jobsAfter.Jobs) != len(jobsBefore.Jobs) || jobsAfter.Path != moved || len(jobsAfter.Chunks) != 1 {
		t.Fatalf("moved document re-extracted or lost: %+v", jobsAfter)
	}

	// delete: removed, leaves the index
	os.Remove(moved)
	if _, _, err := e.Reconcile(ctx, local, dir); err != nil {
		t.Fatal(err)
	}
	gone, _ := e.GetDocument(ctx, r1.DocumentID)
	if gone.Status != "removed" || len(gone.Chunks) != 0 {
		t.Fatalf("deleted file: %s with %d chunks", gone.Status, len(gone.Chunks))
	}
}

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	e := open(t, func(c *engine.Config) { c.MaxFileBytes = 1 << 20 })
	ctx := context.Background()
	junk := make([]byte, 4096)
	for i := range junk {
		junk[i] = byte(i*7 + i/3)
	}
	files := map[string]string{
		"empty.txt":      "",
		"junk.bin":       string(junk),
		"big.txt":        strings.Repeat("x", 2<<20),
		"good.txt":       "a perfectly fine note",
		"truncated.pdf":  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog",
		"not-a-zip.docx": "hello, I am not a zip",
	}
	for name, content := range files {
		write(t, filepath.Join(dir, name), content)
	}
	os.Symlink(filepath.Join(dir, "loop2"), filepath.Join(dir, "loop1"))
	os.Symlink(filepath.Join(dir, "loop1"), filepath.Join(dir, "loop2"))
	results, err := e.IngestPaths(ctx, local, []string{dir, filepath.Join(dir, "loop1"), filepath.Join(dir, "missing.md")})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]engine.PathResult{}
	var ids []string
	for _, r := range results {
		byName[filepath.Base(r.Path)] = r
		if r.Result != nil {
			ids = append(ids, r.Result.DocumentID)
		}
	}
	wantNow := map[string]string{"junk.bin": errs.UnsupportedFileType, "big.txt": errs.FileTooLarge, "loop1": errs.FileNotFound, "missing.md": errs.FileNotFound}
	for name, code := range wantNow {
		r, ok := byName[name]
		if !ok || r.Error == nil || r.Error.Code != code || r.Error.Hint == "" && code != errs.FileNotFound {
			t.Errorf("%s: want %s, got %+v", name, code, r)
		}
	}
	docs := settle(t, e, ids...)
	status := map[string]engine.Document{}
	for _, d := range docs {
		status[filepath.Base(d.Path)] = d
	}
	if d := status["good.txt"]; d.Status != "analyzed" {
		t.Errorf("good file: %+v", d)
	}
	if d := status["empty.txt"]; d.Status != "analyzed" || d.PhaseAnalyze != "skipped" {
		t.Errorf("empty file: %+v", d)
	}
	for _, name := range []string{"truncated.pdf", "not-a-zip.docx"} {
		d := status[name]
		if d.Status != "failed" || d.PhaseAnalyze != "failed" || errs.FromEnvelope(d.LastError).Code == "" {
			t.Errorf("%s: %+v", name, d)
		}
	}
	failed, _ := e.ListDocuments(ctx, "failed", "", 0, 0)
	if failed.Total < 4 {
		t.Errorf("failed documents listed: %d", failed.Total)
	}
	// A file that failed at registration keeps the size it was seen with (the UI shows "not
	// supported, 4 KB", never "0 B"), and the UI's failure notice lists the newest first.
	recent, err := e.QueryDocuments(ctx, engine.DocumentQuery{Status: "failed", Recent: true})
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int64{}
	for i, d := range recent.Documents {
		sizes[filepath.Base(d.Path)] = d.Size
		if i > 0 && (d.UpdatedAt > recent.Documents[i-1].UpdatedAt || d.UpdatedAt == recent.Documents[i-1].UpdatedAt && d.DocumentID < recent.Documents[i-1].DocumentID) {
			t.Errorf("recent failures out of order at %d: %s after %s", i, d.UpdatedAt, recent.Documents[i-1].UpdatedAt)
		}
	}
	if sizes["junk.bin"] != int64(len(junk)) || sizes["big.txt"] != 2<<20 {
		t.Errorf("sizes of files failed at registration: %v", sizes)
	}
}

// A file's origin names the door it came in by: the window's files are the app's, not "cli".
func TestOriginSourceIsTheCallersDoor(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	p := write(t, filepath.Join(t.TempDir(), "door.md"), "# Door\n\nCame in through the app.\n")
	res, err := e.IngestPaths(ctx, engine.LocalUser("app"), []string{p})
	if err != nil || len(res) != 1 || res[0].Result == nil {
		t.Fatalf("ingest: %v %+v", err, res)
	}
	d := settle(t, e, res[0].Result.DocumentID)[0]
	prov, err := e.FieldProvenance(ctx, d.EntityID, "path")
	if err != nil {
		t.Fatal(err)
	}
	var origin map[string]any
	if err := json.Unmarshal(prov.SourcePayload.Origin, &origin); err != nil {
		t.Fatal(err)
	}
	if origin["source"] != "app" {
		t.Fatalf("origin = %v, want source app", origin)
	}
}

func TestDeletedBeforeAnalysisAndRetry(t *testing.T) {
	dir := t.TempDir()
	e := open(t)
	ctx := context.Background()
	p := write(t, filepath.Join(dir, "x.md"), "# gone soon\n")
	r := ingestFile(t, e, p)
	os.Remove(p)
	d := settle(t, e, r.DocumentID)[0]
	if d.Status != "failed" || errs.FromEnvelope(d.LastError).Code != errs.FileNotFound {
		t.Fatalf("deleted before analysis: %+v", d)
	}
	write(t, p, "# back again\n")
	rr, err := e.Retry(ctx, local, r.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	d = settle(t, e, rr.DocumentID)[0]
	if d.Status != "analyzed" || d.Title != "back again" {
		t.Fatalf("after retry: %+v", d)
	}
	_, err = e.Retry(ctx, local, "doc_nope")
	wantCode(t, err, "DOCUMENT_NOT_FOUND")
}

func TestFolderIngestFollowsIgnoreRules(t *testing.T) {
	dir := t.TempDir()
	e := open(t)
	for _, f := range []string{"keep.md", "sub/keep2.txt", ".hidden.md", ".git/config", "node_modules/x/readme.md", "draft.md~", "notes.swp", "logs/app.log", "secret/plan.md"} {
		write(t, filepath.Join(dir, f), "content of "+f)
	}
	write(t, filepath.Join(dir, ".strataignore"), "*.log\nsecret/\n")
	results, err := e.IngestPaths(context.Background(), local, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range results {
		rel, _ := filepath.Rel(dir, r.Path)
		got = append(got, rel)
	}
	if strings.Join(got, ",") != "keep.md,sub/keep2.txt" {
		t.Fatalf("ingested %v", got)
	}
}

func TestServeWatchesFolders(t *testing.T) {
	data, dir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "before.md"), "# written before serve\n")
	e, err := engine.Open(context.Background(), config(data))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := e.AddWatchRoot(ctx, local, dir); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "while-closed.md"), "# written while Strata was closed\n")
	done := make(chan error)
	go func() { done <- e.Serve(ctx) }()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	analyzed := func(name string) func() bool {
		return func() bool {
			p, _ := e.ListDocuments(context.Background(), "analyzed", filepath.Join(dir, name), 0, 0)
			return p != nil && p.Total == 1
		}
	}
	waitFor("the file written before serve", analyzed("before.md"))
	waitFor("the file written while closed (reconcile)", analyzed("while-closed.md"))
	start := time.Now()
	write(t, filepath.Join(dir, "live", "new.md"), "# new\n\n"+strings.Repeat("word ", 200000)) // ~1 MB
	waitFor("a new 1 MB file in a new folder", analyzed("live/new.md"))
	t.Logf("1 MB file analysed %v after it was written", time.Since(start))
	os.Remove(filepath.Join(dir, "before.md"))
	waitFor("the deleted file", func() bool {
		p, _ := e.ListDocuments(context.Background(), "removed", filepath.Join(dir, "before.md"), 0, 0)
		return p.Total == 1
	})
	cancel()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestCrashRecovery kills a child process in the middle of ingesting a folder; a new process on
// the same folder finishes the work, and nothing is lost or done twice.
func TestCrashRecovery(t *testing.T) {
	if os.Getenv("STRATA_CRASH_CHILD") != "" {
		data, src := os.Getenv("STRATA_CRASH_DATA"), os.Getenv("STRATA_CRASH_SRC")
		e, err := engine.Open(context.Background(), config(data, func(c *engine.Config) { c.JobLease, c.Workers = time.Second, 2 }))
		if err != nil {
			os.Exit(3)
		}
		res, _ := e.IngestPaths(context.Background(), local, []string{src})
		fmt.Println("registered", len(res))
		e.RunWorkers(context.Background()) // runs until killed
		return
	}
	data, src := t.TempDir(), t.TempDir()
	const n = 150
	for i := 0; i < n; i++ {
		write(t, filepath.Join(src, fmt.Sprintf("d%03d.md", i)), fmt.Sprintf("# Doc %d\n\n%s\n", i, strings.Repeat("lorem ipsum dolor sit amet ", 400)))
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashRecovery$", "-test.count=1")
	cmd.Env = append(os.Environ(), "STRATA_CRASH_CHILD=1", "STRATA_CRASH_DATA="+data, "STRATA_CRASH_SRC="+src)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once some, but not all, documents are analysed.
	probe, err := engine.Open(context.Background(), config(data))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		p, _ := probe.ListDocuments(context.Background(), "analyzed", "", 1, 0)
		if p != nil && p.Total > 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("child made no progress")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	probe.Close()

	e := open(t, withDir(data), func(c *engine.Config) { c.JobLease = time.Second; c.Now = time.Now }) // leases are real time
	ctx := context.Background()
	mid, _ := e.ListDocuments(ctx, "analyzed", "", 1, 0)
	t.Logf("killed with %d of %d analysed", mid.Total, n)
	if res, err := e.IngestPaths(ctx, local, []string{src}); err != nil || len(res) != n { // files registered before the kill are unchanged
		t.Fatalf("re-ingest: %d %v", len(res), err)
	}
	all, _ := e.ListDocuments(ctx, "", "", 1000, 0)
	var ids []string
	for _, d := range all.Documents {
		ids = append(ids, d.DocumentID)
	}
	docs := settle(t, e, ids...)
	for _, d := range docs {
		if d.Status != "analyzed" {
			t.Fatalf("%s ended %s", d.Path, d.Status)
		}
		detail, _ := e.GetDocument(ctx, d.DocumentID)
		done := 0
		for _, j := range detail.Jobs {
			if j.Phase == "analyze" && j.State == "done" {
				done++
			}
		}
		if done != 1 || len(detail.Chunks) == 0 {
			t.Fatalf("%s: %d analyze jobs done, %d chunks", d.Path, done, len(detail.Chunks))
		}
	}
	st, _ := e.Status(ctx)
	var counts struct{ Observations int }
	b, _ := json.Marshal(st.Counts)
	json.Unmarshal(b, &counts)
	if len(docs) != n {
		t.Fatalf("%d documents, want %d", len(docs), n)
	}
}

func TestReaderTimeout(t *testing.T) {
	dir := t.TempDir()
	e := open(t, func(c *engine.Config) { c.ReadTimeout = time.Microsecond })
	p := write(t, filepath.Join(dir, "big.md"), strings.Repeat("# Section\n\nlorem ipsum dolor sit amet\n\n", 40000))
	d := settle(t, e, ingestFile(t, e, p).DocumentID)[0]
	if d.Status != "failed" || !strings.Contains(errs.FromEnvelope(d.LastError).Message, "took longer") {
		t.Fatalf("a reader past its time limit must fail the file, not hold the worker: %+v", d)
	}
}

func TestOverlappingWatchRoots(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	e := open(t)
	ctx := context.Background()
	if _, err := e.AddWatchRoot(ctx, local, filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "a"), filepath.Join(dir, "a", "b"), dir} {
		_, err := e.AddWatchRoot(ctx, local, p)
		wantCode(t, err, errs.Validation)
	}
	st, _ := e.Status(ctx)
	if len(st.WatchRoots) != 1 {
		t.Fatalf("watch roots: %v", st.WatchRoots)
	}
}

// The embedder card says "automatic" only when nothing was configured.
func TestEmbeddingStatusSaysWhetherAnythingWasConfigured(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		embedder string
		want     bool
	}{{"", true}, {"ollama", false}, {"static", false}} {
		e := open(t, func(cfg *engine.Config) { cfg.Embedder = c.embedder })
		st, err := e.EmbeddingStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Automatic != c.want {
			t.Errorf("embedder %q: automatic = %v, want %v", c.embedder, st.Automatic, c.want)
		}
	}
}

// TestWatchedSiteSkipsAssetsQuietly: a watched copy of a generated website keeps its pages and
// skips its fonts, images, minified scripts and search index quietly: none becomes a failed
// document, the import says how many it skipped, and the folder's status keeps the count. A
// failed asset an older Strata stored is cleared by the next reconcile.
func TestWatchedSiteSkipsAssetsQuietly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "index.html"), "<html><body><h1>Docs</h1><p>Install the tool with the package manager, then run it once to create the configuration file in your home folder.</p></body></html>")
	for _, name := range []string{"fonts/inter.woff2", "img/logo.png", "searchindex-8a1f.js", "js/app.js.map"} {
		write(t, filepath.Join(dir, name), "\x00\x01binary-ish")
	}
	write(t, filepath.Join(dir, "js", "app.min.js"), `!function(e){var t={};function n(r){if(t[r])return t[r].exports}}([]);`)
	e := open(t)
	imp, err := e.AddWatchRoot(ctx, local, dir)
	if err != nil {
		t.Fatal(err)
	}
	if imp.Summary.Ignored.Assets != 5 || !strings.Contains(imp.Summary.Text(), "skipped (assets): 5") {
		t.Fatalf("import: %+v %q", imp.Summary.Ignored, imp.Summary.Text())
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.WatchFolders) != 1 || st.WatchFolders[0].SkippedAssets != 5 {
		t.Fatalf("watch folders: %+v", st.WatchFolders)
	}
	if n := st.Counts.Documents["failed"]; n != 0 {
		t.Fatalf("%d failed documents", n)
	}
	// An older Strata read the minified script (it was no asset then): the reconcile takes it
	// out of the folder's documents.
	res, err := e.IngestPaths(ctx, local, []string{filepath.Join(dir, "js", "app.min.js")})
	if err != nil || len(res) != 1 || res[0].Result == nil {
		t.Fatalf("ingest the script by hand: %+v %v", res, err)
	}
	settle(t, e, res[0].Result.DocumentID)
	if _, removed, err := e.Reconcile(ctx, local, dir); err != nil || removed != 1 {
		t.Fatalf("reconcile removed %d, %v", removed, err)
	}
	if d, err := e.GetDocumentRow(ctx, res[0].Result.DocumentID); err != nil || d.Status != "removed" {
		t.Fatalf("the script after the reconcile: %+v %v", d.Status, err)
	}
}
