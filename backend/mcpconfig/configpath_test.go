package mcpconfig

import (
	"path/filepath"
	"runtime"
	"testing"
)

// TestConfigPathFromGivenEnvironment: the locations come from the environment passed in, not
// the process's, so a test (or the app) can point them at a temporary folder.
func TestConfigPathFromGivenEnvironment(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the expected paths below are Linux's")
	}
	t.Setenv("HOME", "/process/home") // must not be used
	t.Setenv("CODEX_HOME", "/process/codex")
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		client string
		env    map[string]string
		want   string
	}{
		{"claude", map[string]string{"HOME": "/h"}, "/h/.config/Claude/claude_desktop_config.json"},
		{"claude", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"}, "/x/Claude/claude_desktop_config.json"},
		{"cursor", map[string]string{"HOME": "/h"}, "/h/.cursor/mcp.json"},
		{"codex", map[string]string{"HOME": "/h"}, "/h/.codex/config.toml"},
		{"codex", map[string]string{"HOME": "/h", "CODEX_HOME": "/c"}, "/c/config.toml"},
	} {
		got, err := ConfigPath(c.client, env(c.env))
		if err != nil || got != filepath.FromSlash(c.want) {
			t.Errorf("%s with %v: %q, %v; want %q", c.client, c.env, got, err, c.want)
		}
	}
	if _, err := ConfigPath("cursor", env(nil)); err == nil {
		t.Error("no HOME: want an error, not a path relative to the working folder")
	}
}

// TestConfigPathOnEachOS: every client's file on Linux, macOS and Windows, with each OS's
// separators and volumes, so the locations a Windows or macOS build uses are checked here.
func TestConfigPathOnEachOS(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	winHome := env("USERPROFILE", `C:\Users\Ann`, "APPDATA", `C:\Users\Ann\AppData\Roaming`, "HOME", "/not/used")
	for _, c := range []struct {
		goos, client string
		env          func(string) string
		want         string
	}{
		{"linux", "claude", env("HOME", "/home/ann"), "/home/ann/.config/Claude/claude_desktop_config.json"},
		{"linux", "claude", env("HOME", "/home/ann", "XDG_CONFIG_HOME", "relative"), "/home/ann/.config/Claude/claude_desktop_config.json"},
		{"linux", "cursor", env("HOME", "/home/ann"), "/home/ann/.cursor/mcp.json"},
		{"darwin", "claude", env("HOME", "/Users/ann", "XDG_CONFIG_HOME", "/x"), "/Users/ann/Library/Application Support/Claude/claude_desktop_config.json"},
		{"darwin", "cursor", env("HOME", "/Users/ann"), "/Users/ann/.cursor/mcp.json"},
		{"darwin", "codex", env("HOME", "/Users/ann"), "/Users/ann/.codex/config.toml"},
		{"windows", "claude", winHome, `C:\Users\Ann\AppData\Roaming\Claude\claude_desktop_config.json`},
		{"windows", "claude", env("USERPROFILE", `C:\Users\Ann`), `C:\Users\Ann\AppData\Roaming\Claude\claude_desktop_config.json`},
		{"windows", "claude", env("USERPROFILE", `\\fileserver\home\ann`, "APPDATA", `\\fileserver\home\ann\Roaming`), `\\fileserver\home\ann\Roaming\Claude\claude_desktop_config.json`},
		{"windows", "cursor", winHome, `C:\Users\Ann\.cursor\mcp.json`},
		{"windows", "codex", winHome, `C:\Users\Ann\.codex\config.toml`},
		{"windows", "codex", env("USERPROFILE", `C:\Users\Ann`, "CODEX_HOME", `D:/tools/codex`), `D:\tools\codex\config.toml`},
	} {
		got, err := configPathOn(c.goos, c.client, c.env)
		if err != nil || got != c.want {
			t.Errorf("%s %s: %q, %v; want %q", c.goos, c.client, got, err, c.want)
		}
	}
	for _, c := range []struct {
		goos string
		env  func(string) string
	}{
		{"windows", env("HOME", `C:\Users\Ann`)}, // Windows' home is %USERPROFILE%
		{"windows", env("USERPROFILE", `Users\Ann`)},
		{"linux", env("USERPROFILE", "/home/ann")},
		{"darwin", env("HOME", "Users/ann")},
	} {
		if got, err := configPathOn(c.goos, "cursor", c.env); err == nil {
			t.Errorf("%s without an absolute home: %q, want an error", c.goos, got)
		}
	}
}
