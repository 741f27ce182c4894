//go:build !darwin && !windows

package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/errs"
)

// TestLoginItemFromTheApp: the settings screen's switch writes the XDG autostart entry under
// the XDG_CONFIG_HOME the entry point passed (never the test process's own), for this program's
// real path (links resolved) on this data folder, hidden; the screen reads it back as on and
// current; off removes the file. A folder that cannot be written is AUTOSTART_FAILED.
func TestLoginItemFromTheApp(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the process's: must stay untouched
	real := filepath.Join(t.TempDir(), "strata 1.2")
	os.WriteFile(real, []byte("#!/bin/sh\n"), 0o755)
	link := filepath.Join(t.TempDir(), "strata")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	executable = func() (string, error) { return link, nil }
	t.Cleanup(func() { executable = os.Executable })

	home := t.TempDir()
	cfg := filepath.Join(home, "cfg")
	opts := hermetic(t)
	opts.Platform = desk{}
	opts.Getenv = func(k string) string { return map[string]string{"HOME": home, "XDG_CONFIG_HOME": cfg}[k] }
	entry := filepath.Join(cfg, "autostart", "strata.desktop")
	err := Run(context.Background(), opts, func(ctx context.Context, rt *Runtime) error {
		abs, _ := filepath.Abs(opts.Config.DataDir)
		s, err := rt.App.Settings()
		if err != nil || s.Autostart == nil || s.Autostart.Enabled || s.Autostart.Location != entry {
			t.Fatalf("before: %+v, %v", s.Autostart, err)
		}
		st, err := rt.App.SetAutostart(true)
		if err != nil || !st.Enabled || !st.Current {
			t.Fatalf("on: %+v, %v", st, err)
		}
		b, err := os.ReadFile(entry)
		want := `Exec="` + real + `" --data ` + abs + " --hidden\n"
		if err != nil || !strings.Contains(string(b), want) {
			t.Fatalf("the entry (want %q):\n%s %v", want, b, err)
		}
		if s, _ := rt.App.Settings(); !s.Autostart.Enabled || !s.Autostart.Current {
			t.Fatalf("Settings after on: %+v", s.Autostart)
		}
		if st, err := rt.App.SetAutostart(false); err != nil || st.Enabled {
			t.Fatalf("off: %+v, %v", st, err)
		}
		if _, err := os.Stat(entry); !os.IsNotExist(err) {
			t.Fatalf("off left the entry: %v", err)
		}
		// A config folder that is a file cannot hold the entry.
		os.RemoveAll(cfg)
		os.WriteFile(cfg, nil, 0o644)
		if _, err := rt.App.SetAutostart(true); errs.CodeOf(err) != errs.AutostartFailed {
			t.Fatalf("an unwritable folder: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(os.Getenv("XDG_CONFIG_HOME")); len(es) != 0 {
		t.Fatalf("the process's own XDG_CONFIG_HOME was written: %v", es)
	}
}
