package cli_test

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/strata-app/strata/internal/benchdata"
)

// Sizes of issue 23's multi-process checks; smaller values make a quick look.
var (
	mpFiles    = flag.Int("mp-files", 5000, "notes the serve links in BenchmarkReadersWhileLinking")
	stormFiles = flag.Int("storm-files", 10000, "files written in BenchmarkEventStorm")
)

// startServe starts `strata serve` on dir (loopback HTTP on a free port) and stops it with the
// benchmark.
func startServe(b *testing.B, dir string) {
	b.Helper()
	cmd := exec.Command(bin(b), "serve", "--data", dir, "--mcp-addr", "127.0.0.1:0")
	cmd.Env = testEnv()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "mcp-endpoint.json")); err == nil {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("serve did not start:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// backlog counts the enrich jobs queued or running, read as any process would.
func backlog(b *testing.B, db *sql.DB) int {
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM jobs WHERE phase = 'enrich' AND state IN ('queued', 'running')`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

func readOnly(b *testing.B, dir string) *sql.DB {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "strata.db")+"?_pragma=busy_timeout(10000)&_pragma=query_only(1)")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// reading counts the reading jobs (analyze) queued or running.
func reading(b *testing.B, db *sql.DB) int {
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM jobs WHERE phase = 'analyze' AND state IN ('queued', 'running')`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// savedSearchable saves a 1 MB Markdown file (the Node.js fs.md API text, repeated, with one
// sentence of its own) into the watched folder and returns how long until a search by a
// running `strata mcp` finds it.
func savedSearchable(b *testing.B, dir, watched string, i int) time.Duration {
	big, err := os.ReadFile(filepath.Join("..", "backend", "search", "quality", "testdata", "corpus", "nodejs-api", "fs.md"))
	if err != nil {
		b.Fatal(err)
	}
	for len(big) < 1<<20 {
		big = append(big, big...)
	}
	word := fmt.Sprintf("zebrafinch%d", i)
	big = append(big[:1<<20], []byte("\n\nThe quokka checksum is "+word+".\n")...)
	c, err := client.NewStdioMCPClient(bin(b), testEnv("STRATA_MCP_RATE_LIMITS=off"), "mcp", "--data", dir)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Initialize(context.Background(), initReq()); err != nil {
		b.Fatal(err)
	}
	search := func(q string) string {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "search", map[string]any{"query": q, "limit": 3}
		res, err := c.CallTool(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		t, _ := res.Content[0].(mcp.TextContent)
		return t.Text
	}
	search("release planning") // up: its look at the folder and its vector index done
	time.Sleep(3 * time.Second)
	name := fmt.Sprintf("saved-big-%d.md", i)
	t0 := time.Now()
	if err := os.WriteFile(filepath.Join(watched, name), big, 0o644); err != nil {
		b.Fatal(err)
	}
	for !strings.Contains(search("quokka "+word), name) {
		if time.Since(t0) > 2*time.Minute {
			b.Fatal("the saved file was not found within 2 minutes")
		}
		time.Sleep(10 * time.Millisecond)
	}
	d := time.Since(t0)
	if err := os.Remove(filepath.Join(watched, name)); err != nil {
		b.Fatal(err)
	}
	return d
}

// timed runs a strata command against dir and returns how long it took.
func timed(b *testing.B, dir string, args ...string) time.Duration {
	start := time.Now()
	cmd := exec.Command(bin(b), append([]string{"--data", dir}, args...)...)
	cmd.Env = testEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("strata %s: %v\n%.500s", strings.Join(args, " "), err, out)
	}
	return time.Since(start)
}

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// BenchmarkReadersWhileLinking: a `strata serve` links a freshly watched folder of 5,000 notes
// (benchdata.Note) while other processes read the same data folder, as an AI client's `strata
// mcp` and the command line do. Once the folder is read and while it is linked, a 1 MB file saved
// into it is found by a running `strata mcp` after saved-searchable-ms; then each round, while
// the enrich backlog is not empty: `strata mcp` launched, initialized and asked one search;
// `strata search`; `strata status`. Reports the median and worst of each (issue 23: each within
// 1 s), how many rounds ran while linking was under way, and how long linking took.
func BenchmarkReadersWhileLinking(b *testing.B) {
	notes := filepath.Join(os.TempDir(), fmt.Sprintf("strata-bench-mp-notes-%d-v%d", *mpFiles, benchdata.NotesVersion))
	if _, err := os.Stat(filepath.Join(notes, "complete")); err != nil {
		if err := benchdata.WriteNotes(filepath.Join(notes, "notes"), 0, *mpFiles); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(notes, "complete"), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var initT, searchT, cliSearchT, statusT, saved []time.Duration
	var linking time.Duration
	rounds := 0
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		startServe(b, dir)
		db := readOnly(b, dir)
		start := time.Now()
		timed(b, dir, "watch", "add", filepath.Join(notes, "notes"))
		// Wait for linking to start (the reading phases come first).
		for backlog(b, db) == 0 && time.Since(start) < 5*time.Minute {
			time.Sleep(100 * time.Millisecond)
		}
		// The folder is read; linking runs. An AI client's MCP process is up (launched, asked
		// once); a 1 MB Markdown file saved into the folder now is found by its search after
		// saved-searchable-ms.
		for reading(b, db) > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		if backlog(b, db) > 0 {
			saved = append(saved, savedSearchable(b, dir, filepath.Join(notes, "notes"), i))
		}
		for backlog(b, db) > 0 {
			t0 := time.Now()
			c, err := client.NewStdioMCPClient(bin(b), testEnv("STRATA_MCP_RATE_LIMITS=off"), "mcp", "--data", dir)
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			if _, err := c.Initialize(ctx, initReq()); err != nil {
				b.Fatal(err)
			}
			initT = append(initT, time.Since(t0))
			t1 := time.Now()
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "search", map[string]any{"query": "release planning budget", "limit": 10}
			if res, err := c.CallTool(ctx, req); err != nil || res.IsError {
				b.Fatalf("search: %v %+v", err, res)
			}
			searchT = append(searchT, time.Since(t1))
			cancel()
			c.Close()
			cliSearchT = append(cliSearchT, timed(b, dir, "search", "quarterly report", "--json"))
			statusT = append(statusT, timed(b, dir, "status", "--json"))
			rounds++
		}
		linking += time.Since(start)
	}
	if rounds == 0 {
		b.Fatal("linking ended before any reader ran")
	}
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"mcp-init", initT}, {"mcp-search", searchT}, {"cli-search", cliSearchT}, {"status", statusT}} {
		b.ReportMetric(ms(percentile(m.d, 0.5)), m.name+"-p50-ms")
		b.ReportMetric(ms(slices.Max(m.d)), m.name+"-max-ms")
	}
	if len(saved) > 0 {
		b.ReportMetric(ms(percentile(saved, 0.5)), "saved-searchable-ms")
	}
	b.ReportMetric(float64(rounds)/float64(b.N), "rounds")
	b.ReportMetric(linking.Seconds()/float64(b.N), "watch-to-linked-s")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkEventStorm: on a running `strata serve` watching an empty folder, 10,000 files are
// written, 1,000 renamed, 500 deleted and 500 moved in from outside; settled-s is how long until
// the store holds exactly the folder's files (0 missed, 0 stale: every file a live document at
// its path, no live document at a path that is gone).
func BenchmarkEventStorm(b *testing.B) {
	var settled time.Duration
	var missed, stale int
	for i := 0; i < b.N; i++ {
		dir, watched, outside := b.TempDir(), b.TempDir(), b.TempDir()
		startServe(b, dir)
		timed(b, dir, "watch", "add", watched)
		db := readOnly(b, dir)
		start := time.Now()
		n := *stormFiles
		for k := range n {
			body := fmt.Sprintf("# Storm note %d\n\nmoved file %d\n", k, k)
			if err := os.WriteFile(filepath.Join(watched, fmt.Sprintf("f%05d.md", k)), []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for k := 0; k < n/10; k++ {
			if err := os.Rename(filepath.Join(watched, fmt.Sprintf("f%05d.md", k)), filepath.Join(watched, fmt.Sprintf("r%05d.md", k))); err != nil {
				b.Fatal(err)
			}
		}
		for k := n / 10; k < n/10+n/20; k++ {
			if err := os.Remove(filepath.Join(watched, fmt.Sprintf("f%05d.md", k))); err != nil {
				b.Fatal(err)
			}
		}
		for k := 0; k < n/20; k++ {
			p := filepath.Join(outside, fmt.Sprintf("m%05d.md", k))
			if err := os.WriteFile(p, []byte(fmt.Sprintf("# Moved in %d\n\nmoved file %d from outside\n", k, k)), 0o644); err != nil {
				b.Fatal(err)
			}
			if err := os.Rename(p, filepath.Join(watched, filepath.Base(p))); err != nil {
				b.Fatal(err)
			}
		}
		// Settled: the store's live documents under the folder are exactly its files.
		want := map[string]bool{}
		entries, _ := os.ReadDir(watched)
		for _, e := range entries {
			want[filepath.Join(watched, e.Name())] = true
		}
		for {
			rows, err := db.Query(`SELECT path FROM documents WHERE path LIKE ? AND status NOT IN ('removed')`, watched+"/%")
			if err != nil {
				b.Fatal(err)
			}
			have := map[string]bool{}
			for rows.Next() {
				var p string
				rows.Scan(&p)
				have[p] = true
			}
			rows.Close()
			missed, stale = 0, 0
			for p := range want {
				if !have[p] {
					missed++
				}
			}
			for p := range have {
				if !want[p] {
					stale++
				}
			}
			if missed == 0 && stale == 0 {
				break
			}
			if time.Since(start) > 10*time.Minute {
				b.Fatalf("not settled after 10 minutes: %d missed, %d stale", missed, stale)
			}
			time.Sleep(200 * time.Millisecond)
		}
		settled += time.Since(start)
	}
	b.ReportMetric(settled.Seconds()/float64(b.N), "settled-s")
	b.ReportMetric(float64(missed), "missed")
	b.ReportMetric(float64(stale), "stale")
	b.ReportMetric(0, "ns/op")
}
