//go:build darwin

package autostart

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-app/strata/backend/atomicfile"
)

// On macOS the login item is a LaunchAgent: launchd reads ~/Library/LaunchAgents at login. A
// plist written there is loaded at the next login; nothing is started now (the app already
// runs when the person turns this on), so no launchctl call is needed. macOS 13 and later list
// it under System Settings → General → Login Items, where it can be switched off too.

func location(env Env) (string, error) { return launchAgentLocation(env) }

// commandOf is the command State reads back for e: ProgramArguments joined by spaces.
func commandOf(e Entry) (string, error) {
	return strings.Join(append([]string{e.Program}, e.Args...), " "), nil
}

func enable(env Env, e Entry) error {
	path, err := launchAgentLocation(env)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	// launchd refuses an agent whose plist others may write.
	return atomicfile.Write(path, bytes.NewReader(LaunchAgent(e)), 0o644)
}

func disable(env Env) error {
	path, err := launchAgentLocation(env)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

func state(env Env) (State, error) {
	path, err := launchAgentLocation(env)
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
	args, err := readLaunchAgent(b)
	if err != nil {
		return State{Location: path}, err
	}
	return State{Enabled: len(args) > 0, Location: path, Command: strings.Join(args, " ")}, nil
}
