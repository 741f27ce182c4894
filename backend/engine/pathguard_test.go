package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/errs"
)

// TestRemotePathRules: over MCP a file is read only inside watched folders or allowed roots,
// never a secret, never the data folder, and neither ".." nor a symlink gets out.
func TestRemotePathRules(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	watched := filepath.Join(home, "notes")
	allowed := filepath.Join(home, "papers")
	outside := filepath.Join(home, "private")
	for _, d := range []string{watched, allowed, outside, filepath.Join(watched, ".ssh")} {
		os.MkdirAll(d, 0o755)
	}
	ok1 := write(t, filepath.Join(watched, "a.md"), "# A\n\nalpha")
	ok2 := write(t, filepath.Join(allowed, "b.txt"), "beta")
	secret := write(t, filepath.Join(outside, "diary.txt"), "secret")
	write(t, filepath.Join(watched, ".ssh", "config"), "Host x")
	write(t, filepath.Join(watched, "id_ed25519"), "KEY")
	write(t, filepath.Join(watched, "server.pem"), "KEY")
	write(t, filepath.Join(watched, ".env"), "TOKEN=1")
	os.Symlink(secret, filepath.Join(watched, "link.txt"))
	os.Symlink(outside, filepath.Join(watched, "linkdir"))

	e := open(t)
	if _, err := e.AddWatchRoot(ctx, watched); err != nil {
		t.Fatal(err)
	}
	if _, err := e.SetAllowedRoot(ctx, allowed, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{ok1, ok2} {
		if _, err := e.IngestRemote(ctx, "", mustJSON(t, map[string]any{"file_path": p})); err != nil {
			t.Fatalf("%s must be readable: %v", p, err)
		}
	}
	for name, p := range map[string]string{
		"outside":           secret,
		"dot-dot":           watched + "/../private/diary.txt",
		"symlink file":      filepath.Join(watched, "link.txt"),
		"symlinked folder":  filepath.Join(watched, "linkdir", "diary.txt"),
		"ssh folder":        filepath.Join(watched, ".ssh", "config"),
		"private key":       filepath.Join(watched, "id_ed25519"),
		"pem":               filepath.Join(watched, "server.pem"),
		"dotenv":            filepath.Join(watched, ".env"),
		"relative":          "notes/a.md",
		"data folder":       filepath.Join(e.DataDir(), "strata.db"),
		"missing outside":   filepath.Join(outside, "nope.txt"),
		"through link, new": filepath.Join(watched, "linkdir", "new.txt"),
	} {
		_, err := e.IngestRemote(ctx, "", mustJSON(t, map[string]any{"file_path": p}))
		if ee := wantCode(t, err, errs.ForbiddenPath); ee.Hint == "" || ee.Details["path"] != p {
			t.Fatalf("%s: %+v", name, ee)
		}
	}
	// The local path (CLI, desktop) is not restricted.
	if _, err := e.Ingest(ctx, "", mustJSON(t, map[string]any{"file_path": secret})); err != nil {
		t.Fatalf("local ingest: %v", err)
	}
	// Removing the allowed root forbids it again.
	if _, err := e.SetAllowedRoot(ctx, allowed, true); err != nil {
		t.Fatal(err)
	}
	_, err := e.IngestRemote(ctx, "", mustJSON(t, map[string]any{"file_path": ok2}))
	wantCode(t, err, errs.ForbiddenPath)
	if roots, _ := e.AllowedRoots(ctx); len(roots) != 0 {
		t.Fatalf("roots: %v", roots)
	}
}
