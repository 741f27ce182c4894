package engine_test

import (
	"bytes"
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/extract"
	"golang.org/x/net/html"
)

// BenchmarkIngestRatio compares, in one run and on the same files, Strata's phases 1+2 (what
// `strata ingest --wait DIR` does: IngestPathsAndWait, static embedder) with a bare FTS5 load
// (issue 13: Strata ≤ 3× bare).
//
// What "bare" includes, and why: one FTS5 table (`porter unicode61 remove_diacritics 2`, as
// chunks_fts), one row per file (its name and text), in one transaction, on the same SQLite
// settings (WAL, synchronous=NORMAL). Each file is read once on GOMAXPROCS workers (as Strata's
// analysis runs) and its text extracted the cheapest honest way: text and Markdown as they are,
// HTML as the text of its nodes outside script and style (golang.org/x/net/html's tokenizer),
// PDF through Strata's PDF reader (the library's own plain-text call loses the spaces between
// words, so there is no cheaper reader that yields searchable text).
//
// Extraction is inside the bare figure because raw bytes would not be the same load: a PDF's
// bytes are compressed streams and an HTML page is mostly markup, so indexing them builds a
// different, useless index. The question is what Strata costs on top of "read the text and put
// it into FTS5": its structure-keeping readers (source line maps), chunking, facts, entities,
// vectors, jobs and crash-safe phases. Two other loads are reported for scale: readers-ms (the
// same bare table, text from Strata's own readers) and raw-ms (raw bytes, no extraction).
//
// STRATA_BENCH_DIR points it at another folder (e.g. a bigger mixed folder outside the repo);
// by default it runs on the quality corpus (179 files, 11 MB).
func BenchmarkIngestRatio(b *testing.B) {
	dir := os.Getenv("STRATA_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "search", "quality", "testdata", "corpus")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		b.Fatal(err)
	}
	files := benchFiles(b, dir)
	ctx := context.Background()
	var bare, readers, raw, strata, bareCPU, strataCPU time.Duration
	for i := 0; i < b.N; i++ {
		// Each load runs under a profiler label, so `go tool pprof -tagfocus load=strata` shows
		// Strata's share of a -cpuprofile alone.
		c0 := cpuTime(b)
		pprof.Do(ctx, pprof.Labels("load", "bare"), func(context.Context) { bare += bareLoad(b, files, cheapText) })
		bareCPU += cpuTime(b) - c0
		pprof.Do(ctx, pprof.Labels("load", "readers"), func(context.Context) { readers += bareLoad(b, files, readerText) })
		pprof.Do(ctx, pprof.Labels("load", "raw"), func(context.Context) {
			raw += bareLoad(b, files, func(_ string, data []byte) (string, bool) { return string(data), true })
		})
		e, err := engine.Open(ctx, config(b.TempDir()))
		if err != nil {
			b.Fatal(err)
		}
		var docs []engine.Document
		c0 = cpuTime(b)
		pprof.Do(ctx, pprof.Labels("load", "strata"), func(ctx context.Context) {
			start := time.Now()
			_, docs, err = e.IngestPathsAndWait(ctx, local, []string{dir}, nil)
			strata += time.Since(start)
		})
		strataCPU += cpuTime(b) - c0
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range docs {
			if d.Status != "analyzed" && d.Status != "duplicate" {
				b.Logf("%s: %s", d.Path, d.Status) // broken files fail with a reason; they are part of a real folder
			}
		}
		if err := e.Close(); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(bare.Milliseconds())/n, "bare-ms")
	b.ReportMetric(float64(readers.Milliseconds())/n, "readers-ms")
	b.ReportMetric(float64(raw.Milliseconds())/n, "raw-ms")
	b.ReportMetric(float64(strata.Milliseconds())/n, "strata-ms")
	b.ReportMetric(strata.Seconds()/bare.Seconds(), "ratio")
	b.ReportMetric(strata.Seconds()/raw.Seconds(), "ratio-raw")
	// The CPU time of this process during each load (user + system, both cores): on a machine
	// shared with other work the wall-clock ratio moves with the neighbours' load (Strata uses
	// both cores more than the bare load does); the CPU ratio moves much less.
	b.ReportMetric(strataCPU.Seconds()/bareCPU.Seconds(), "cpu-ratio")
}

// benchFiles lists the regular files under dir, in path order.
func benchFiles(b *testing.B, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// cheapText is the cheapest honest text of a file (see BenchmarkIngestRatio); ok is false for
// a file no reader can read (Strata fails those with a reason; the bare load skips them).
func cheapText(path string, data []byte) (string, bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".html", ".htm":
		var sb strings.Builder
		z := html.NewTokenizer(bytes.NewReader(data))
		skip := 0
		for {
			switch z.Next() {
			case html.ErrorToken:
				return sb.String(), true
			case html.StartTagToken:
				if t, _ := z.TagName(); string(t) == "script" || string(t) == "style" {
					skip++
				}
			case html.EndTagToken:
				if t, _ := z.TagName(); (string(t) == "script" || string(t) == "style") && skip > 0 {
					skip--
				}
			case html.TextToken:
				if skip == 0 {
					sb.Write(z.Text())
				}
			}
		}
	case ".pdf":
		return readerText(path, data)
	}
	return string(data), true
}

// readerText is a file's text from Strata's own readers.
func readerText(path string, data []byte) (string, bool) {
	d, err := extract.Read(context.Background(), data, path, extract.Limits{})
	if err != nil {
		return "", false
	}
	return d.Text, true
}

// bareLoad loads files into a fresh FTS5 table and returns how long it took (the table's
// creation excluded, as Strata's migrations are), each file's text from textOf.
func bareLoad(b *testing.B, files []string, textOf func(path string, data []byte) (string, bool)) time.Duration {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "bare.db")+
		"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE docs USING fts5(name, text, tokenize = 'porter unicode61 remove_diacritics 2')`); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	type row struct{ name, text string }
	rows := make(chan row, 16)
	paths := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range paths {
				data, err := os.ReadFile(p)
				if err != nil {
					b.Error(err)
					continue
				}
				if text, ok := textOf(p, data); ok {
					rows <- row{filepath.Base(p), text}
				}
			}
		}()
	}
	go func() {
		for _, p := range files {
			paths <- p
		}
		close(paths)
		wg.Wait()
		close(rows)
	}()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	for r := range rows {
		if _, err := tx.ExecContext(ctx, `INSERT INTO docs(name, text) VALUES (?, ?)`, r.name, r.text); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}
