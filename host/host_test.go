package host

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/httpapi"
	"github.com/strata-app/strata/backend/mcpconfig"
	"github.com/strata-app/strata/backend/mcpserver"
)

// hermetic keeps the engine away from a developer's Ollama.
func hermetic(t *testing.T) Options {
	return Options{Config: engine.Config{DataDir: t.TempDir(), Embedder: "static", OllamaHost: "127.0.0.1:9"}, Addr: "127.0.0.1:0"}
}

var ui = fstest.MapFS{"index.html": {Data: []byte("<title>Strata</title>")}}

// Run serves MCP and the UI over HTTP while Main runs, then closes the server (the endpoint
// file goes), stops the engine loop (the watcher is gone) and closes the store.
func TestRunServesHTTPThenStopsEverything(t *testing.T) {
	opts := hermetic(t)
	opts.UI = ui
	var seen *Runtime
	err := Run(context.Background(), opts, func(ctx context.Context, rt *Runtime) error {
		seen = rt
		if rt.HTTP == nil || rt.App == nil || rt.HTTPErr != nil {
			t.Fatalf("runtime: http %v app %v err %v", rt.HTTP, rt.App, rt.HTTPErr)
		}
		if _, err := os.Stat(filepath.Join(opts.Config.DataDir, httpapi.EndpointFile)); err != nil {
			t.Errorf("endpoint file: %v", err)
		}
		// The UI answers with the token's cookie, and the App knows its endpoint.
		cj, _ := cookiejar.New(nil)
		jar := &http.Client{Jar: cj, Timeout: 5 * time.Second}
		resp, err := jar.Get(rt.HTTP.UIURL())
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), "<title>Strata</title>") {
			t.Errorf("UI: %d %s", resp.StatusCode, b)
		}
		if s, _ := rt.App.Settings(); s.MCPURL != rt.HTTP.URL() {
			t.Errorf("App's endpoint %q, server's %q", s.MCPURL, rt.HTTP.URL())
		}
		waitFor(t, func() bool { return watching(rt) })
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(opts.Config.DataDir, httpapi.EndpointFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("endpoint file left behind: %v", err)
	}
	if watching(seen) {
		t.Error("the engine loop still runs after Run returned")
	}
	if _, err := seen.Engine.Status(context.Background()); err == nil {
		t.Error("the engine is still open after Run returned")
	}
	if _, err := http.Get(seen.HTTP.URL()); err == nil {
		t.Error("the HTTP server still answers after Run returned")
	}
}

// watching reports whether eng.Serve runs: it installs the watcher while it runs.
func watching(rt *Runtime) bool { return rt.Engine.WatchStatus() != nil }

// The options reach the engine and the MCP server: the file size limit, and the rate limits
// (on by default, off with NoRateLimits) — both used to be lost on the desktop.
func TestRunPassesOptionsToEngineAndMCP(t *testing.T) {
	for _, noLimits := range []bool{false, true} {
		opts := hermetic(t)
		opts.NoHTTP, opts.Config.MaxFileBytes, opts.NoRateLimits = true, 10, noLimits
		big := filepath.Join(t.TempDir(), "big.md")
		os.WriteFile(big, []byte("# more than ten bytes"), 0o600)
		err := Run(context.Background(), opts, func(ctx context.Context, rt *Runtime) error {
			if rt.HTTP != nil || rt.App != nil {
				t.Errorf("NoHTTP without UI: http %v app %v", rt.HTTP, rt.App)
			}
			res, err := rt.Engine.IngestPaths(ctx, engine.LocalUser("test"), []string{big})
			if err != nil || len(res) != 1 || res[0].Error == nil || res[0].Error.Code != errs.FileTooLarge {
				t.Errorf("max file size not applied: %+v %v", res, err)
			}
			c, err := client.NewInProcessClient(rt.MCP)
			if err != nil {
				return err
			}
			defer c.Close()
			if err := c.Start(ctx); err != nil {
				return err
			}
			if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
				return err
			}
			limited := false
			// ingest has the smallest bucket; empty arguments fail fast after the limiter, so the
			// calls outrun the refill even under the race detector.
			n := 3 * mcpserver.DefaultLimits["ingest"].Burst
			for i := 0; i < n && !limited; i++ {
				req := mcp.CallToolRequest{}
				req.Params.Name = "ingest"
				r, err := c.CallTool(ctx, req)
				if err != nil {
					return err
				}
				if r.IsError && strings.Contains(r.Content[0].(mcp.TextContent).Text, errs.RateLimitExceeded) {
					limited = true
				}
			}
			if limited == noLimits {
				t.Errorf("NoRateLimits=%v: rate limited after %d calls = %v", noLimits, n, limited)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// An address in use does not stop the runtime: another Strata serves it; Main learns why.
func TestRunWithAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	opts := hermetic(t)
	opts.Addr = ln.Addr().String()
	ran := false
	err = Run(context.Background(), opts, func(ctx context.Context, rt *Runtime) error {
		ran = true
		if rt.HTTP != nil || errs.CodeOf(rt.HTTPErr) != "ADDRESS_IN_USE" {
			t.Errorf("http %v, err %v", rt.HTTP, rt.HTTPErr)
		}
		return nil
	})
	if err != nil || !ran {
		t.Fatalf("run: %v (main ran: %v)", err, ran)
	}
}

// Main's error is Run's error, and ctx's end ends UntilDone.
func TestRunReturnsMainsErrorAndStopsOnCancel(t *testing.T) {
	opts := hermetic(t)
	opts.NoHTTP = true
	boom := errors.New("boom")
	if err := Run(context.Background(), opts, func(context.Context, *Runtime) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("want boom, got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		done <- Run(ctx, opts, func(ctx context.Context, rt *Runtime) error { close(started); return UntilDone(ctx, rt) })
	}()
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not stop after its context ended")
	}
}

// Stdio answers initialize on out, writes nothing else there, and ends when in closes.
func TestRunStdio(t *testing.T) {
	opts := hermetic(t)
	opts.NoHTTP = true
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), opts, Stdio(inR, outW)); outW.Close() }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`+"\n")
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		ID     int `json:"id"`
		Result struct {
			ServerInfo struct{ Name string } `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.ID != 1 || resp.Result.ServerInfo.Name != "strata" {
		t.Fatalf("initialize answer %q: %v", line, err)
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not stop after stdin closed")
	}
}

// ClientServer resolves the executable's links, and the App built by Run gives AI clients the
// very entry that `strata mcp config` prints (cli calls ClientServer too).
func TestClientEntryIsTheSameFromAppAndCLI(t *testing.T) {
	real := filepath.Join(t.TempDir(), "strata-1.2")
	os.WriteFile(real, []byte("#!/bin/sh\n"), 0o755)
	link := filepath.Join(t.TempDir(), "strata")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	executable = func() (string, error) { return link, nil }
	t.Cleanup(func() { executable = os.Executable })

	opts := hermetic(t)
	opts.UI = ui
	err := Run(context.Background(), opts, func(ctx context.Context, rt *Runtime) error {
		abs, _ := filepath.Abs(opts.Config.DataDir)
		s, err := ClientServer(opts.Config.DataDir, false)
		if err != nil {
			return err
		}
		if s.Command != real || strings.Join(s.Args, " ") != "mcp --data "+abs {
			t.Errorf("stdio entry %+v, want %s mcp --data %s", s, real, abs)
		}
		for _, useHTTP := range []bool{false, true} {
			s, err := ClientServer(opts.Config.DataDir, useHTTP)
			if err != nil {
				return err
			}
			for _, c := range mcpconfig.Clients {
				want, err := mcpconfig.Snippet(c, s)
				if err != nil {
					return err
				}
				got, err := rt.App.ClientSnippet(c, useHTTP)
				if err != nil {
					return err
				}
				if got != want {
					t.Errorf("%s (http %v): app gives\n%s\nmcp config gives\n%s", c, useHTTP, got, want)
				}
			}
		}
		if s, _ := ClientServer(opts.Config.DataDir, true); s.URL != rt.HTTP.URL() {
			t.Errorf("HTTP entry %s, running server %s", s.URL, rt.HTTP.URL())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
