package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestVectorStreamsReadByRowid: the streams of vectors since a seq (a search index's first
// load, the similarity index's) read the table in rowid order, without a sort of every row.
func TestVectorStreamsReadByRowid(t *testing.T) {
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{embeddingsSinceSQL, docVectorsSinceSQL} {
		if p := queryPlan(t, db, q, "s", 0); !strings.Contains(p, "INTEGER PRIMARY KEY") || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%s\nplan: %s", q, p)
		}
	}
}

// queryPlan is SQLite's plan for q, its steps joined by "; ".
func queryPlan(t *testing.T, db *DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.Reader().QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return strings.Join(plan, "; ")
}
