package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/mcpconfig"
	"github.com/strata-app/strata/internal/testenv"
)

// TestInstallClientUsesTheGivenEnvironment: "Add to Cursor" writes under the HOME the entry
// point passed in (os.Getenv in the real app), never under the test process's own HOME.
func TestInstallClientUsesTheGivenEnvironment(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", t.TempDir()) // the process's: must stay untouched
	e := openEngine(t)
	a := app.New(e, app.Options{Client: stdioClient, Getenv: testenv.Getenv("HOME=" + home)})
	res, err := a.InstallClient("cursor")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(home, ".cursor", "mcp.json")
	b, err := os.ReadFile(want)
	if res.Path != want || err != nil || !strings.Contains(string(b), `"/usr/bin/strata"`) {
		t.Fatalf("installed at %q (want %q): %v %s", res.Path, want, err, b)
	}

	// Without an environment there is no home to write to: an error, not a relative path.
	if _, err := app.New(e, app.Options{Client: stdioClient}).InstallClient("cursor"); err == nil {
		t.Fatal("no HOME: want an error")
	}
}

// stdioClient is the entry "Add to …" writes: a fixed binary, so the test can find it.
func stdioClient(bool) (mcpconfig.Server, error) {
	return mcpconfig.Server{Command: "/usr/bin/strata", Args: []string{"mcp"}}, nil
}
