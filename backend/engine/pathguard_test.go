package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/engine"
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
	remote := engine.RemoteClient("test-client")
	if _, err := e.AddWatchRoot(ctx, local, watched); err != nil {
		t.Fatal(err)
	}
	if _, err := e.SetAllowedRoot(ctx, local, allowed, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{ok1, ok2} {
		if _, err := e.Ingest(ctx, remote, "", mustJSON(t, map[string]any{"file_path": p})); err != nil {
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
		_, err := e.Ingest(ctx, remote, "", mustJSON(t, map[string]any{"file_path": p}))
		if ee := wantCode(t, err, errs.ForbiddenPath); ee.Hint == "" || ee.Details["path"] != p {
			t.Fatalf("%s: %+v", name, ee)
		}
	}
	// A caller nobody named is the zero value: remote, so refused, not trusted.
	_, err := e.Ingest(ctx, engine.Caller{}, "", mustJSON(t, map[string]any{"file_path": secret}))
	wantCode(t, err, errs.ForbiddenPath)
	// The local path (CLI, desktop) is not restricted.
	if _, err := e.Ingest(ctx, local, "", mustJSON(t, map[string]any{"file_path": secret})); err != nil {
		t.Fatalf("local ingest: %v", err)
	}
	// Removing the allowed root forbids it again.
	if _, err := e.SetAllowedRoot(ctx, local, allowed, true); err != nil {
		t.Fatal(err)
	}
	_, err = e.Ingest(ctx, remote, "", mustJSON(t, map[string]any{"file_path": ok2}))
	wantCode(t, err, errs.ForbiddenPath)
	if roots, _ := e.AllowedRoots(ctx); len(roots) != 0 {
		t.Fatalf("roots: %v", roots)
	}
}

// TestEveryFileReadNamesItsCaller: each engine call that reads files (IngestPaths, AddWatchRoot,
// Reconcile, Retry, SetAllowedRoot) applies the remote rule to a remote or unnamed caller and leaves the
// local user free.
func TestEveryFileReadNamesItsCaller(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	shared := filepath.Join(home, "shared")
	outside := filepath.Join(home, "outside")
	os.MkdirAll(shared, 0o755)
	os.MkdirAll(outside, 0o755)
	note := write(t, filepath.Join(shared, "note.md"), "# Note\n\nshared")
	pem := write(t, filepath.Join(shared, "server.pem"), "KEY") // the ignore rules skip dotfiles; this one they keep
	diary := write(t, filepath.Join(outside, "diary.txt"), "private")

	e := open(t)
	remote := engine.RemoteClient("test-client")
	for name, who := range map[string]engine.Caller{"remote": remote, "zero value": {}} {
		if _, err := e.SetAllowedRoot(ctx, who, outside, false); err == nil {
			t.Fatalf("%s: a remote caller added an allowed root", name)
		} else {
			wantCode(t, err, errs.ForbiddenPath)
		}
		_, err := e.AddWatchRoot(ctx, who, outside)
		wantCode(t, err, errs.ForbiddenPath)
		_, _, err = e.Reconcile(ctx, who, outside)
		wantCode(t, err, errs.ForbiddenPath)
		res, err := e.IngestPaths(ctx, who, []string{outside, diary})
		if err != nil || len(res) != 2 {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		for _, r := range res {
			if r.Error == nil || r.Error.Code != errs.ForbiddenPath || r.Result != nil {
				t.Fatalf("%s: %s was read: %+v", name, r.Path, r)
			}
		}
	}
	if roots, _ := e.AllowedRoots(ctx); len(roots) != 0 {
		t.Fatalf("roots: %v", roots)
	}
	if roots, _ := e.WatchRoots(ctx); len(roots) != 0 {
		t.Fatalf("watched: %v", roots)
	}

	// Shared by the local user: a remote caller reads the folder, but not the secret in it.
	if _, err := e.SetAllowedRoot(ctx, local, shared, false); err != nil {
		t.Fatal(err)
	}
	res, err := e.IngestPaths(ctx, remote, []string{shared})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range res {
		switch {
		case r.Error != nil:
			got[r.Path] = r.Error.Code
		case r.Result != nil:
			got[r.Path] = "ok"
		}
	}
	if got[note] != "ok" || got[pem] != errs.ForbiddenPath || len(got) != 2 {
		t.Fatalf("remote folder ingest: %v", got)
	}

	// Retry reads the file again: a document the local user ingested from outside stays theirs.
	lr, err := e.Ingest(ctx, local, "", mustJSON(t, map[string]any{"file_path": diary}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Retry(ctx, remote, lr.DocumentID)
	wantCode(t, err, errs.ForbiddenPath)
	if _, err := e.Retry(ctx, local, lr.DocumentID); err != nil {
		t.Fatalf("local retry: %v", err)
	}
	nr, err := e.Ingest(ctx, remote, "", mustJSON(t, map[string]any{"file_path": note}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Retry(ctx, remote, nr.DocumentID); err != nil {
		t.Fatalf("remote retry inside a shared folder: %v", err)
	}

	// The local user may watch anything; a remote caller only inside what is shared.
	if _, err := e.AddWatchRoot(ctx, local, outside); err != nil {
		t.Fatalf("local watch: %v", err)
	}
}
