package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/store"
)

// The original of identical files is the oldest (originalFirst), ties by path.
func TestOriginalFirst(t *testing.T) {
	d := func(mtime, path, id string) store.Document {
		return store.Document{Mtime: mtime, Path: path, DocumentID: id}
	}
	old, young := "2025-01-01T00:00:00.000000000Z", "2025-01-02T00:00:00.000000000Z"
	cases := []struct {
		a, b store.Document
		want bool
	}{
		{d(old, "/z/copy", "doc_b"), d(young, "/a/orig", "doc_a"), true}, // older wins whatever the path
		{d(young, "/a/orig", "doc_a"), d(old, "/z/copy", "doc_b"), false},
		{d(old, "/a/x", "doc_b"), d(old, "/b/x", "doc_a"), true}, // same mtime: the path in byte order
		{d(old, "/B/x", "doc_b"), d(old, "/a/x", "doc_a"), true}, // byte order: 'B' < 'a'
		{d(old, "/a/x", "doc_a"), d(old, "/a/x", "doc_b"), true}, // (never two live at one path) then the ID
	}
	for i, c := range cases {
		if got := originalFirst(c.a, c.b); got != c.want {
			t.Errorf("case %d: originalFirst = %v, want %v", i, got, c.want)
		}
	}
}

// A read original that an older identical file replaces becomes its duplicate in the older
// file's analysis transaction: chunks and vectors gone, status through original_superseded;
// and a vector job that was running on it writes nothing (it would index chunks that are gone).
func TestOlderIdenticalFileTakesOverAsOriginal(t *testing.T) {
	in := newIngester(t)
	in.Embedder = staticSpace{embed.NewStatic()}
	ctx := context.Background()
	dir := t.TempDir()
	body := []byte("# Harbour survey\n\nThe eastern pier needs new fenders before the winter storms.\n")
	older, newer := filepath.Join(dir, "survey.md"), filepath.Join(dir, "backup", "survey.md")
	t0 := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for p, mt := range map[string]time.Time{older: t0, newer: t0.Add(24 * time.Hour)} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	analyse := func() {
		t.Helper()
		job := claimOne(t, in)
		for job.Phase != PhaseAnalyze { // enrich jobs the store queued itself are not this test's
			job = claimOne(t, in)
		}
		a, err := in.Analyze(ctx, job)
		if err != nil {
			t.Fatal(err)
		}
		if err := in.DB.WriteTx(ctx, func(tx *store.Tx) error { return in.WriteAnalyses(ctx, tx, []*Analysis{a}) }); err != nil {
			t.Fatal(err)
		}
	}
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := in.DB.Reader().QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// The backup arrives first and is read: it is the original for now.
	rn, err := in.RegisterFile(ctx, newer, nil)
	if err != nil {
		t.Fatal(err)
	}
	analyse()
	if count(`SELECT count(*) FROM chunks WHERE document_id = ?`, rn.DocumentID) == 0 {
		t.Fatal("the backup was not read")
	}
	// A vector job on it is running (claimed) when the older file arrives.
	if err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		return store.EnqueueJob(ctx, tx, rn.DocumentID, rn.PayloadID, PhaseEmbed, store.JobQueued, store.FormatTime(in.Now()))
	}); err != nil {
		t.Fatal(err)
	}
	embedJob := claimOne(t, in)
	for embedJob.Phase != PhaseEmbed {
		embedJob = claimOne(t, in)
	}
	var rowIDs []int64
	rows, err := in.DB.Reader().QueryContext(ctx, `SELECT rowid FROM chunks WHERE document_id = ?`, rn.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		rowIDs = append(rowIDs, id)
	}
	rows.Close()

	ro, err := in.RegisterFile(ctx, older, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ro.Message != MsgRegistered {
		t.Fatalf("the older file: %q, want it read", ro.Message)
	}
	// Until the older file is read, the backup stays the original: its text stays searchable.
	if d, _ := store.GetDocument(ctx, in.DB.Reader(), rn.DocumentID); d.DuplicateOf != "" || count(`SELECT count(*) FROM chunks WHERE document_id = ?`, rn.DocumentID) == 0 {
		t.Fatalf("the backup was demoted before the older file was read: duplicate_of %q", d.DuplicateOf)
	}
	analyse()
	dn, err := store.GetDocument(ctx, in.DB.Reader(), rn.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	if dn.DuplicateOf != ro.DocumentID || dn.Status != string(docstate.Analyzed) || dn.PhaseAnalyze != "skipped" || dn.PhaseSemantic != "skipped" {
		t.Fatalf("the backup: %s/%s/%s duplicate_of %q, want a duplicate of %s", dn.Status, dn.PhaseAnalyze, dn.PhaseSemantic, dn.DuplicateOf, ro.DocumentID)
	}
	if n := count(`SELECT count(*) FROM chunks WHERE document_id = ?`, rn.DocumentID); n != 0 {
		t.Fatalf("the backup still holds %d chunks", n)
	}
	if count(`SELECT count(*) FROM chunks WHERE document_id = ?`, ro.DocumentID) == 0 {
		t.Fatal("the older file holds no chunks")
	}
	before := count(`SELECT count(*) FROM embeddings`)
	vecs := make([][]float32, len(rowIDs))
	for i := range vecs {
		vecs[i] = []float32{1, 0, 0}
	}
	if err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		return in.WriteEmbed(ctx, tx, &EmbedResult{Job: embedJob, Space: "ollama/x/3", RowIDs: rowIDs, Vecs: vecs})
	}); err != nil {
		t.Fatal(err)
	}
	if after := count(`SELECT count(*) FROM embeddings`); after != before {
		t.Fatalf("a late vector job wrote %d vectors for the demoted backup's chunks", after-before)
	}
	if n := count(`SELECT count(*) FROM embeddings e LEFT JOIN chunks c ON c.rowid = e.chunk_rowid WHERE c.rowid IS NULL`); n != 0 {
		t.Fatalf("%d vectors without a chunk", n)
	}
}
