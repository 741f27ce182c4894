package engine_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
)

// BenchmarkLint10k measures lint over 10,000 notes (benchdata.Note: Markdown and text with tags,
// headings, people, versions and copies, analysed and enriched; the store is built once and
// kept, see enrichedStore): a full run (the first, or after the checks changed) and the run
// after one new note was added and enriched, which rechecks only what that note touched.
// Targets (issue 15): full ≤ 5 s; incremental afterwards.
func BenchmarkLint10k(b *testing.B) {
	e, dir := openCopy(b, enrichedStore(b, 10000))
	ctx := context.Background()
	var full, incr []time.Duration
	var findings, rechecked, subjects int
	for i := 0; i < b.N; i++ {
		forceFull(b, e)
		start := time.Now()
		rep, err := e.Lint(ctx, engine.LintRequest{})
		if err != nil {
			b.Fatal(err)
		}
		full = append(full, time.Since(start))
		if !rep.Checked.Full {
			b.Fatalf("a forced run was not full: %+v", rep.Checked)
		}
		findings, subjects = rep.Total, rep.Checked.Subjects

		id := registerNote(b, e, dir, 20000+i)
		runDocument(b, e, id)
		if err := e.BenchEnrichNext(ctx, id); err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		rep, err = e.Lint(ctx, engine.LintRequest{})
		if err != nil {
			b.Fatal(err)
		}
		incr = append(incr, time.Since(start))
		if rep.Checked.Full {
			b.Fatalf("the run after one note was full: %+v", rep.Checked)
		}
		rechecked = rep.Checked.Rechecked
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(median(full)), "full-ms")
	b.ReportMetric(ms(slices.Max(full)), "full-worst-ms")
	b.ReportMetric(ms(median(incr)), "incremental-ms")
	b.ReportMetric(float64(rechecked), "rechecked")
	b.ReportMetric(float64(subjects), "subjects")
	b.ReportMetric(float64(findings), "findings")
	b.ReportMetric(0, "ns/op") // each loop also adds and enriches a note; the figures above are the measure
}
