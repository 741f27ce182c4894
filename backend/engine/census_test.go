package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/store"
)

func withStaticEmbedder(c *engine.Config) { c.Embedder = "static" }

func pollStatus(t testing.TB, e *engine.Engine) *engine.Status {
	t.Helper()
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Status polls read the embedding census from the counters the store keeps: unchanged without a
// write; a write — in this process or in another one on the same folder — shows up at the next
// poll.
func TestStatusPollsFollowTheEmbeddingCensus(t *testing.T) {
	dir := t.TempDir()
	e := open(t, withDir(dir), withStaticEmbedder)
	ingest(t, e, "", map[string]any{"text": "The first note, about census caching."})

	first := pollStatus(t, e).Embeddings.Reembed
	if first.Total == 0 || first.Done != first.Total {
		t.Fatalf("census after one note: %+v", first)
	}
	for range 20 {
		if got := pollStatus(t, e).Embeddings.Reembed; got != first {
			t.Fatalf("census changed without a write: %+v → %+v", first, got)
		}
	}

	ingest(t, e, "", map[string]any{"text": "A second note, written between two polls."})
	second := pollStatus(t, e).Embeddings.Reembed
	if second.Total <= first.Total || second.Done != second.Total {
		t.Fatalf("a write did not show up in the next poll: %+v → %+v", first, second)
	}

	// Another process on the same folder writes: this one's next poll sees it.
	other := open(t, withDir(dir), withStaticEmbedder)
	ingest(t, other, "", map[string]any{"text": "A third note, from another process."})
	if third := pollStatus(t, e).Embeddings.Reembed; third.Total <= second.Total {
		t.Fatalf("another process's write did not show up: %+v → %+v", second, third)
	}
}

// BenchmarkStatus is one status poll on a folder of 2,000 notes with nothing changing, the
// window's steady state.
func BenchmarkStatus(b *testing.B) {
	e := open(b, withStaticEmbedder)
	for i := range 2000 {
		ingest(b, e, "", map[string]any{"text": fmt.Sprintf("Note %d: a few words so that it makes a chunk of its own.", i)})
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Status(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// The census counters (census_counts, kept by triggers) equal a full count of the rows after
// each write of a realistic sequence through the engine: files ingested, one changed and
// ingested again, one that fails, one removed, the chunks embedded into a second space, and
// that space's vectors deleted.
func TestCensusCountersMatchAFullCount(t *testing.T) {
	dir := t.TempDir()
	e := open(t, withStaticEmbedder)
	ctx := context.Background()
	db := e.DB()
	const other = "ollama/other-model/2"
	check := func(step string) {
		t.Helper()
		space := pollStatus(t, e).Embeddings.Space
		for _, sp := range []string{space, other} {
			v, c, err := store.CountEmbeddings(ctx, db.Reader(), sp)
			if err != nil {
				t.Fatal(err)
			}
			wv, wc, err := store.RecountEmbeddings(ctx, db.Reader(), sp)
			if err != nil {
				t.Fatal(err)
			}
			if v != wv || c != wc {
				t.Fatalf("%s: %s counters %d vectors / %d live chunks, rows %d / %d", step, sp, v, c, wv, wc)
			}
		}
	}
	var ids []string
	for i := range 4 {
		p := write(t, filepath.Join(dir, fmt.Sprintf("n%d.md", i)), fmt.Sprintf("# Note %d\n\nalpha beta %d\n\n## More\n\ngamma delta %d\n", i, i, i))
		ids = append(ids, ingestFile(t, e, p).DocumentID)
	}
	settle(t, e, ids...)
	check("four files ingested")

	p := write(t, filepath.Join(dir, "n0.md"), "# Note 0, changed\n\nepsilon\n")
	settle(t, e, ingestFile(t, e, p).DocumentID)
	check("a file changed and ingested again")

	bad := write(t, filepath.Join(dir, "truncated.pdf"), "%PDF-1.4\n1 0 obj\n<< /Type /Catalog")
	if d := settle(t, e, ingestFile(t, e, bad).DocumentID)[0]; d.Status != "failed" {
		t.Fatalf("truncated PDF: %s", d.Status)
	}
	check("a file failed")

	os.Remove(filepath.Join(dir, "n1.md"))
	if _, _, err := e.Reconcile(ctx, local, dir); err != nil {
		t.Fatal(err)
	}
	check("a file removed")

	var list []store.Embedding
	rows, err := db.ReadDB().QueryContext(ctx, `SELECT rowid FROM chunks`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r int64
		rows.Scan(&r)
		list = append(list, store.Embedding{ChunkRowID: r, Vector: []float32{1, 0}})
	}
	rows.Close()
	for _, part := range [][]store.Embedding{list[:2], list} { // halfway, then all (two again)
		if err := db.WriteTx(ctx, func(tx *store.Tx) error { return store.InsertEmbeddings(ctx, tx, other, part) }); err != nil {
			t.Fatal(err)
		}
		check("re-embedded into a second space")
	}
	if err := db.WriteTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM embeddings WHERE space = ?`, other)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	check("the second space's vectors deleted")
}
