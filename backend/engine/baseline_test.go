package engine_test

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	_ "modernc.org/sqlite"

	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/search/quality"
)

// TestFileLevelBaseline scores the naive ranker that issue 13 compares Strata against: one
// SQLite FTS5 row per file holding the file's whole extracted text (Strata's own extractor,
// so HTML and PDF read the same as in the engine), porter stemming, BM25, no chunks, no
// vectors, no fusion. Strata's ranking should beat it; this test only logs its figures (it
// must not fail on them), so that the comparison is measured in the same run and on the same
// questions instead of quoted from the issue.
func TestFileLevelBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts the 11 MB quality corpus")
	}
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "baseline.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE files USING fts5(path UNINDEXED, body, tokenize='porter unicode61')`); err != nil {
		t.Fatal(err)
	}
	corpus := quality.CorpusDir()
	n := 0
	err = filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc, err := extract.Read(ctx, data, d.Name(), extract.Limits{})
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(corpus, p)
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO files(path, body) VALUES (?, ?)`, filepath.ToSlash(rel), doc.Text); err != nil {
			return err
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rank := func(ctx context.Context, q string, k int) ([]string, error) {
		match := ftsAnyTerm(q)
		if match == "" {
			return nil, nil
		}
		// bm25() is lower for a better match; ties go to the path so that reruns agree.
		rows, err := db.QueryContext(ctx, `SELECT path FROM files WHERE files MATCH ? ORDER BY bm25(files), path LIMIT ?`, match, k)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var p string
			if err := rows.Scan(&p); err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, rows.Err()
	}
	for _, set := range qualitySets(t) {
		s, err := quality.Evaluate(ctx, "file-bm25", set.questions, rank)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-5s %s (%d files)", set.name, s, n)
	}
}

// ftsAnyTerm turns a question into an FTS5 query that matches any of its words, each quoted
// so that FTS5 syntax in a question ("NOT", "-", ":") is taken as text. Repeated words are
// kept once: BM25 already weighs them, and a long query must not grow the expression.
func ftsAnyTerm(q string) string {
	seen := map[string]bool{}
	var terms []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !seen[w] {
			seen[w] = true
			terms = append(terms, `"`+w+`"`)
		}
	}
	return strings.Join(terms, " OR ")
}
