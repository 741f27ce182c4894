package mcpconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	toml "github.com/pelletier/go-toml/v2"
)

var (
	stdio = Server{Command: "/opt/strata/bin/strata", Args: []string{"mcp", "--data", "/home/ada/strata data"}}
	web   = Server{URL: "http://127.0.0.1:7777/mcp", Token: "tok123"}
	now   = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
)

func TestSnippets(t *testing.T) {
	for _, c := range Clients {
		for _, s := range []Server{stdio, web} {
			out, err := Snippet(c, s)
			if err != nil {
				t.Fatal(err)
			}
			var v map[string]any
			if c == "codex" {
				err = toml.Unmarshal([]byte(out), &v)
			} else {
				err = json.Unmarshal([]byte(out), &v)
			}
			if err != nil {
				t.Fatalf("%s snippet does not parse: %v\n%s", c, err, out)
			}
			want := stdio.Command
			if s.URL != "" {
				want = s.URL
			}
			if !strings.Contains(out, want) || (s.URL != "" && !strings.Contains(out, "Bearer tok123")) {
				t.Fatalf("%s snippet lacks %s:\n%s", c, want, out)
			}
		}
	}
	if _, err := Snippet("vscode", stdio); err == nil {
		t.Fatal("unknown client accepted")
	}
}

func TestInstallJSONKeepsOtherServers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Claude", "claude_desktop_config.json")
	// No file yet: created with only Strata.
	if b, err := Install("claude", path, stdio, now); err != nil || b != "" {
		t.Fatalf("install into nothing: %q %v", b, err)
	}
	orig := `{"globalShortcut": "Ctrl+Space", "scale": 1.50, "mcpServers": {"github": {"command": "gh-mcp", "args": ["--x"]}, "strata": {"command": "old"}}}`
	os.WriteFile(path, []byte(orig), 0o640)
	os.Chmod(path, 0o640)
	backup, err := Install("claude", path, stdio, now)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(backup); string(b) != orig {
		t.Fatalf("backup: %q", b)
	}
	if names, _ := Servers("claude", path); strings.Join(names, ",") != "github,strata" {
		t.Fatalf("servers: %v", names)
	}
	b, _ := os.ReadFile(path)
	var v map[string]any
	json.Unmarshal(b, &v)
	s := v["mcpServers"].(map[string]any)
	if s["github"].(map[string]any)["command"] != "gh-mcp" || v["globalShortcut"] != "Ctrl+Space" || !strings.Contains(string(b), "1.50") {
		t.Fatalf("other settings changed:\n%s", b)
	}
	if s["strata"].(map[string]any)["command"] != stdio.Command {
		t.Fatalf("strata entry: %v", s["strata"])
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode changed to %v", st.Mode())
	}
	// A broken file is left alone.
	os.WriteFile(path, []byte(`{"mcpServers": `), 0o600)
	if _, err := Install("cursor", path, web, now); err == nil {
		t.Fatal("a broken file was overwritten")
	}
	if b, _ := os.ReadFile(path); string(b) != `{"mcpServers": ` {
		t.Fatal("the broken file was touched")
	}
}

func TestInstallTOMLKeepsEverythingElseByteForByte(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	head := "# my codex settings\nmodel = \"o4\"\n\n[mcp_servers.github]\ncommand = \"gh-mcp\" # keep me\n"
	tail := "\n[profiles.fast]\nmodel = \"mini\"\n"
	orig := head + "\n[mcp_servers.strata]\ncommand = \"old\"\n\n[mcp_servers.strata.env]\nX = \"1\"\n" + tail
	os.WriteFile(path, []byte(orig), 0o600)
	if _, err := Install("codex", path, web, now); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	got := string(b)
	if !strings.HasPrefix(got, head) || !strings.Contains(got, tail) || strings.Contains(got, `"old"`) || strings.Contains(got, "X = ") {
		t.Fatalf("merged file:\n%s", got)
	}
	var v struct {
		MCP map[string]map[string]any `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal(b, &v); err != nil || v.MCP["strata"]["url"] != web.URL || v.MCP["github"]["command"] != "gh-mcp" {
		t.Fatalf("parsed: %v %+v", err, v)
	}
	// Installing again is stable.
	Install("codex", path, web, now.Add(time.Second))
	if b2, _ := os.ReadFile(path); string(b2) != got {
		t.Fatalf("second install changed the file:\n%s", b2)
	}
}
