// Package mcpconfig writes Strata into AI clients' MCP configuration: the snippet a person
// pastes, or a merge into the client's own file (backup first, atomic write, every other server
// left as it was). The CLI (`strata mcp config`) and the desktop app's "Add to …" buttons share
// it.
package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/strata-app/strata/backend/atomicfile"
	"github.com/strata-app/strata/backend/paths"
)

// Clients are the AI clients Strata knows how to configure.
var Clients = []string{"claude", "cursor", "codex"}

// Name is the key Strata's entry has in a client's server list.
const Name = "strata"

// Server is how a client reaches Strata: a command it launches (stdio), or a loopback URL with
// a bearer token (streamable HTTP).
type Server struct {
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	URL     string   `json:"url,omitempty"`
	Token   string   `json:"-"`
}

func (s Server) http() bool { return s.URL != "" }

// entry is Strata's server object in a JSON config (Claude Desktop, Cursor).
func (s Server) entry(client string) (map[string]any, error) {
	if !s.http() {
		return map[string]any{"command": s.Command, "args": s.Args}, nil
	}
	auth := "Bearer " + s.Token
	switch client {
	case "cursor":
		return map[string]any{"url": s.URL, "headers": map[string]any{"Authorization": auth}}, nil
	case "claude":
		// Claude Desktop's config launches commands only; mcp-remote bridges to HTTP.
		return map[string]any{"command": "npx", "args": []string{"-y", "mcp-remote", s.URL, "--header", "Authorization:" + auth}}, nil
	}
	return nil, fmt.Errorf("mcpconfig: no JSON entry for client %q", client)
}

// Snippet is the text a person adds to the client's configuration by hand.
func Snippet(client string, s Server) (string, error) {
	switch client {
	case "claude", "cursor":
		e, err := s.entry(client)
		if err != nil {
			return "", err
		}
		b, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{Name: e}}, "", "  ") // maps of strings: cannot fail
		return string(b) + "\n", nil
	case "codex":
		return codexSection(s), nil
	}
	return "", unknownClient(client)
}

func unknownClient(c string) error {
	return fmt.Errorf("unknown client %q (want %s)", c, strings.Join(Clients, ", "))
}

// ConfigPath is where the client keeps its MCP configuration on this OS, for this user.
// getenv is the environment (os.Getenv at the edge): the locations depend on HOME, APPDATA,
// XDG_CONFIG_HOME and CODEX_HOME, and a test must be able to point them at a temporary folder
// without touching the real ones.
func ConfigPath(client string, getenv func(string) string) (string, error) {
	return configPathOn(runtime.GOOS, client, getenv)
}

// configPathOn is ConfigPath on the operating system goos, so that each OS's locations are
// tested wherever the tests run (paths joined with that OS's separator).
func configPathOn(goos, client string, getenv func(string) string) (string, error) {
	p := paths.For(goos)
	home := getenv("HOME")
	if goos == "windows" {
		home = getenv("USERPROFILE")
	}
	if !p.IsAbs(home) { // unset, or a path that would be read from the working folder
		v := "$HOME"
		if goos == "windows" {
			v = "%USERPROFILE%"
		}
		return "", fmt.Errorf("find the home folder: %s is not an absolute path (%q)", v, home)
	}
	switch client {
	case "claude":
		switch goos {
		case "darwin":
			return p.Join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json"), nil
		case "windows":
			// %APPDATA% is the roaming profile folder; when it is unset (a service's
			// environment) Windows' default place for it, never a path relative to the
			// working folder.
			appData := getenv("APPDATA")
			if !p.IsAbs(appData) {
				appData = p.Join(home, "AppData", "Roaming")
			}
			return p.Join(appData, "Claude", "claude_desktop_config.json"), nil
		}
		cfg, _ := p.ConfigHome(home, getenv("XDG_CONFIG_HOME")) // home is absolute (above)
		return p.Join(cfg, "Claude", "claude_desktop_config.json"), nil
	case "cursor":
		return p.Join(home, ".cursor", "mcp.json"), nil
	case "codex":
		if d := getenv("CODEX_HOME"); d != "" {
			return p.Join(d, "config.toml"), nil
		}
		return p.Join(home, ".codex", "config.toml"), nil
	}
	return "", unknownClient(client)
}

// Install merges Strata's entry into the client's configuration file at path: the file is
// backed up (path + ".bak-<time>") if it exists, Strata's entry is added or replaced, every
// other setting and server is kept, and the result is written atomically (temporary file,
// fsync, rename) with the original file's permissions. It returns the backup's path ("" when
// there was no file). A file that is not valid JSON/TOML is left untouched and reported.
func Install(client, path string, s Server, now time.Time) (backup string, err error) {
	old, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	var out []byte
	switch client {
	case "claude", "cursor":
		out, err = mergeJSON(client, old, s)
	case "codex":
		out, err = mergeTOML(old, s)
	default:
		return "", unknownClient(client)
	}
	if err != nil {
		return "", fmt.Errorf("merge into %s: %w", path, err)
	}
	mode := fs.FileMode(0o600)
	if exists {
		if st, err := os.Stat(path); err == nil {
			mode = st.Mode().Perm()
		}
		backup = path + ".bak-" + now.UTC().Format("20060102T150405Z")
		if err := writeAtomic(backup, old, mode); err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := writeAtomic(path, out, mode); err != nil {
		return backup, fmt.Errorf("write %s: %w", path, err)
	}
	return backup, nil
}

// mergeJSON sets mcpServers.strata, keeping every other key (numbers keep their spelling).
func mergeJSON(client string, old []byte, s Server) ([]byte, error) {
	root := map[string]any{}
	if len(bytes.TrimSpace(old)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(old))
		dec.UseNumber()
		if err := dec.Decode(&root); err != nil {
			return nil, fmt.Errorf("the file is not a JSON object (%v); fix it or move it away, then try again", err)
		}
	}
	servers, _ := root["mcpServers"].(map[string]any)
	if servers == nil {
		if _, present := root["mcpServers"]; present {
			return nil, errors.New(`"mcpServers" is not an object; fix it, then try again`)
		}
		servers = map[string]any{}
	}
	e, err := s.entry(client)
	if err != nil {
		return nil, err
	}
	servers[Name] = e
	root["mcpServers"] = servers
	b, err := json.MarshalIndent(root, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// codexSection is Strata's table in Codex's config.toml.
func codexSection(s Server) string {
	var b strings.Builder
	b.WriteString("[mcp_servers." + Name + "]\n")
	if s.http() {
		fmt.Fprintf(&b, "url = %s\n", tomlString(s.URL))
		fmt.Fprintf(&b, "http_headers = { Authorization = %s }\n", tomlString("Bearer "+s.Token))
		return b.String()
	}
	fmt.Fprintf(&b, "command = %s\n", tomlString(s.Command))
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = tomlString(a)
	}
	fmt.Fprintf(&b, "args = [%s]\n", strings.Join(args, ", "))
	return b.String()
}

func tomlString(s string) string {
	b, _ := json.Marshal(s) // a JSON string is a valid TOML basic string
	return string(b)
}

// mergeTOML replaces Strata's tables ([mcp_servers.strata] and its sub-tables) in the text and
// appends the new one, so comments, order and every other server stay byte for byte; the result
// is parsed to prove it is valid TOML.
func mergeTOML(old []byte, s Server) ([]byte, error) {
	if len(old) > 0 {
		var v map[string]any
		if err := toml.Unmarshal(old, &v); err != nil {
			return nil, fmt.Errorf("the file is not valid TOML (%v); fix it or move it away, then try again", err)
		}
	}
	var kept []string
	skipping := false
	for _, line := range strings.SplitAfter(string(old), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			name := strings.Trim(strings.SplitN(t, "#", 2)[0], "[] \t")
			name = strings.ReplaceAll(strings.ReplaceAll(name, `"`, ""), " ", "")
			skipping = name == "mcp_servers."+Name || strings.HasPrefix(name, "mcp_servers."+Name+".")
		}
		if !skipping {
			kept = append(kept, line)
		}
	}
	text := strings.TrimRight(strings.Join(kept, ""), "\n")
	if text != "" {
		text += "\n\n"
	}
	text += codexSection(s)
	var v map[string]any
	if err := toml.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("the merged file would not be valid TOML (%v); add the snippet by hand", err)
	}
	servers, _ := v["mcp_servers"].(map[string]any)
	if _, ok := servers[Name]; !ok {
		return nil, errors.New("Strata's entry did not survive the merge; add the snippet by hand")
	}
	return []byte(text), nil
}

// writeAtomic writes data over path so that a crash leaves either the old file or the new one.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	return atomicfile.Write(path, bytes.NewReader(data), mode)
}

// Servers lists the server names in a client's config file (for tests and for the UI to say
// what is there); a missing file has none.
func Servers(client, path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var servers map[string]any
	switch client {
	case "codex":
		var v map[string]any
		if err := toml.Unmarshal(b, &v); err != nil {
			return nil, err
		}
		servers, _ = v["mcp_servers"].(map[string]any)
	default:
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, err
		}
		servers, _ = v["mcpServers"].(map[string]any)
	}
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}
