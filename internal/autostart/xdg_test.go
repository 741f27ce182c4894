//go:build !darwin && !windows

package autostart

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestXDGEntryOnAndOff: Enable writes $XDG_CONFIG_HOME/autostart/strata.desktop (creating the
// folders), State reads it back, Disable removes it, and nothing else is left in the folder
// (the write goes through a temporary file that is renamed).
func TestXDGEntryOnAndOff(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, "cfg")
	m := New(Env{Home: home, XDGConfigHome: cfg})
	want := filepath.Join(cfg, "autostart", "strata.desktop")
	if loc, err := m.Location(); err != nil || loc != want {
		t.Fatalf("Location = %q, %v; want %q", loc, err, want)
	}
	e := Entry{Program: "/opt/Strata/strata", Args: []string{"--data", "/home/ann/my notes", "--hidden"}}
	if st, err := m.State(e); err != nil || st.Enabled || st.Current || st.Location != want {
		t.Fatalf("before Enable: %+v, %v", st, err)
	}
	if err := m.Enable(e); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"[Desktop Entry]", "Type=Application", "Name=Strata", `Exec=/opt/Strata/strata --data "/home/ann/my notes" --hidden`, "Terminal=false"} {
		if !slices.Contains(strings.Split(string(b), "\n"), line) {
			t.Errorf("the entry has no line %q:\n%s", line, b)
		}
	}
	if fi, _ := os.Stat(want); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	st, err := m.State(e)
	if err != nil || !st.Enabled || !st.Current || st.Command != `/opt/Strata/strata --data "/home/ann/my notes" --hidden` {
		t.Fatalf("after Enable: %+v, %v", st, err)
	}
	// Enabling again replaces the entry whole.
	if err := m.Enable(Entry{Program: "/usr/bin/strata", Args: []string{"--hidden"}}); err != nil {
		t.Fatal(err)
	}
	if st, _ := m.State(e); st.Command != "/usr/bin/strata --hidden" || !st.Enabled || st.Current {
		t.Fatalf("after Enable for another program: %+v; want enabled, not current", st)
	}
	if names := dirNames(t, filepath.Dir(want)); !slices.Equal(names, []string{"strata.desktop"}) {
		t.Fatalf("the autostart folder holds %v", names)
	}
	if err := m.Disable(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(want); !os.IsNotExist(err) {
		t.Fatalf("Disable left the entry: %v", err)
	}
	if st, err := m.State(e); err != nil || st.Enabled || st.Current {
		t.Fatalf("after Disable: %+v, %v", st, err)
	}
	if err := m.Disable(); err != nil {
		t.Fatalf("Disable twice: %v", err)
	}
	if err := m.Enable(Entry{Program: "strata"}); err == nil {
		t.Fatal("a relative program was accepted")
	}
}

// TestXDGLocation follows the XDG Base Directory rule: XDG_CONFIG_HOME when it is absolute,
// else ~/.config; with neither, there is no place to write.
func TestXDGLocation(t *testing.T) {
	for _, c := range []struct {
		env  Env
		want string
	}{
		{Env{Home: "/home/ann"}, "/home/ann/.config/autostart/strata.desktop"},
		{Env{Home: "/home/ann", XDGConfigHome: "/cfg"}, "/cfg/autostart/strata.desktop"},
		{Env{Home: "/home/ann", XDGConfigHome: "relative/cfg"}, "/home/ann/.config/autostart/strata.desktop"},
		{Env{XDGConfigHome: "/cfg"}, "/cfg/autostart/strata.desktop"},
		{Env{}, ""},
	} {
		got, err := New(c.env).Location()
		if got != c.want || (c.want == "") != (err != nil) {
			t.Errorf("%+v: %q, %v; want %q", c.env, got, err, c.want)
		}
	}
}

// TestXDGSwitchedOffElsewhere: a settings tool (GNOME Tweaks, KDE's Autostart page) switches
// an entry off without deleting it; the toggle must then say off.
func TestXDGSwitchedOffElsewhere(t *testing.T) {
	home := t.TempDir()
	m := New(Env{Home: home})
	e := Entry{Program: "/usr/bin/strata", Args: []string{"--hidden"}}
	if err := m.Enable(e); err != nil {
		t.Fatal(err)
	}
	loc, _ := m.Location()
	b, _ := os.ReadFile(loc)
	for _, off := range []string{"X-GNOME-Autostart-enabled=true\n", "Hidden=true\n"} {
		text := string(b)
		if off == "Hidden=true\n" {
			text += off
		} else {
			text = strings.Replace(text, off, "X-GNOME-Autostart-enabled=false\n", 1)
		}
		os.WriteFile(loc, []byte(text), 0o644)
		if st, err := m.State(e); err != nil || st.Enabled || st.Current || st.Command == "" {
			t.Errorf("%q: %+v, %v; want present but not enabled", off, st, err)
		}
	}
}

// TestDesktopEntryRunsThroughGLib launches the written entry with GLib's own launcher (`gio
// launch`, what GNOME's session uses to read Exec) and checks that the program received
// exactly its arguments: spaces in the program's path and arguments, quotes, $, `, \, % and an
// empty argument.
func TestDesktopEntryRunsThroughGLib(t *testing.T) {
	gio, err := exec.LookPath("gio")
	if err != nil {
		t.Fatal("gio is missing (package libglib2.0-bin, installed with the desktop build's packages by `make test`)")
	}
	dir := filepath.Join(t.TempDir(), "my apps")
	os.MkdirAll(dir, 0o755)
	out := filepath.Join(dir, "args.txt")
	prog := filepath.Join(dir, "strata $x")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"[$a]\"; done > '" + out + "'\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"--data", `/home/ann/it's a "dir" $HOME ` + "`x`" + ` \back\ 100%`, "", "plain", "a=b;c", "--hidden"}
	text, err := DesktopEntry(Entry{Program: prog, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	entry := filepath.Join(dir, "strata.desktop")
	os.WriteFile(entry, text, 0o644)
	cmd := exec.Command(gio, "launch", entry)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gio launch: %v\n%s\n%s", err, b, text)
	}
	var got []byte
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if got, _ = os.ReadFile(out); len(got) > 0 && strings.Count(string(got), "\n") == len(args) || time.Now().After(deadline) {
			break
		}
	}
	var want strings.Builder
	for _, a := range args {
		want.WriteString("[" + a + "]\n")
	}
	if string(got) != want.String() {
		t.Fatalf("the program received\n%s\nwant\n%s\nfrom the entry\n%s", got, want.String(), text)
	}
	// GLib reads $ and ` inside quotes literally either way; the spec asks for the escapes,
	// which other desktops' parsers (KDE's) rely on.
	wantExec := "/p \"\\\\$HOME\" \"\\\\`id\\\\`\" 50%%" // /p "\\$HOME" "\\`id\\`" 50%% on disk
	if got, _ := desktopExec([]string{"/p", "$HOME", "`id`", "50%"}); got != wantExec {
		t.Errorf("Exec value %s, want %s", got, wantExec)
	}
	if _, err := DesktopEntry(Entry{Program: prog, Args: []string{"a\nb"}}); err == nil {
		t.Fatal("an argument with a line break was written")
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
