package autostart

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/strata-app/strata/backend/paths"
)

// xdgLocation is $XDG_CONFIG_HOME/autostart/strata.desktop, or ~/.config/… when that variable is
// unset or relative (the XDG Base Directory spec says to ignore a relative path).
func xdgLocation(env Env) (string, error) {
	cfg, ok := paths.Host.ConfigHome(env.Home, env.XDGConfigHome)
	if !ok {
		return "", errNoHome
	}
	return filepath.Join(cfg, "autostart", Name+".desktop"), nil
}

// DesktopEntry is the XDG autostart entry (Desktop Entry Specification 1.5) that runs e.
func DesktopEntry(e Entry) ([]byte, error) {
	exec, err := desktopExec(append([]string{e.Program}, e.Args...))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("[Desktop Entry]\n")
	b.WriteString("Type=Application\n")
	b.WriteString("Name=Strata\n")
	b.WriteString("Comment=Keeps Strata running in the background, so your AI tools can search your documents\n")
	b.WriteString("Exec=" + exec + "\n")
	b.WriteString("Icon=" + Label + "\n") // the icon the .deb installs (build/linux), named by the app's ID
	b.WriteString("Terminal=false\n")
	b.WriteString("X-GNOME-Autostart-enabled=true\n")
	return b.Bytes(), nil
}

// desktopExec writes an Exec value: each argument that holds a reserved character is quoted
// with "…" and `"`, "`", "$" and "\" inside it backslash-escaped; "%" is doubled (it starts a
// field code); then the whole value is escaped as a desktop-file string, which doubles every
// backslash once more. A newline cannot be written at all.
func desktopExec(args []string) (string, error) {
	parts := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, "\n\r") {
			return "", fmt.Errorf("%q cannot be written in a desktop entry: it holds a line break", a)
		}
		if a == "" || strings.ContainsAny(a, " \t\"'\\><~|&;$*?#()`") {
			var q strings.Builder
			q.WriteByte('"')
			for _, c := range a {
				if strings.ContainsRune("\"`$\\", c) {
					q.WriteByte('\\')
				}
				q.WriteRune(c)
			}
			q.WriteByte('"')
			a = q.String()
		}
		parts[i] = strings.ReplaceAll(a, "%", "%%")
	}
	return strings.ReplaceAll(strings.Join(parts, " "), `\`, `\\`), nil
}

// readDesktopEntry reads back what the entry runs and whether the desktop will run it: a
// settings tool switches an entry off with Hidden=true or X-GNOME-Autostart-enabled=false.
func readDesktopEntry(b []byte) (exec string, enabled bool) {
	enabled = true
	inMain := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			inMain = line == "[Desktop Entry]"
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !inMain || !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Exec":
			exec = strings.TrimSpace(v)
		case "Hidden":
			if strings.TrimSpace(v) == "true" {
				enabled = false
			}
		case "X-GNOME-Autostart-enabled":
			if strings.TrimSpace(v) == "false" {
				enabled = false
			}
		}
	}
	return exec, enabled
}
