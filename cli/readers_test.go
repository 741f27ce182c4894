package cli_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	_ "modernc.org/sqlite"
)

// TestReadersDoNotWaitForTheWriteLock: another process holds the data folder's write lock (as
// `strata serve` does while it writes, and as a long linking transaction once did for minutes)
// and every way of reading the store still answers while it holds it: `strata status`,
// `search`, `enrich status`, `suggestions`, and `strata mcp`'s initialize, search and
// index_status. It is an ordering test, not a timed one: each reader must finish before the
// lock is released; one that needs the write lock would wait behind it (up to the busy timeout)
// and the test would fail. Without the fix (migrations and the enrichments' settings each took
// an IMMEDIATE transaction at open) every one of them waited.
func TestReadersDoNotWaitForTheWriteLock(t *testing.T) {
	dir := t.TempDir()
	notes := t.TempDir()
	for i := range 12 {
		body := fmt.Sprintf("---\ntags: [harbour, ferries]\n---\n# Ferry timetable %d\n\nThe harbour ferry leaves at %d o'clock; tickets are sold on the pier.\n", i, 8+i)
		if err := os.WriteFile(filepath.Join(notes, fmt.Sprintf("ferry-%02d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := strata(t, dir, "", "ingest", "--wait", notes); r.code != 0 {
		t.Fatalf("ingest: %+v", r)
	}

	release := holdWriteLock(t, filepath.Join(dir, "strata.db"))
	defer release()

	bin := strataBinary(t)
	for _, args := range [][]string{
		{"status", "--json"},
		{"search", "harbour ferry", "--json"},
		{"enrich", "status", "--json"},
		{"suggestions", "--json"},
		{"documents", "--json"},
		{"ask", "When does the harbour ferry leave?", "--json"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, bin, append([]string{"--data", dir}, args...)...)
		cmd.Env = testEnv()
		out, err := cmd.CombinedOutput()
		waited := ctx.Err()
		cancel()
		if err != nil || waited != nil {
			t.Errorf("strata %s while another process holds the write lock: %v (%v)\n%.600s", strings.Join(args, " "), err, waited, out)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := client.NewStdioMCPClient(bin, testEnv(), "mcp", "--data", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Initialize(ctx, initReq()); err != nil {
		t.Fatalf("mcp initialize while another process holds the write lock: %v", err)
	}
	for _, call := range []struct {
		name string
		args map[string]any
	}{{"search", map[string]any{"query": "harbour ferry"}}, {"index_status", nil}} {
		r := callToolCtx(ctx, t, c, call.name, call.args)
		if r["_is_error"] == true {
			t.Errorf("mcp %s while another process holds the write lock: %v", call.name, r)
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("a reader waited for the write lock: %v", ctx.Err())
	}
}

// holdWriteLock takes the database's write lock in a connection of the test process (BEGIN
// IMMEDIATE, as every Strata write does) and keeps it until the returned function is called.
func holdWriteLock(t *testing.T, path string) func() {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	released := false
	return func() {
		if released {
			return
		}
		released = true
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		db.Close()
	}
}

// callToolCtx is callTool with a deadline.
func callToolCtx(ctx context.Context, t *testing.T, c *client.Client, name string, args map[string]any) map[string]any {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var v map[string]any
	json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &v)
	if res.IsError {
		v["_is_error"] = true
	}
	return v
}
