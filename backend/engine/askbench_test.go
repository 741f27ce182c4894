package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/search/quality"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/internal/benchdata"
)

// askBenchVersion names the kept benchmark store; bump it when benchdata.Fill changes.
const askBenchVersion = 1

// askBenchStore is a data folder of 10,000 documents of real prose (benchdata.Fill: 10 chunks
// of ~600 bytes each, 100,000 chunks with static vectors), filled once and kept in the temp
// folder between runs (filling takes about a minute).
func askBenchStore(b *testing.B) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("strata-bench-ask-10k-v%d", askBenchVersion))
	done := filepath.Join(dir, "complete")
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "strata.db"))
	if err != nil {
		b.Fatal(err)
	}
	if err := benchdata.Fill(ctx, db, 100_000); err != nil {
		b.Fatal(err)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(done, nil, 0o600); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkAsk10k: extractive asks (no chat model) over 10,000 documents, the quality corpus's
// questions (all three sets) round robin: p50 and p99 latency of one Ask, from the question to
// the cited answer (search, passages, sentences, facts, citations). Target: p50 ≤ 150 ms.
func BenchmarkAsk10k(b *testing.B) {
	dir := askBenchStore(b)
	e, err := engine.Open(context.Background(), config(dir))
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	qs := loadQuestions(b, quality.QuestionsFile(), quality.MixedQuestionsFile(), quality.HeldOutQuestionsFile())
	ctx := context.Background()
	// The first ask builds the vector index (what a serving process has done before any
	// question): not part of the figure.
	if _, err := e.Ask(ctx, engine.AskRequest{Question: qs[0].Question}); err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	answered := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		r, err := e.Ask(ctx, engine.AskRequest{Question: qs[i%len(qs)].Question})
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		if r.Answer != "" {
			answered++
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ms")
	b.ReportMetric(float64(answered)/float64(b.N), "answered")
}
