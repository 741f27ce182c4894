package engine_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/search/quality"
)

// Of several files with the same bytes, the original (read, holding the chunks, cited by
// search) is the one with the oldest mtime, ties by path — not the first to arrive (issue 14).
// Step by step: a copy restored from a backup arrives last but is older, so it becomes the
// original and the former one its duplicate, chunks gone; a touch that makes it the newest
// hands the role back to the oldest; a removal hands it to the next oldest.
func TestOriginalIsTheOldestOfIdenticalFiles(t *testing.T) {
	bytes := contentBytes(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	base := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	w := &stateWorld{t: t, rng: rand.New(rand.NewSource(1)), root: root, data: t.TempDir(), bytes: bytes,
		files: map[string]content{}, failed: map[string]bool{}, mt: map[string]time.Time{}, clock: newClock(), mtime: base, oldest: base}
	w.open()
	defer func() { w.e.Close() }()
	a, b, c := filepath.Join(root, "notes.txt"), filepath.Join(root, "notes-copy.txt"), filepath.Join(root, "restored", "notes.txt")
	if err := os.MkdirAll(filepath.Dir(c), 0o755); err != nil {
		t.Fatal(err)
	}
	ingest := func(paths ...string) {
		t.Helper()
		if _, err := w.e.IngestPaths(context.Background(), local, paths); err != nil {
			t.Fatal(err)
		}
		w.settle()
		w.check(true)
	}
	originalOf := func() string {
		t.Helper()
		var orig string
		for _, p := range w.livePaths() {
			if d, _ := w.docAt(p); d.DuplicateOf == "" {
				if orig != "" {
					t.Fatalf("two originals: %s and %s", orig, p)
				}
				orig = p
			}
		}
		return orig
	}

	w.write(a, good1)
	ingest(a)
	w.write(b, good1)
	ingest(b)
	if got := originalOf(); got != a {
		t.Fatalf("original %s, want %s (the older)", got, a)
	}
	// A copy older than both arrives last: it is read, and the others become its duplicates.
	w.writeAt(c, good1, base.Add(-time.Hour))
	w.log = append(w.log, "restore old copy")
	res, err := w.e.IngestPaths(context.Background(), local, []string{c})
	if err != nil {
		t.Fatal(err)
	}
	if m := res[0].Result.Message; m != "Registered: analysis queued" {
		t.Fatalf("the older copy: %q, want it read", m)
	}
	w.settle()
	w.check(true)
	if got := originalOf(); got != c {
		t.Fatalf("original %s, want %s (restored, the oldest)", got, c)
	}
	if d, _ := w.docAt(a); d.Note != "same content as "+c+", not read again" || d.PhaseAnalyze != "skipped" || d.Status != "analyzed" {
		t.Fatalf("the former original: %s/%s note %q", d.Status, d.PhaseAnalyze, d.Note)
	}
	// A touch makes the restored copy the newest: the oldest is notes.txt again.
	w.mtime = w.mtime.Add(time.Hour)
	if err := os.Chtimes(c, w.mtime, w.mtime); err != nil {
		t.Fatal(err)
	}
	w.mt[c] = w.mtime
	w.log = append(w.log, "touch restored")
	ingest(c)
	if got := originalOf(); got != a {
		t.Fatalf("after the touch: original %s, want %s", got, a)
	}
	// The original goes: the next oldest is read.
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	delete(w.files, a)
	delete(w.mt, a)
	w.log = append(w.log, "delete notes.txt")
	w.reconcile()
	w.settle()
	w.check(true)
	if got := originalOf(); got != b {
		t.Fatalf("after the removal: original %s, want %s", got, b)
	}
	w.restart()
	w.settle()
	w.check(true)
}

// Two stores, the same real files (Rust book chapters, and a byte-identical copy of one made a
// day later), ingested in opposite orders: the same file is the original in both, with the
// same chunks, and every search cites the same paths. Before issue 14 the copy was the
// original in the store that saw it first.
func TestIdenticalFilesSameOriginalInEitherOrder(t *testing.T) {
	src := quality.CorpusDir()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	chapters := []string{"rust-book/ch04-01-what-is-ownership.html", "rust-book/ch04-02-references-and-borrowing.html", "rust-book/ch04-03-slices.html"}
	day := time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)
	var paths []string
	for _, f := range chapters {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, f)
		mkfile(t, p, string(b))
		if err := os.Chtimes(p, day, day); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	// The corpus's copy of ch04-01 (byte-identical), saved a day later.
	b, err := os.ReadFile(filepath.Join(src, "copies", "backup", "ch04-01-what-is-ownership.html"))
	if err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "backup", "ch04-01-what-is-ownership.html")
	mkfile(t, backup, string(b))
	if err := os.Chtimes(backup, day.Add(24*time.Hour), day.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	original := paths[0]

	build := func(order [][]string) *engine.Engine {
		e := open(t)
		for _, batch := range order {
			if _, _, err := e.IngestPathsAndWait(context.Background(), local, batch, nil); err != nil {
				t.Fatal(err)
			}
		}
		return e
	}
	e1 := build([][]string{paths, {backup}}) // the chapters, then the copy
	e2 := build([][]string{{backup}, paths}) // the copy first
	for i, e := range []*engine.Engine{e1, e2} {
		page, err := e.ListDocuments(context.Background(), "", dir, 100, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range page.Documents {
			switch d.Path {
			case backup:
				if d.DuplicateOfPath != original || d.Note != "same content as "+original+", not read again" {
					t.Errorf("store %d: the copy is duplicate_of %q, note %q; want the chapter", i+1, d.DuplicateOfPath, d.Note)
				}
			case original:
				if d.DuplicateOf != "" || d.PhaseAnalyze != "done" {
					t.Errorf("store %d: the chapter is %s, duplicate_of %q", i+1, d.PhaseAnalyze, d.DuplicateOfPath)
				}
			}
		}
	}
	s1, s2 := storeSnapshot(t, e1, dir), storeSnapshot(t, e2, dir)
	if s1 != s2 {
		t.Fatalf("two build orders, two stores:\n--- chapters first\n%s\n--- copy first\n%s", s1, s2)
	}
	if !strings.Contains(s1, "chunk rust-book/ch04-01") || strings.Contains(s1, "chunk backup/") {
		t.Fatalf("the chapter must hold the chunks, the copy none:\n%.2000s", s1)
	}
}

// storeSnapshot is what two stores of the same files must agree on, with paths relative to
// dir: each document's status, phases and original; each chunk's document, lines and text;
// and the cited paths of a few searches.
func storeSnapshot(t *testing.T, e *engine.Engine, dir string) string {
	t.Helper()
	ctx := context.Background()
	rel := func(p string) string { r, _ := filepath.Rel(dir, p); return r }
	var out []string
	rows, err := e.DB().Reader().QueryContext(ctx, `SELECT d.path, d.status, d.phase_analyze, coalesce(o.path, '')
		FROM documents d LEFT JOIN documents o ON o.document_id = d.duplicate_of ORDER BY d.path`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p, st, ph, orig string
		if err := rows.Scan(&p, &st, &ph, &orig); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("doc %s %s/%s duplicate_of=%s", rel(p), st, ph, rel(orig)))
	}
	rows.Close()
	rows, err = e.DB().Reader().QueryContext(ctx, `SELECT d.path, c.ordinal, c.line_start, c.line_end, c.text
		FROM chunks c JOIN documents d USING (document_id) ORDER BY d.path, c.ordinal`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p, text string
		var ord, ls, le int
		if err := rows.Scan(&p, &ord, &ls, &le, &text); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("chunk %s #%d L%d-%d %x", rel(p), ord, ls, le, text))
	}
	rows.Close()
	for _, q := range []string{"ownership rules", "mutable references borrowing", "string slices", "the stack and the heap"} {
		res, err := e.Search(ctx, engine.SearchRequest{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		var cited []string
		for _, r := range res.Results {
			also := make([]string, 0, len(r.AlsoIn))
			for _, a := range r.AlsoIn {
				also = append(also, rel(a.Path))
			}
			sort.Strings(also)
			cited = append(cited, fmt.Sprintf("%s L%d-%d also_in=%v", rel(r.Path), r.LineStart, r.LineEnd, also))
		}
		out = append(out, fmt.Sprintf("search %q: %s", q, strings.Join(cited, "; ")))
	}
	return strings.Join(out, "\n")
}
