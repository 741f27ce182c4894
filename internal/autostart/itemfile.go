//go:build !windows

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

// On Linux, the BSDs and macOS the login item is one file the session reads at login; these
// write, remove and read it the same way whatever its format (a desktop entry or a plist).

// writeItem writes the login item's text to path atomically (a crash never leaves half an
// entry the session would run), creating its folder with dirMode. The file is 0644: launchd
// refuses an agent whose plist others may write, and XDG entries need no more.
func writeItem(path string, text []byte, dirMode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	return atomicfile.Write(path, bytes.NewReader(text), 0o644)
}

// removeItem deletes the login item at path; one already gone is off, not an error.
func removeItem(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

// readItem is the State of the login item at path: parse says what the file runs and whether
// it is on. No file is off.
func readItem(path string, parse func([]byte) (command string, on bool, err error)) (State, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return State{Location: path}, nil
	}
	if err != nil {
		return State{Location: path}, fmt.Errorf("read %s: %w", path, err)
	}
	command, on, err := parse(b)
	if err != nil {
		return State{Location: path}, err
	}
	return State{Enabled: on, Location: path, Command: command}, nil
}
