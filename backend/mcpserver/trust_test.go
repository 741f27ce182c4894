package mcpserver_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/mcpserver"
	"github.com/strata-app/strata/internal/testenv"
)

// TestToolsReadFilesAsARemoteClient: through the real mcp-go client, the ingest tool reads a
// file only inside what the local user shared, whatever the file is, and the refusal names the
// client in the log. The same file is readable once its folder is an allowed root.
func TestToolsReadFilesAsARemoteClient(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	papers := filepath.Join(home, "papers")
	if err := os.MkdirAll(papers, 0o755); err != nil {
		t.Fatal(err)
	}
	note := filepath.Join(papers, "note.md")
	if err := os.WriteFile(note, []byte("# Herons\n\nThe heron count rose in May."), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := &testenv.LogBuffer{}
	e, err := engine.Open(ctx, engine.Config{DataDir: filepath.Join(home, "data"), Embedder: "static",
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))

	for _, p := range []string{note, filepath.Join(e.DataDir(), "strata.db"), "papers/note.md"} {
		env := wantErr(t, call(t, c, "ingest", map[string]any{"data": map[string]any{"file_path": p}}), errs.ForbiddenPath)
		if env["hint"] == nil {
			t.Fatalf("%s: no hint: %v", p, env)
		}
	}
	if l := logs.String(); !strings.Contains(l, "remote path refused") || !strings.Contains(l, "caller=remote:strata-test") {
		t.Fatalf("the refusal does not name the client:\n%s", l)
	}
	if _, err := e.SetAllowedRoot(ctx, engine.LocalUser("test"), papers, false); err != nil {
		t.Fatal(err)
	}
	if r := call(t, c, "ingest", map[string]any{"data": map[string]any{"file_path": note}}); r.isError || r.data["document_id"] == nil {
		t.Fatalf("inside an allowed root: %s", r.text)
	}
}
