//go:build !darwin && !windows

package autostart

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/strata-app/strata/backend/atomicfile"
)

// On Linux and the BSDs the login item is an XDG autostart entry, which GNOME, KDE, Xfce,
// Cinnamon, MATE and LXQt all read at login.

func location(env Env) (string, error) { return xdgLocation(env) }

// commandOf is the Exec value State reads back for e.
func commandOf(e Entry) (string, error) { return desktopExec(append([]string{e.Program}, e.Args...)) }

func enable(env Env, e Entry) error {
	path, err := xdgLocation(env)
	if err != nil {
		return err
	}
	text, err := DesktopEntry(e)
	if err != nil {
		return err
	}
	// ~/.config is private to its owner (XDG says 0700); autostart/ inside it follows.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	return atomicfile.Write(path, bytes.NewReader(text), 0o644)
}

func disable(env Env) error {
	path, err := xdgLocation(env)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

func state(env Env) (State, error) {
	path, err := xdgLocation(env)
	if err != nil {
		return State{}, err
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return State{Location: path}, nil
	}
	if err != nil {
		return State{Location: path}, fmt.Errorf("read %s: %w", path, err)
	}
	exec, on := readDesktopEntry(b)
	return State{Enabled: on && exec != "", Location: path, Command: exec}, nil
}
