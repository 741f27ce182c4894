package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/search/quality"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/internal/benchdata"
)

type staticQ struct{ s *embed.Static }

func (q staticQ) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	v, err := q.s.Embed(ctx, []string{text}, embed.Query)
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

// benchDB is a store of n benchmark chunks, filled once per process and shared by the
// benchmarks of that size (filling 100k chunks takes about a minute).
func benchDB(b *testing.B, n int) *store.DB {
	benchMu.Lock()
	defer benchMu.Unlock()
	if db := benchDBs[n]; db != nil {
		return db
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "strata-bench-")
	if err != nil {
		b.Fatal(err)
	}
	db, err := store.Open(ctx, filepath.Join(dir, "strata.db"))
	if err != nil {
		b.Fatal(err)
	}
	if err := benchdata.Fill(ctx, db, n); err != nil {
		b.Fatal(err)
	}
	benchDBs[n] = db
	return db
}

var (
	benchMu  sync.Mutex
	benchDBs = map[int]*store.DB{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, db := range benchDBs {
		_ = db.Close()
		_ = os.RemoveAll(filepath.Dir(db.Path()))
	}
	os.Exit(code)
}

func rssMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(l, "VmRSS:")), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}

func benchHybrid(b *testing.B, n int, opt IndexOptions) {
	ctx := context.Background()
	db := benchDB(b, n)
	st := embed.NewStatic()
	key := st.Info().Key
	if opt.MinPartitioned == 0 {
		// Train and save the layout once (as a serving process would have), then time an open
		// from it: the figure a restarted process pays.
		ix, err := OpenIndexWith(ctx, db, key, opt)
		if err != nil {
			b.Fatal(err)
		}
		err = ix.Settle(ctx)
		ix.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	start := time.Now()
	ix, err := OpenIndexWith(ctx, db, key, opt)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Settle(ctx); err != nil {
		b.Fatal(err)
	}
	rebuild := time.Since(start)
	runtime.GC()
	rss := rssMB()
	qs, err := quality.LoadQuestions(quality.QuestionsFile())
	if err != nil {
		b.Fatal(err)
	}
	s := &Searcher{DB: db, Vectors: &Space{Index: ix, Embedder: staticQ{st}}}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := s.Search(ctx, Query{Text: qs[i%len(qs)].Question, Mode: ModeHybrid, Limit: 10}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ms")
	b.ReportMetric(rebuild.Seconds(), "open-s")
	b.ReportMetric(rss, "rss-MB")
	b.ReportMetric(float64(ix.Len()), "vectors")
	b.ReportMetric(float64(ix.Partitions()), "partitions")
}

// exhaustive is one chromem-go collection, as before the partitioned index: the baseline.
var exhaustive = IndexOptions{MinPartitioned: 1 << 40}

// BenchmarkHybrid10k / 100k: hybrid queries (the quality questions, round robin) over 10k and
// 100k chunks with the static embedder: p50/p99 latency, the time to open the index from its
// saved layout with every block loaded, and the process's resident memory with the index built.
// The Exhaustive variants are the same with one chromem-go collection (the baseline).
func BenchmarkHybrid10k(b *testing.B)            { benchHybrid(b, 10_000, IndexOptions{}) }
func BenchmarkHybrid100k(b *testing.B)           { benchHybrid(b, 100_000, IndexOptions{}) }
func BenchmarkHybridExhaustive10k(b *testing.B)  { benchHybrid(b, 10_000, exhaustive) }
func BenchmarkHybridExhaustive100k(b *testing.B) { benchHybrid(b, 100_000, exhaustive) }

// queryVectors are the quality questions embedded by the static embedder.
func queryVectors(b *testing.B) [][]float32 {
	qs, err := quality.LoadQuestions(quality.QuestionsFile())
	if err != nil {
		b.Fatal(err)
	}
	st := staticQ{embed.NewStatic()}
	out := make([][]float32, len(qs))
	for i, q := range qs {
		if out[i], err = st.EmbedQuery(context.Background(), q.Question); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// recallAt10 is the share of the exhaustive top 10 that the partitioned index also returns in
// its top 10, over all queries.
func recallAt10(b testing.TB, exact, part *Index, qv [][]float32) float64 {
	ctx := context.Background()
	found, total := 0, 0
	for _, v := range qv {
		want, err := exact.Nearest(ctx, v, 10)
		if err != nil {
			b.Fatal(err)
		}
		got, err := part.Nearest(ctx, v, 10)
		if err != nil {
			b.Fatal(err)
		}
		in := map[int64]bool{}
		for _, h := range got {
			in[h.RowID] = true
		}
		for _, h := range want {
			total++
			if in[h.RowID] {
				found++
			}
		}
	}
	return float64(found) / float64(total)
}

// benchRecall reports recall@10 of the partitioned index against chromem-go's exhaustive top
// 10 for several probe counts, and the median time of one Nearest (k=100, as hybrid asks).
func benchRecall(b *testing.B, n int) {
	ctx := context.Background()
	db := benchDB(b, n)
	key := embed.NewStatic().Info().Key
	exact, err := OpenIndexWith(ctx, db, key, IndexOptions{MinPartitioned: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	defer exact.Close()
	qv := queryVectors(b)
	for _, scale := range []float64{1} {
		// a fresh layout for each scale: the saved one of another scale would be reused
		if err := db.WriteTx(ctx, func(tx *store.Tx) error { return store.DeleteVectorLayout(ctx, tx, key) }); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		train, err := OpenIndexWith(ctx, db, key, IndexOptions{PartsScale: scale, MinPartitioned: 1000})
		if err != nil {
			b.Fatal(err)
		}
		if err := train.Settle(ctx); err != nil {
			b.Fatal(err)
		}
		parts := train.Partitions()
		train.Close()
		b.ReportMetric(time.Since(t0).Seconds(), fmt.Sprintf("train+save-s-%dparts", parts))
		for _, probes := range []int{0, 16, 32, 48, 64, 96, 128, 160} { // 0: the default share
			if probes >= parts {
				break
			}
			ix, err := OpenIndexWith(ctx, db, key, IndexOptions{Probes: probes, PartsScale: scale, MinPartitioned: 1000})
			if err != nil {
				b.Fatal(err)
			}
			if err := ix.Settle(ctx); err != nil {
				b.Fatal(err)
			}
			rec := recallAt10(b, exact, ix, qv)
			lat := make([]time.Duration, 0, len(qv))
			for _, v := range qv {
				t := time.Now()
				if _, err := ix.Nearest(ctx, v, 100); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(rec, fmt.Sprintf("recall@10-p%d", probes))
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, fmt.Sprintf("p50-ms-p%d", probes))
			ix.Close()
		}
	}
	lat := make([]time.Duration, 0, len(qv))
	for _, v := range qv {
		t := time.Now()
		if _, err := exact.Nearest(ctx, v, 100); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms-exhaustive")
	b.ReportMetric(float64(exact.Len()), "vectors")
}

// BenchmarkVectorRecall10k / 100k: recall@10 of the partitioned index against the exhaustive
// chromem-go top 10 (the quality questions as queries), per probe count, and query time.
func BenchmarkVectorRecall10k(b *testing.B)  { benchRecall(b, 10_000) }
func BenchmarkVectorRecall100k(b *testing.B) { benchRecall(b, 100_000) }
