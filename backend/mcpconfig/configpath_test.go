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
