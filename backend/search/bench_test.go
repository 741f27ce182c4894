package search

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/search/quality"
	"github.com/strata-app/strata/backend/store"
)

type staticQ struct{ s *embed.Static }

func (q staticQ) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	v, err := q.s.Embed(ctx, []string{text}, embed.Query)
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

// sentences from the quality corpus: real prose, so term statistics are realistic.
func sentences(b *testing.B) []string {
	var out []string
	files, _ := filepath.Glob(filepath.Join(quality.CorpusDir(), "*"))
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.IsDir() {
			continue // top-level documents only: these tests were calibrated before the subfolders (issue 13)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range strings.Split(strings.Join(strings.Fields(string(data)), " "), ". ") {
			if len(s) > 30 && len(s) < 300 {
				out = append(out, s+".")
			}
		}
	}
	return out
}

// fill writes n chunks (10 per document) of ~600 bytes with static vectors.
func fill(b *testing.B, db *store.DB, n int) {
	ctx := context.Background()
	sents := sentences(b)
	r := rand.New(rand.NewSource(int64(n)))
	st := embed.NewStatic()
	now := store.FormatTime(time.Now())
	const perTx = 2000
	for base := 0; base < n; base += perTx {
		var chunks []store.Chunk
		var texts []string
		err := db.WriteTx(ctx, func(tx *store.Tx) error {
			for i := base; i < min(base+perTx, n); i++ {
				doc := fmt.Sprintf("doc_%08d", i/10)
				if i%10 == 0 {
					if _, err := store.InsertDocument(ctx, tx, store.Document{DocumentID: doc, Kind: "file", Path: "/bench/" + doc + ".md",
						Title: doc, ContentHash: doc, Status: "analyzed", CreatedAt: now, UpdatedAt: now}); err != nil {
						return err
					}
				}
				var sb strings.Builder
				for sb.Len() < 600 {
					sb.WriteString(sents[r.Intn(len(sents))] + " ")
				}
				chunks = append(chunks, store.Chunk{ChunkID: fmt.Sprintf("chk_%08d", i), DocumentID: doc, Ordinal: i % 10, Text: sb.String(),
					LineStart: 1, LineEnd: 5, ByteEnd: sb.Len()})
				texts = append(texts, sb.String())
			}
			if err := store.InsertChunks(ctx, tx, chunks); err != nil {
				return err
			}
			vecs, err := st.Embed(ctx, texts, embed.Document)
			if err != nil {
				return err
			}
			ids := make([]string, len(chunks))
			for i, c := range chunks {
				ids[i] = c.ChunkID
			}
			rowids, err := store.ChunkRowIDs(ctx, tx, ids)
			if err != nil {
				return err
			}
			emb := make([]store.Embedding, len(chunks))
			for i, c := range chunks {
				emb[i] = store.Embedding{ChunkRowID: rowids[c.ChunkID], Vector: vecs[i]}
			}
			return store.InsertEmbeddings(ctx, tx, st.Info().Key, emb)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
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

func benchHybrid(b *testing.B, n int) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "strata.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	fill(b, db, n)
	st := embed.NewStatic()
	runtime.GC()
	start := time.Now()
	ix, err := OpenIndex(ctx, db, st.Info().Key)
	if err != nil {
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
	b.ReportMetric(rebuild.Seconds(), "rebuild-s")
	b.ReportMetric(rss, "rss-MB")
	b.ReportMetric(float64(ix.Len()), "vectors")
}

// BenchmarkHybrid10k / 100k: hybrid queries (the quality questions, round robin) over 10k and
// 100k chunks with the static embedder: p50/p99 latency, index rebuild time from SQLite, and
// the process's resident memory with the index built.
func BenchmarkHybrid10k(b *testing.B)  { benchHybrid(b, 10_000) }
func BenchmarkHybrid100k(b *testing.B) { benchHybrid(b, 100_000) }
