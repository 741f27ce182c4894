package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// checkCensus fails unless the counters census_counts keeps equal the rows counted.
func checkCensus(t *testing.T, db *DB, step string, spaces ...string) {
	t.Helper()
	ctx := context.Background()
	for _, sp := range spaces {
		v, c, err := CountEmbeddings(ctx, db.Reader(), sp)
		if err != nil {
			t.Fatal(err)
		}
		wv, wc, err := RecountEmbeddings(ctx, db.Reader(), sp)
		if err != nil {
			t.Fatal(err)
		}
		if v != wv || c != wc {
			t.Fatalf("%s: census %s counters say %d vectors / %d live chunks, the rows %d / %d", step, sp, v, c, wv, wc)
		}
	}
}

func openTest(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// censusDoc writes a document with n chunks (as analyze does: the document row, then its
// chunks) and returns the chunks' rowids.
func censusDoc(t *testing.T, db *DB, id, status string, n int) []int64 {
	t.Helper()
	ctx := context.Background()
	var ids []string
	err := db.WriteTx(ctx, func(tx *Tx) error {
		d := Document{DocumentID: id, Kind: "file", Path: "/f/" + id, ContentHash: id, Status: status,
			PhaseRegister: "done", PhaseAnalyze: "done", PhaseSemantic: "pending", CreatedAt: "t", UpdatedAt: "t"}
		if _, err := InsertDocument(ctx, tx, d); err != nil {
			return err
		}
		var cs []Chunk
		for i := range n {
			cid := fmt.Sprintf("%s-%d", id, i)
			ids = append(ids, cid)
			cs = append(cs, Chunk{ChunkID: cid, DocumentID: id, Ordinal: i, Text: "text " + cid})
		}
		return InsertChunks(ctx, tx, cs)
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ChunkRowIDs(ctx, db.Reader(), ids)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int64, len(ids))
	for i, cid := range ids {
		out[i] = m[cid]
	}
	return out
}

func embedAll(t *testing.T, db *DB, space string, rowids []int64) {
	t.Helper()
	list := make([]Embedding, len(rowids))
	for i, r := range rowids {
		list[i] = Embedding{ChunkRowID: r, Vector: []float32{float32(i), 1}}
	}
	if err := db.WriteTx(context.Background(), func(tx *Tx) error { return InsertEmbeddings(context.Background(), tx, space, list) }); err != nil {
		t.Fatal(err)
	}
}

func setStatus(t *testing.T, db *DB, id, status string, dropChunks bool) {
	t.Helper()
	ctx := context.Background()
	err := db.WriteTx(ctx, func(tx *Tx) error {
		d, err := GetDocument(ctx, tx, id)
		if err != nil {
			return err
		}
		d.Status = status
		if err := UpdateDocument(ctx, tx, d); err != nil {
			return err
		}
		if dropChunks {
			return DeleteChunks(ctx, tx, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The census counters equal a full count after every kind of write the engine makes, in the
// order it makes them, and after the ones it does not make today (a document deleted, a
// failed document brought back with its chunks).
func TestCensusCountersFollowTheRows(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	const s1, s2 = "static/test/2", "ollama/other/2"
	check := func(step string) { checkCensus(t, db, step, s1, s2, "never/used/2") }
	check("empty")

	a := censusDoc(t, db, "a", "analyzed", 3)
	b := censusDoc(t, db, "b", "registered", 2)
	embedAll(t, db, s1, append(append([]int64{}, a...), b...))
	check("two files ingested")

	// re-ingest a changed file: its chunks are replaced and embedded again
	setStatus(t, db, "a", "registered", true)
	check("a changed: old chunks dropped")
	a = censusDoc(t, db, "a2", "analyzed", 4)
	embedAll(t, db, s1, a)
	check("a changed: new chunks embedded")

	// embedding a chunk again replaces its vector instead of counting it twice, also when the
	// batch names a chunk twice
	embedAll(t, db, s1, []int64{a[0], a[1], a[0]})
	check("vectors replaced")

	// a failed file: status first (chunks kept for a moment), then the chunks
	c := censusDoc(t, db, "c", "analyzed", 2)
	embedAll(t, db, s1, c)
	setStatus(t, db, "c", "failed", false)
	check("c failed, chunks still there")
	if err := db.WriteTx(ctx, func(tx *Tx) error { return DeleteChunks(ctx, tx, "c") }); err != nil {
		t.Fatal(err)
	}
	check("c failed, chunks dropped")
	// a failed document that still holds chunks comes back: they count again
	d := censusDoc(t, db, "d", "failed", 2)
	check("chunks written under a failed document")
	setStatus(t, db, "d", "analyzed", false)
	check("failed document retried")

	// re-embed into a second space, halfway, then completely
	embedAll(t, db, s2, a[:2])
	check("second space, halfway")
	embedAll(t, db, s2, append(append(append([]int64{}, a...), b...), d...))
	check("second space, complete")

	// remove a file: chunks (and with them their vectors in every space) go
	setStatus(t, db, "b", "removed", true)
	check("b removed")

	// delete vectors directly (a space dropped), and a document row itself (cascading)
	if _, err := db.write.ExecContext(ctx, `DELETE FROM embeddings WHERE space = ?`, s2); err != nil {
		t.Fatal(err)
	}
	check("second space deleted")
	if _, err := db.write.ExecContext(ctx, `DELETE FROM jobs WHERE document_id = 'd'`); err != nil { // its enrich jobs (0008)
		t.Fatal(err)
	}
	if _, err := db.write.ExecContext(ctx, `DELETE FROM documents WHERE document_id = 'd'`); err != nil {
		t.Fatal(err)
	}
	check("document row deleted")
	if v, c, _ := CountEmbeddings(ctx, db.Reader(), s1); v != 4 || c != 4 {
		t.Fatalf("at the end: %d vectors, %d live chunks; want 4 and 4", v, c)
	}
}

// INSERT OR REPLACE deletes the old row without firing DELETE triggers, so it would count a
// chunk twice: the schema refuses it rather than let the counters drift.
func TestCensusRefusesReplacingInsert(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	r := censusDoc(t, db, "a", "analyzed", 1)
	embedAll(t, db, "s", r)
	_, err := db.write.ExecContext(ctx, `INSERT OR REPLACE INTO embeddings(chunk_rowid, space, vector) VALUES (?, 's', x'00')`, r[0])
	if err == nil || !strings.Contains(err.Error(), "census_counts") {
		t.Fatalf("INSERT OR REPLACE of an existing vector: %v", err)
	}
	checkCensus(t, db, "after a refused replace", "s")
}

// The migration counts what is already there: rows written before it (here: with its triggers
// dropped and the counters zeroed, then the migration's backfill run again) are counted.
func TestCensusBackfill(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	embedAll(t, db, "s", censusDoc(t, db, "a", "analyzed", 3))
	censusDoc(t, db, "b", "removed", 2)
	body, err := migrations.ReadFile("migrations/0007_census_counts.sql")
	if err != nil {
		t.Fatal(err)
	}
	backfill := string(body)
	backfill = backfill[strings.Index(backfill, "INSERT INTO census_counts"):strings.Index(backfill, "-- Vectors.")]
	if _, err := db.write.ExecContext(ctx, `DELETE FROM census_counts;`+backfill); err != nil {
		t.Fatal(err)
	}
	checkCensus(t, db, "backfilled", "s")
	if v, c, _ := CountEmbeddings(ctx, db.Reader(), "s"); v != 3 || c != 3 {
		t.Fatalf("backfill: %d vectors, %d live chunks; want 3 and 3", v, c)
	}
}

// TestMigrationNumbers: the shipped migrations are numbered 1, 2, 3 … once each, and a
// duplicate or a gap is refused by name.
func TestMigrationNumbers(t *testing.T) {
	type m struct {
		n    int
		name string
	}
	key := func(x m) (int, string) { return x.n, x.name }
	if err := checkMigrationNumbers([]m{{1, "0001_a"}, {2, "0002_b"}, {2, "0002_c"}}, key); err == nil || !strings.Contains(err.Error(), "0002_b and 0002_c") {
		t.Fatalf("a duplicate number: %v", err)
	}
	if err := checkMigrationNumbers([]m{{1, "0001_a"}, {3, "0003_c"}}, key); err == nil {
		t.Fatal("a gap was accepted")
	}
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "s.db")); err != nil {
		t.Fatalf("the shipped migrations: %v", err)
	}
}
