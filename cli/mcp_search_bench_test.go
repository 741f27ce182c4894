package cli_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/search/quality"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/internal/benchdata"
)

// benchBin runs the 100k benchmarks against another strata binary (for before/after figures:
// build the older commit and pass -args -strata-bin=PATH). Empty: this tree's.
var benchBin = flag.String("strata-bin", "", "strata binary for the 100k MCP benchmarks (default: built from this tree)")

// benchFolderVersion names the kept 100k folder; bump it when benchdata.Fill changes.
const benchFolderVersion = 1

// benchFolder is a data folder of n benchmark chunks (internal/benchdata), built once and kept
// in the temp folder between runs (filling and training 100k chunks takes minutes). Its vector
// layout is trained and saved, as a `strata serve` or the window would have left it.
func benchFolder(b *testing.B, n int) string {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("strata-bench-%d-v%d", n, benchFolderVersion))
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
	defer db.Close()
	if err := benchdata.Fill(ctx, db, n); err != nil {
		b.Fatal(err)
	}
	ix, err := search.OpenIndex(ctx, db, embed.NewStatic().Info().Key)
	if err != nil {
		b.Fatal(err)
	}
	err = ix.Settle(ctx)
	ix.Close()
	if err != nil {
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

// childHWM is the peak resident memory (VmHWM, MB) of the strata process serving dir.
func childHWM(dir string) float64 {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		cmd, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(cmd), dir) || !strings.Contains(string(cmd), "mcp") {
			continue
		}
		status, err := os.ReadFile(filepath.Join(filepath.Dir(p), "status"))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(l, "VmHWM:") {
				var kb float64
				fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")), "%f", &kb)
				return kb / 1024
			}
		}
	}
	return 0
}

func bin(b *testing.B) string {
	if *benchBin != "" {
		return *benchBin
	}
	return strataBinary(b)
}

// firstSearch launches `strata mcp` on dir and returns the client, the time from launch to the
// initialize answer, and to the answer of the first search.
func firstSearch(b *testing.B, dir, query string) (*client.Client, time.Duration, time.Duration) {
	path := bin(b) // built before the clock starts
	start := time.Now()
	c, err := client.NewStdioMCPClient(path, testEnv("STRATA_MCP_RATE_LIMITS=off"), "mcp", "--data", dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := c.Initialize(context.Background(), initReq()); err != nil {
		b.Fatal(err)
	}
	init := time.Since(start)
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "search", map[string]any{"query": query, "limit": 10}
	if res, err := c.CallTool(context.Background(), req); err != nil || res.IsError {
		b.Fatalf("first search: %v %+v", err, res)
	}
	return c, init, time.Since(start)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkMCPSearch100k: hybrid search round trips over stdio to a real `strata mcp` on 100k
// chunks (static embedder), the quality questions in turn: p50/p99 after the first search, the
// first search's time from launch (page cache warm), and the serving process's peak RSS.
func BenchmarkMCPSearch100k(b *testing.B) {
	dir := benchFolder(b, 100_000)
	qs, err := quality.LoadQuestions(quality.QuestionsFile())
	if err != nil {
		b.Fatal(err)
	}
	c, init, first := firstSearch(b, dir, qs[0].Question)
	defer c.Close()
	b.ReportMetric(ms(init), "launch-init-ms")
	b.ReportMetric(ms(first), "launch-first-search-ms")
	const n = 300
	lat := make([]time.Duration, n)
	for i := range lat {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "search", map[string]any{"query": qs[i%len(qs)].Question, "limit": 10}
		t0 := time.Now()
		res, err := c.CallTool(context.Background(), req)
		if err != nil || res.IsError {
			b.Fatalf("search: %v %+v", err, res)
		}
		lat[i] = time.Since(t0)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(ms(lat[n/2]), "search-p50-ms")
	b.ReportMetric(ms(lat[n*99/100]), "search-p99-ms")
	b.ReportMetric(childHWM(dir), "peak-rss-MB")
}

// BenchmarkMCPColdStart100k: launch to the first search's answer with the page cache dropped
// before each launch, as after a reboot (3 launches: median and range). Dropping the cache
// needs root; the benchmark skips otherwise.
func BenchmarkMCPColdStart100k(b *testing.B) {
	if os.Geteuid() != 0 {
		b.Skip("dropping the page cache needs root")
	}
	dir := benchFolder(b, 100_000)
	bin(b) // built before the cache is dropped
	var inits, firsts []time.Duration
	for range 3 {
		if err := dropCaches(); err != nil {
			b.Skipf("drop caches: %v", err)
		}
		c, init, first := firstSearch(b, dir, "how do I list the files in a tar archive without extracting it")
		b.ReportMetric(childHWM(dir), "peak-rss-after-first-MB")
		c.Close()
		inits, firsts = append(inits, init), append(firsts, first)
	}
	sort.Slice(inits, func(i, j int) bool { return inits[i] < inits[j] })
	sort.Slice(firsts, func(i, j int) bool { return firsts[i] < firsts[j] })
	b.ReportMetric(ms(inits[1]), "cold-init-median-ms")
	b.ReportMetric(ms(firsts[0]), "cold-first-search-min-ms")
	b.ReportMetric(ms(firsts[1]), "cold-first-search-median-ms")
	b.ReportMetric(ms(firsts[2]), "cold-first-search-max-ms")
}

// dropCaches writes dirty pages out and drops the page cache, dentries and inodes.
func dropCaches() error {
	if err := exec.Command("sync").Run(); err != nil {
		return err
	}
	return os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0o200)
}
