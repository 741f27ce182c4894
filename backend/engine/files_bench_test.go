package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
	e, err := engine.Open(context.Background(), engine.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	res, err := e.IngestPaths(ctx, []string{src})
	if err != nil {
		b.Fatal(err)
	}
	registered := time.Since(start)
	ids := make([]string, len(res))
	for i, r := range res {
		ids[i] = r.Result.DocumentID
	}
	docs, err := e.WaitDocuments(ctx, ids, nil)
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
	b.ReportMetric(float64(b.N)/(el-registered).Seconds(), "analyzed/s")
	b.ReportMetric(float64(total)/1e6/el.Seconds(), "MB/s")
}
