package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
)

// markdown5KB is a realistic note of about 5 KB: headings, paragraphs, a date, an amount,
// an e-mail address and a tag.
func markdown5KB(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Meeting notes %d\n\nAttendees: ada@example.com, bob@example.com\n\n", i)
	for s := 0; b.Len() < 5000; s++ {
		fmt.Fprintf(&b, "## Topic %d\n\nWe discussed the renewal due on 2025-0%d-1%d for €%d,500.00 with vendor %d. "+
			"The team agreed to follow up next week and to review the contract terms before signing. #project-%d\n\n",
			s, 1+s%9, s%9, s+1, i%50, i%7)
	}
	return b.String()
}

// BenchmarkFilesMarkdown: phases 1+2 (register, then analyze to searchable) for 5 KB Markdown
// files, reported as files/s and MB/s.
func BenchmarkFilesMarkdown(b *testing.B) {
	src := b.TempDir()
	var total int64
	for i := 0; i < b.N; i++ {
		content := markdown5KB(i)
		total += int64(len(content))
		if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("n%06d.md", i)), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	e, err := engine.Open(context.Background(), config(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	var registered time.Duration
	_, docs, err := e.IngestPathsAndWait(ctx, local, []string{src}, func([]engine.Document) {
		if registered == 0 {
			registered = time.Since(start) // the first progress report comes after registration
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	el := time.Since(start)
	for _, d := range docs {
		if d.Status != "analyzed" {
			b.Fatalf("%s: %s", d.Path, d.Status)
		}
	}
	b.ReportMetric(float64(b.N)/el.Seconds(), "files/s")
	b.ReportMetric(float64(b.N)/registered.Seconds(), "registered/s")
	b.ReportMetric(float64(total)/1e6/el.Seconds(), "MB/s")
}

// BenchmarkWatchedFileLatency: the time from a 1 MB Markdown file being written into a watched
// folder until it is analysed (searchable), with `Serve` running; the median and the worst of
// b.N files (issue 13: ≤ 300 ms). "generated" is repeated prose under many headings; "nodeapi"
// the Node.js API reference (testdata/nodeapi, repeated to 1 MB): code blocks, tables, lists.
func BenchmarkWatchedFileLatency(b *testing.B) {
	b.Run("generated", func(b *testing.B) {
		benchWatchedFile(b, func(i int) string {
			var sb strings.Builder
			for sb.Len() < 1<<20 {
				fmt.Fprintf(&sb, "## Part %d of file %d\n\nThe quarterly figures for vendor %d were reviewed on 2025-03-14. ", sb.Len(), i, sb.Len()%97)
				sb.WriteString(strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 12) + "\n\n")
			}
			return sb.String()
		})
	})
	b.Run("nodeapi", func(b *testing.B) {
		files, err := filepath.Glob("testdata/nodeapi/*.md")
		if err != nil || len(files) == 0 {
			b.Fatal("no testdata/nodeapi", err)
		}
		var api strings.Builder
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			api.Write(data)
			api.WriteString("\n")
		}
		nodeAPI := func(i int) string {
			var sb strings.Builder
			fmt.Fprintf(&sb, "# Node.js API, copy %d\n\n", i)
			for sb.Len() < 1<<20 {
				sb.WriteString(api.String())
			}
			return sb.String()
		}
		b.Run("linked", func(b *testing.B) { benchWatchedFile(b, nodeAPI) })
		// The same without linking: what reading the file costs alone.
		b.Run("unlinked", func(b *testing.B) { benchWatchedFile(b, nodeAPI, "unlinked") })
	})
}

func benchWatchedFile(b *testing.B, content func(i int) string, unlinked ...string) {
	dir, data := b.TempDir(), b.TempDir()
	if len(unlinked) > 0 {
		writeSpec(b, data, "enrichments.yaml", enrichOff)
	}
	e, err := engine.Open(context.Background(), config(data))
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := e.AddWatchRoot(ctx, local, dir); err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = e.Serve(ctx) }()
	defer func() { cancel(); <-done }()
	time.Sleep(300 * time.Millisecond) // the watcher is up
	var times []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body := content(i)
		path := filepath.Join(dir, fmt.Sprintf("big-%d.md", i))
		start := time.Now()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		for {
			p, _ := e.ListDocuments(ctx, "analyzed", path, 1, 0)
			if p != nil && p.Total == 1 {
				break
			}
			if time.Since(start) > 30*time.Second {
				b.Fatal("the file was not analysed within 30 s")
			}
			time.Sleep(5 * time.Millisecond)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Milliseconds()), "median-ms")
	b.ReportMetric(float64(times[len(times)-1].Milliseconds()), "worst-ms")
}
