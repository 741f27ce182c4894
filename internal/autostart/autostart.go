// Package autostart starts Strata when the person logs in, the way each desktop expects a
// login item: an XDG autostart entry on Linux and the BSDs
// ($XDG_CONFIG_HOME/autostart/strata.desktop), a LaunchAgent on macOS
// (~/Library/LaunchAgents/io.github.strata_app.Strata.plist) and a value named Strata under
// HKCU\Software\Microsoft\Windows\CurrentVersion\Run on Windows.
//
// The entry runs one program with its arguments (the desktop binary, `--data DIR --hidden`),
// never a shell line, so a path with spaces or quotes means the same on every OS: each format
// has its own quoting, written by DesktopEntry, LaunchAgent and RunValue (plain functions, so
// they are tested as text on any OS) and applied by the file or registry code behind build tags.
//
// The package reads no environment: the caller (host, from the entry point's getenv) passes
// HOME and XDG_CONFIG_HOME in Env, as everything below the entry points does.
package autostart

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Name is the entry's name: the .desktop file's base name on Linux and the Run value's name
// on Windows.
const Name = "strata"

// Label is the LaunchAgent's label on macOS (and its file name, with .plist): reverse-DNS,
// as launchd expects, from the project's home (github.com/strata-app).
const Label = "io.github.strata_app.Strata"

// Entry is what runs at login.
type Entry struct {
	Program string   // absolute path of the program, links resolved
	Args    []string // its arguments, one element each
}

// Env is what the package needs from the environment, read by the caller.
type Env struct {
	Home          string // $HOME (macOS, Linux); unused on Windows
	XDGConfigHome string // $XDG_CONFIG_HOME; "" or relative = Home/.config (the XDG rule)
}

// State is what is installed now, read back from the file or the registry.
type State struct {
	// Enabled: the entry exists and the desktop will run it (an XDG entry that a settings
	// tool switched off with Hidden=true or X-GNOME-Autostart-enabled=false is not enabled).
	Enabled bool `json:"enabled"`
	// Location is where the entry is (or would be): a file, or the registry value's path.
	Location string `json:"location"`
	// Command is what it runs, as written there ("" when there is none).
	Command string `json:"command"`
	// Current: it runs the entry State was asked about (this program, this data folder), not
	// an older copy of the program or another data folder.
	Current bool `json:"current"`
}

// Manager reads and changes this user's login item.
type Manager struct{ env Env }

// New returns a Manager for the user whose folders env names.
func New(env Env) *Manager { return &Manager{env: env} }

// Location is where the entry is (or would be) on this OS.
func (m *Manager) Location() (string, error) { return location(m.env) }

// Enable writes the entry (replacing one that is there) atomically: a crash leaves the old
// entry or the new one, never half of one.
func (m *Manager) Enable(e Entry) error {
	if !filepath.IsAbs(e.Program) {
		return fmt.Errorf("the program to start at login must be an absolute path, not %q", e.Program)
	}
	return enable(m.env, e)
}

// Disable removes the entry; removing one that is not there is not an error.
func (m *Manager) Disable() error { return disable(m.env) }

// State reads what is installed, and whether it is want.
func (m *Manager) State(want Entry) (State, error) {
	st, err := state(m.env)
	if err == nil && st.Enabled {
		cmd, cerr := commandOf(want)
		st.Current = cerr == nil && cmd == st.Command
	}
	return st, err
}

// errNoHome: neither HOME nor an absolute XDG_CONFIG_HOME says where the user's files are.
var errNoHome = errors.New("cannot find your home folder (HOME is not set, or not an absolute path)")
