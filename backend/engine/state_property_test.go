package engine_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
)

// The document life cycle as a person sees it (issue 12, section 1): whatever is done to the
// files of a watched folder — add, change, copy, move, delete, restart, retry — every file's
// document says what really happened to it. The model is deliberately simple: a file's
// outcome follows from its bytes alone, so the test can say what each document must show
// without knowing how the engine decided it; and of several files with the same bytes, the
// original (the one read, the others its duplicates) follows from their mtimes and paths
// alone: the oldest, ties by path (issue 14), whatever order they arrived or were touched in.

// content is one kind of bytes a file can hold.
type content int

const (
	good1 content = iota
	good2
	broken      // a PDF cut short: the reader fails, ANALYSIS_FAILED
	empty       // zero bytes
	unsupported // a PNG: not a format Strata reads
	nContents
)

func (c content) String() string {
	return [...]string{"good1", "good2", "broken", "empty", "unsupported"}[c]
}

// contentBytes are the bytes of each content kind. File names have no extension, so a copy or
// a move to any name keeps the outcome (the outcome of a name with an extension may differ,
// and is another test's business).
func contentBytes(t testing.TB) map[content][]byte {
	t.Helper()
	pdf, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "truncated.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"), make([]byte, 64)...)
	return map[content][]byte{
		good1:       []byte("Harbour survey notes\n\nThe eastern pier needs new fenders before the winter storms.\n"),
		good2:       []byte("Orchard ledger\n\nForty apple trees were pruned in March; the pears wait until April.\n"),
		broken:      pdf,
		empty:       {},
		unsupported: png,
	}
}

// stateWorld is one trial: a folder of files, the model of what they hold, and the engine.
type stateWorld struct {
	t     *testing.T
	rng   *rand.Rand
	root  string
	data  string
	bytes map[content][]byte
	files map[string]content // path → what it holds now (the model)
	// mt is each live file's mtime (the model): of several files with the same good bytes, the
	// one with the oldest mtime (ties: the path) is the original once the jobs have run.
	mt map[string]time.Time
	// failed holds the paths whose bytes were seen to fail and have not changed since (moved
	// or copied along with them): from then on their document is failed at every moment —
	// no restart, reconcile or copy may make it anything else — until a retry reads it again.
	failed map[string]bool
	e      *engine.Engine
	clock  *clock
	mtime  time.Time
	oldest time.Time // the oldest mtime given so far: a file restored from a backup gets an older one
	log    []string
	serial int
}

func (w *stateWorld) fatalf(format string, args ...any) {
	w.t.Helper()
	w.t.Fatalf("%s\nsteps:\n  %s", fmt.Sprintf(format, args...), strings.Join(w.log, "\n  "))
}

func (w *stateWorld) open() {
	w.t.Helper()
	cfg := config(w.data, func(c *engine.Config) { c.Now = w.clock.Now })
	e, err := engine.Open(context.Background(), cfg)
	if err != nil {
		w.fatalf("open engine: %v", err)
	}
	w.e = e
}

// restart is what a person does by quitting Strata and starting `strata serve` again: close
// the engine, open a new one on the same data folder, reconcile the folder as Serve does at
// start.
func (w *stateWorld) restart() {
	w.t.Helper()
	if err := w.e.Close(); err != nil {
		w.fatalf("close: %v", err)
	}
	w.open()
	w.reconcile()
}

func (w *stateWorld) reconcile() {
	w.t.Helper()
	if _, _, err := w.e.Reconcile(context.Background(), local, w.root); err != nil {
		w.fatalf("reconcile: %v", err)
	}
}

// write puts c at path with a new mtime (one second later than any before it, so a change is
// never hidden by a coarse clock: that limit of size+mtime is not what this test is about).
func (w *stateWorld) write(path string, c content) {
	w.t.Helper()
	w.mtime = w.mtime.Add(time.Second)
	w.writeAt(path, c, w.mtime)
}

// writeAt puts c at path with the mtime mt.
func (w *stateWorld) writeAt(path string, c content, mt time.Time) {
	w.t.Helper()
	if err := os.WriteFile(path, w.bytes[c], 0o644); err != nil {
		w.fatalf("write: %v", err)
	}
	if err := os.Chtimes(path, mt, mt); err != nil {
		w.fatalf("chtimes: %v", err)
	}
	w.files[path], w.mt[path] = c, mt
	delete(w.failed, path)
}

func (w *stateWorld) newPath() string {
	w.serial++
	return filepath.Join(w.root, fmt.Sprintf("f%02d", w.serial))
}

func (w *stateWorld) livePaths() []string {
	out := make([]string, 0, len(w.files))
	for p := range w.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// notify tells the engine about changed paths the way the watcher does (a registration per
// settled event) or, as often, by a reconcile of the whole folder.
func (w *stateWorld) notify(paths ...string) {
	w.t.Helper()
	if len(paths) == 0 || w.rng.Intn(2) == 0 {
		w.reconcile()
		return
	}
	if _, err := w.e.IngestPaths(context.Background(), local, paths); err != nil {
		w.fatalf("ingest %v: %v", paths, err)
	}
}

// settle runs every queued job to its end.
func (w *stateWorld) settle() {
	w.t.Helper()
	docs := w.documents()
	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		ids = append(ids, d.DocumentID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := w.e.WaitDocuments(ctx, ids, nil); err != nil {
		w.fatalf("wait for jobs: %v", err)
	}
}

func (w *stateWorld) documents() []engine.Document {
	w.t.Helper()
	page, err := w.e.ListDocuments(context.Background(), "", "", 1000, 0)
	if err != nil {
		w.fatalf("list documents: %v", err)
	}
	return page.Documents
}

// step does one random thing to the folder or the engine.
func (w *stateWorld) step() {
	w.t.Helper()
	live := w.livePaths()
	pick := func() string { return live[w.rng.Intn(len(live))] }
	op := w.rng.Intn(13)
	if len(live) == 0 {
		op = 0
	}
	switch op {
	case 0, 1: // add a file
		p, c := w.newPath(), content(w.rng.Intn(int(nContents)))
		w.log = append(w.log, fmt.Sprintf("add %s %s", filepath.Base(p), c))
		w.write(p, c)
		w.notify(p)
	case 2: // change a file's content (good ↔ broken most often)
		p := pick()
		c := content(w.rng.Intn(int(nContents)))
		if w.rng.Intn(2) == 0 {
			c = map[content]content{good1: broken, good2: broken, broken: good1}[w.files[p]]
		}
		w.log = append(w.log, fmt.Sprintf("change %s %s→%s", filepath.Base(p), w.files[p], c))
		w.write(p, c)
		w.notify(p)
	case 3: // copy
		from, to := pick(), w.newPath()
		w.log = append(w.log, fmt.Sprintf("copy %s→%s (%s)", filepath.Base(from), filepath.Base(to), w.files[from]))
		w.write(to, w.files[from])
		if w.failed[from] {
			w.failed[to] = true // a copy of a failed file is failed with the same error
		}
		w.notify(to)
	case 4: // move
		from, to := pick(), w.newPath()
		w.log = append(w.log, fmt.Sprintf("move %s→%s (%s)", filepath.Base(from), filepath.Base(to), w.files[from]))
		if err := os.Rename(from, to); err != nil {
			w.fatalf("rename: %v", err)
		}
		w.files[to], w.failed[to], w.mt[to] = w.files[from], w.failed[from], w.mt[from] // a rename keeps the mtime
		delete(w.files, from)
		delete(w.failed, from)
		delete(w.mt, from)
		w.notify() // a move is a removal and a creation: the reconcile sees both
	case 5: // delete
		p := pick()
		w.log = append(w.log, fmt.Sprintf("delete %s (%s)", filepath.Base(p), w.files[p]))
		if err := os.Remove(p); err != nil {
			w.fatalf("remove: %v", err)
		}
		delete(w.files, p)
		delete(w.failed, p)
		delete(w.mt, p)
		w.notify()
	case 6, 7: // restart
		w.log = append(w.log, "restart")
		w.restart()
	case 8: // retry a document
		p := pick()
		w.log = append(w.log, fmt.Sprintf("retry %s (%s)", filepath.Base(p), w.files[p]))
		d, ok := w.docAt(p)
		if !ok {
			w.fatalf("no document at %s", p)
		}
		_, err := w.e.Retry(context.Background(), local, d.DocumentID)
		delete(w.failed, p) // read again: it is registered until its analysis fails again
		if want := w.files[p] == unsupported; (err != nil) != want {
			w.fatalf("retry %s (%s): error %v", filepath.Base(p), w.files[p], err)
		}
	case 10: // touch: a new mtime, the same bytes (an editor saving without a change, `touch`)
		p := pick()
		w.log = append(w.log, fmt.Sprintf("touch %s (%s)", filepath.Base(p), w.files[p]))
		w.mtime = w.mtime.Add(time.Second)
		if err := os.Chtimes(p, w.mtime, w.mtime); err != nil {
			w.fatalf("chtimes: %v", err)
		}
		w.mt[p] = w.mtime
		w.notify(p)
	case 11: // move onto another file (a save that renames a temporary file over the old one)
		from, to := pick(), pick()
		if from == to {
			return
		}
		w.log = append(w.log, fmt.Sprintf("move %s (%s) over %s (%s)", filepath.Base(from), w.files[from], filepath.Base(to), w.files[to]))
		if err := os.Rename(from, to); err != nil {
			w.fatalf("rename: %v", err)
		}
		if w.files[to] != w.files[from] { // the same bytes: the document at to stays, as it was
			w.files[to], w.failed[to] = w.files[from], w.failed[from]
		}
		w.mt[to] = w.mt[from] // a rename keeps the mtime
		delete(w.files, from)
		delete(w.failed, from)
		delete(w.mt, from)
		w.notify()
	case 12: // restore a copy from a backup: the copy arrives now, but is older than any file here
		from, to := pick(), w.newPath()
		w.oldest = w.oldest.Add(-time.Second)
		w.log = append(w.log, fmt.Sprintf("restore old copy of %s→%s (%s)", filepath.Base(from), filepath.Base(to), w.files[from]))
		w.writeAt(to, w.files[from], w.oldest)
		if w.failed[from] {
			w.failed[to] = true // a copy of a failed file is failed with the same error
		}
		w.notify(to)
	case 9: // run the jobs
		w.log = append(w.log, "run jobs")
		w.settle()
		w.check(true)
		return
	}
	w.check(false)
}

func (w *stateWorld) docAt(path string) (engine.Document, bool) {
	for _, d := range w.documents() {
		if d.Path == path && d.Status != "removed" {
			return d, true
		}
	}
	return engine.Document{}, false
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// check compares every document with the model. Some rules hold at every moment; the outcome
// of analysis is checked once the jobs have run (settled).
func (w *stateWorld) check(settled bool) {
	w.t.Helper()
	docs := w.documents()
	byID := map[string]engine.Document{}
	byPath := map[string][]engine.Document{}
	for _, d := range docs {
		byID[d.DocumentID] = d
		if d.Status != "removed" {
			byPath[d.Path] = append(byPath[d.Path], d)
		}
	}
	for path, list := range byPath {
		if _, live := w.files[path]; !live && path != "" {
			w.fatalf("%s is gone but its document is %s", filepath.Base(path), list[0].Status)
		}
	}
	if settled {
		w.checkOriginals(byPath)
	}
	for _, path := range w.livePaths() {
		c := w.files[path]
		list := byPath[path]
		name := filepath.Base(path)
		if len(list) != 1 {
			w.fatalf("%s (%s): %d documents, want 1", name, c, len(list))
		}
		d := list[0]
		code := ""
		if len(d.LastError) > 0 {
			code = errs.FromEnvelope(d.LastError).Code
		}
		// At every moment: a duplicate is of a *different* document that was really read,
		// holding the same bytes, and says whose content it shares.
		if d.DuplicateOf != "" {
			o, ok := byID[d.DuplicateOf]
			switch {
			case d.DuplicateOf == d.DocumentID:
				w.fatalf("%s (%s) is a duplicate of itself", name, c)
			case !ok || (o.Status != "analyzed" && o.Status != "semantic") || o.PhaseAnalyze != "done" || o.DuplicateOf != "":
				w.fatalf("%s (%s) is a duplicate of %s, which is %s/%s", name, c, d.DuplicateOf, o.Status, o.PhaseAnalyze)
			case o.ContentHash != sha(w.bytes[c]) || d.ContentHash != o.ContentHash:
				w.fatalf("%s (%s) is a duplicate of %s, which holds other bytes", name, c, filepath.Base(o.Path))
			case d.DuplicateOfPath != o.Path || d.Note != "same content as "+o.Path+", not read again":
				w.fatalf("%s: duplicate_of_path %q, note %q; original at %s", name, d.DuplicateOfPath, d.Note, o.Path)
			}
			if c != good1 && c != good2 {
				w.fatalf("%s (%s) is a duplicate, but its content is never read successfully", name, c)
			}
		}
		if c == unsupported { // known at registration, so at every moment
			if d.Status != "failed" || code != errs.UnsupportedFileType || d.Size != int64(len(w.bytes[c])) {
				w.fatalf("%s (unsupported): %s %s size %d", name, d.Status, code, d.Size)
			}
			continue
		}
		if w.failed[path] && (d.Status != "failed" || code != errs.AnalysisFailed || d.DuplicateOf != "") {
			w.fatalf("%s failed and has not changed, but is now %s, error %q, duplicate_of %q", name, d.Status, code, d.DuplicateOf)
		}
		if d.Status == "failed" && c != broken {
			w.fatalf("%s (%s) is failed: %s", name, c, d.LastError)
		}
		if d.Status == "analyzed" && d.DuplicateOf == "" && c == broken {
			w.fatalf("%s (broken) is analyzed", name)
		}
		if !settled {
			continue
		}
		switch c {
		case good1, good2:
			if d.Status != "analyzed" || code != "" || (d.DuplicateOf == "" && d.PhaseAnalyze != "done") {
				w.fatalf("%s (%s): %s/%s, error %s, want analyzed", name, c, d.Status, d.PhaseAnalyze, code)
			}
		case broken:
			if d.Status != "failed" || code != errs.AnalysisFailed || d.DuplicateOf != "" {
				w.fatalf("%s (broken): %s, error %q, duplicate_of %q; want failed ANALYSIS_FAILED", name, d.Status, code, d.DuplicateOf)
			}
			w.failed[path] = true
		case empty:
			if d.Status != "analyzed" || code != "" || d.DuplicateOf != "" || d.Note != "empty — nothing to index" {
				w.fatalf("%s (empty): %s, error %q, duplicate_of %q, note %q", name, d.Status, code, d.DuplicateOf, d.Note)
			}
		}
	}
}

// checkOriginals checks, once the jobs have run, that of the live files holding the same good
// bytes the original is the one with the oldest mtime (ties: the path) and every other one is
// its duplicate, with no chunks of its own.
func (w *stateWorld) checkOriginals(byPath map[string][]engine.Document) {
	w.t.Helper()
	for _, c := range []content{good1, good2} {
		var group []string
		for _, p := range w.livePaths() {
			if w.files[p] == c {
				group = append(group, p)
			}
		}
		if len(group) == 0 {
			continue
		}
		sort.Slice(group, func(i, j int) bool {
			if !w.mt[group[i]].Equal(w.mt[group[j]]) {
				return w.mt[group[i]].Before(w.mt[group[j]])
			}
			return group[i] < group[j]
		})
		if len(byPath[group[0]]) != 1 {
			continue // reported by check
		}
		orig := byPath[group[0]][0]
		if orig.DuplicateOf != "" {
			w.fatalf("%s (%s) is the oldest with its bytes, but is a duplicate of %s", filepath.Base(group[0]), c, orig.DuplicateOfPath)
		}
		for _, p := range group[1:] {
			if len(byPath[p]) == 1 && byPath[p][0].DuplicateOf != orig.DocumentID {
				w.fatalf("%s (%s) is newer than %s, but is a duplicate of %q", filepath.Base(p), c, filepath.Base(group[0]), byPath[p][0].DuplicateOfPath)
			}
			var n int
			if err := w.e.DB().Reader().QueryRowContext(context.Background(), `SELECT count(*) FROM chunks WHERE document_id = ?`, byPath[p][0].DocumentID).Scan(&n); err != nil {
				w.fatalf("count chunks: %v", err)
			}
			if n != 0 {
				w.fatalf("%s (%s) is a duplicate but holds %d chunks", filepath.Base(p), c, n)
			}
		}
	}
}

// TestDocumentStateMachine runs random sequences of what people do to a watched folder and
// checks, after each step, every document against what was really done.
func TestDocumentStateMachine(t *testing.T) {
	trials, steps := 20, 40
	if testing.Short() {
		trials, steps = 3, 20
	}
	bytes := contentBytes(t)
	for trial := 0; trial < trials; trial++ {
		seed := int64(1200 + trial)
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			w := &stateWorld{t: t, rng: rand.New(rand.NewSource(seed)), root: t.TempDir(), data: t.TempDir(), bytes: bytes,
				files: map[string]content{}, failed: map[string]bool{}, mt: map[string]time.Time{}, clock: newClock(),
				mtime: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), oldest: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)}
			w.root, _ = filepath.EvalSymlinks(w.root)
			w.open()
			defer func() { w.e.Close() }()
			for i := 0; i < steps; i++ {
				w.step()
			}
			w.log = append(w.log, "run jobs", "restart", "run jobs", "restart", "run jobs")
			w.settle()
			w.check(true)
			for i := 0; i < 2; i++ { // an unchanged folder: any number of restarts changes nothing
				w.restart()
				w.settle()
				w.check(true)
			}
		})
	}
}

// TestFailedFileStaysFailedAfterRestarts is the issue-12 report, step by step: a truncated PDF
// fails; after restarts it is still failed with its error (it was shown as an analyzed
// duplicate of itself); a copy of it fails the same way; Retry reads it again.
func TestFailedFileStaysFailedAfterRestarts(t *testing.T) {
	bytes := contentBytes(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	w := &stateWorld{t: t, rng: rand.New(rand.NewSource(1)), root: root, data: t.TempDir(), bytes: bytes,
		files: map[string]content{}, failed: map[string]bool{}, mt: map[string]time.Time{}, clock: newClock(),
		mtime: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), oldest: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)}
	w.open()
	defer func() { w.e.Close() }()
	garbage := filepath.Join(root, "garbage.pdf")
	w.write(garbage, broken)
	if _, err := w.e.IngestPaths(context.Background(), local, []string{garbage}); err != nil {
		t.Fatal(err)
	}
	w.settle()
	first, _ := w.docAt(garbage)
	if first.Status != "failed" || errs.FromEnvelope(first.LastError).Code != errs.AnalysisFailed {
		t.Fatalf("garbage.pdf: %s %s", first.Status, first.LastError)
	}
	for i := 0; i < 3; i++ {
		w.restart()
		w.settle()
		d, _ := w.docAt(garbage)
		if d.Status != "failed" || d.DuplicateOf != "" || string(d.LastError) != string(first.LastError) {
			t.Fatalf("restart %d: garbage.pdf %s, duplicate_of %q, error %s", i+1, d.Status, d.DuplicateOf, d.LastError)
		}
	}
	cp := filepath.Join(root, "copy.pdf")
	w.write(cp, broken)
	res, err := w.e.IngestPaths(context.Background(), local, []string{cp})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Error == nil || res[0].Error.Code != errs.AnalysisFailed {
		t.Fatalf("copy of a failed file: %+v", res)
	}
	if want := "same content as " + garbage + ", which could not be read; failed the same way"; res[0].Result == nil || res[0].Result.Message != want {
		t.Fatalf("copy message: %+v, want %q", res[0].Result, want)
	}
	d, _ := w.docAt(cp)
	if d.Status != "failed" || errs.FromEnvelope(d.LastError).Code != errs.AnalysisFailed || d.DuplicateOf != "" {
		t.Fatalf("copy.pdf: %s %s duplicate_of %q", d.Status, d.LastError, d.DuplicateOf)
	}
	// The copy's error names the copy (a reader names the file it read), and says whose bytes failed.
	if e := errs.FromEnvelope(d.LastError); !strings.Contains(e.Message, "copy.pdf") || strings.Contains(e.Message, "garbage.pdf") ||
		e.Details["same_content_as"] != garbage || e.Hint == "" {
		t.Fatalf("copy.pdf's error: %s", d.LastError)
	}
	// Retry reads the file again: its analysis job runs (and fails again, on the same bytes).
	if _, err := w.e.Retry(context.Background(), local, first.DocumentID); err != nil {
		t.Fatal(err)
	}
	if d, _ := w.docAt(garbage); d.Status != "registered" {
		t.Fatalf("after retry: %s, want registered (read again)", d.Status)
	}
	w.settle()
	if d, _ := w.docAt(garbage); d.Status != "failed" {
		t.Fatalf("after retry and analysis: %s", d.Status)
	}
}

// TestFileOutcomesSayWhatHappened: the facts a client shows instead of a hollow "analyzed"
// chip — an unsupported file with its real size and no Retry, an empty file's note, a
// duplicate's original path in its result message and its document.
func TestFileOutcomesSayWhatHappened(t *testing.T) {
	e := open(t)
	bytes := contentBytes(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	orig, dup, emptyF, img := filepath.Join(root, "a-notes.txt"), filepath.Join(root, "b-copy.txt"), filepath.Join(root, "empty.txt"), filepath.Join(root, "logo.png")
	for p, c := range map[string]content{orig: good1, emptyF: empty, img: unsupported} {
		if err := os.WriteFile(p, bytes[c], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	res, docs, err := e.IngestPathsAndWait(ctx, local, []string{orig, emptyF, img}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dup, bytes[good1], 0o644); err != nil { // a copy, registered after its original was read
		t.Fatal(err)
	}
	res2, docs2, err := e.IngestPathsAndWait(ctx, local, []string{dup}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, docs = append(res, res2...), append(docs, docs2...)
	byPath := map[string]engine.PathResult{}
	for _, r := range res {
		byPath[r.Path] = r
	}
	if r := byPath[img]; r.Error == nil || r.Error.Code != errs.UnsupportedFileType {
		t.Fatalf("png: %+v", r)
	}
	if r := byPath[dup]; r.Result == nil || r.Result.Message != "same content as "+orig+", not read again" {
		t.Fatalf("duplicate's message: %+v", r.Result)
	}
	if r := byPath[orig]; r.Result == nil || r.Result.Message != "Registered: analysis queued" {
		t.Fatalf("original's message: %+v", r.Result)
	}
	page, err := e.ListDocuments(ctx, "", root, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 3 { // the png failed at registration: no document to wait for
		t.Fatalf("waited for %d documents", len(docs))
	}
	got := map[string]engine.Document{}
	for _, d := range page.Documents {
		got[d.Path] = d
	}
	if d := got[img]; d.Status != "failed" || d.Size != int64(len(bytes[unsupported])) || d.CanRetry || d.Note != "" {
		t.Fatalf("png: status %s size %d can_retry %v note %q", d.Status, d.Size, d.CanRetry, d.Note)
	}
	if d := got[emptyF]; d.Status != "analyzed" || d.Note != "empty — nothing to index" || d.DuplicateOf != "" || !d.CanRetry {
		t.Fatalf("empty: %+v", d)
	}
	if d := got[dup]; d.DuplicateOf != got[orig].DocumentID || d.DuplicateOfPath != orig || d.Note != "same content as "+orig+", not read again" {
		t.Fatalf("duplicate: duplicate_of %q path %q note %q", d.DuplicateOf, d.DuplicateOfPath, d.Note)
	}
	if d := got[orig]; d.Note != "" || d.DuplicateOf != "" || !d.CanRetry {
		t.Fatalf("original: %+v", d)
	}
	// The original changes: the copy is no longer a duplicate of anything and is read itself.
	if err := os.WriteFile(orig, bytes[good2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.IngestPathsAndWait(ctx, local, []string{orig}, nil); err != nil {
		t.Fatal(err)
	}
	d, err := e.GetDocumentRow(ctx, got[dup].DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.WaitDocuments(ctx, []string{d.DocumentID}, nil); err != nil {
		t.Fatal(err)
	}
	if d, _ = e.GetDocumentRow(ctx, d.DocumentID); d.Status != "analyzed" || d.DuplicateOf != "" || d.PhaseAnalyze != "done" || d.Note != "" {
		t.Fatalf("copy after its original changed: %s/%s duplicate_of %q note %q", d.Status, d.PhaseAnalyze, d.DuplicateOf, d.Note)
	}
}

// TestIngestFilesCountsACopiedFailure: without --wait, a copy of a failed file and an
// unchanged failed file are counted failed with their error and the document's ID, and a
// duplicate is reported analyzed with its note.
func TestIngestFilesCountsACopiedFailure(t *testing.T) {
	e := open(t)
	bytes := contentBytes(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	bad, good := filepath.Join(root, "bad.pdf"), filepath.Join(root, "good.txt")
	badCopy, goodCopy := filepath.Join(root, "bad-copy.pdf"), filepath.Join(root, "good-copy.txt")
	// The copies are a minute younger than the files they copy: the original is the oldest
	// file with the bytes, whatever the order they are written in here.
	t0 := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for p, c := range map[string]content{bad: broken, good: good1, badCopy: broken, goodCopy: good1} {
		if err := os.WriteFile(p, bytes[c], 0o644); err != nil {
			t.Fatal(err)
		}
		mt := t0
		if p == badCopy || p == goodCopy {
			mt = t0.Add(time.Minute)
		}
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	if _, err := e.IngestFiles(ctx, local, []string{bad, good}, true, nil); err != nil {
		t.Fatal(err)
	}
	res, err := e.IngestFiles(ctx, local, []string{bad, badCopy, goodCopy}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed != 2 {
		t.Fatalf("failed %d, want 2 (the unchanged failed file and its copy): %+v", res.Failed, res)
	}
	for _, o := range res.Documents[:2] {
		if o.Status != "failed" || o.Error == nil || o.Error.Code != errs.AnalysisFailed || o.DocumentID == "" {
			t.Fatalf("%s: %+v", filepath.Base(o.Path), o)
		}
	}
	if o := res.Documents[2]; o.Status != "analyzed" || o.Error != nil || o.Note != "same content as "+good+", not read again" {
		t.Fatalf("duplicate: %+v", o)
	}
}
