package cli_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// benchCorpus fills a data folder with 500 short notes through stdio.
func benchCorpus(b *testing.B, c *client.Client) {
	words := []string{"heron", "river", "invoice", "tax", "garden", "bicycle", "guitar", "coffee", "sourdough", "kayak", "renewal", "contract"}
	for i := 0; i < 500; i++ {
		text := fmt.Sprintf("Note %d about the %s and the %s. It mentions %s twice: %s.", i, words[i%12], words[(i*7)%12], words[(i*5)%12], words[(i*5)%12])
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "ingest", map[string]any{"data": map[string]any{"text": text, "title": fmt.Sprintf("note %d", i)}}
		if _, err := c.CallTool(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

func latencies(b *testing.B, c *client.Client, tool string, args map[string]any, n int) (p50, p99 time.Duration) {
	lat := make([]time.Duration, n)
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	for i := range lat {
		t0 := time.Now()
		res, err := c.CallTool(context.Background(), req)
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %+v", tool, err, res)
		}
		lat[i] = time.Since(t0)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat[n/2], lat[min(n-1, n*99/100)]
}

func httpClient(b *testing.B, url, tok string) *client.Client {
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok}))
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Initialize(context.Background(), initReq()); err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkMCP: tool-call latency (p50/p99) for index_status and search over stdio (a real
// `strata mcp` process) and HTTP (a real `strata serve`), on 500 notes, and search throughput
// with 8 concurrent HTTP clients. The static embedder answers (no Ollama here).
func BenchmarkMCP(b *testing.B) {
	dir := b.TempDir()
	stdio, err := client.NewStdioMCPClient(strataBinary(b), testEnv("STRATA_MCP_RATE_LIMITS=off"), "mcp", "--data", dir)
	if err != nil {
		b.Fatal(err)
	}
	defer stdio.Close()
	if _, err := stdio.Initialize(context.Background(), initReq()); err != nil {
		b.Fatal(err)
	}
	benchCorpus(b, stdio)
	url, tok := serveHTTP(b, dir, "STRATA_MCP_RATE_LIMITS=off")
	h := httpClient(b, url, tok)
	defer h.Close()
	search := map[string]any{"query": "heron river renewal", "limit": 10}
	const n = 300
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for _, c := range []struct {
		name string
		cl   *client.Client
	}{{"stdio", stdio}, {"http", h}} {
		p50, p99 := latencies(b, c.cl, "index_status", nil, n)
		b.ReportMetric(ms(p50), c.name+"-status-p50-ms")
		b.ReportMetric(ms(p99), c.name+"-status-p99-ms")
		p50, p99 = latencies(b, c.cl, "search", search, n)
		b.ReportMetric(ms(p50), c.name+"-search-p50-ms")
		b.ReportMetric(ms(p99), c.name+"-search-p99-ms")
	}
	const clients, perClient = 8, 200
	var wg sync.WaitGroup
	cls := make([]*client.Client, clients)
	for i := range cls {
		cls[i] = httpClient(b, url, tok)
		defer cls[i].Close()
	}
	t0 := time.Now()
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(c *client.Client) {
			defer wg.Done()
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "search", search
			for j := 0; j < perClient; j++ {
				if res, err := c.CallTool(context.Background(), req); err != nil || res.IsError {
					b.Errorf("concurrent search: %v %+v", err, res)
					return
				}
			}
		}(cls[i])
	}
	wg.Wait()
	b.ReportMetric(float64(clients*perClient)/time.Since(t0).Seconds(), "http-8clients-search/s")
}
