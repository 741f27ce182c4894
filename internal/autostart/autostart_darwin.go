//go:build darwin

package autostart

import "strings"

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
	return writeItem(path, LaunchAgent(e), 0o755)
}

func disable(env Env) error {
	path, err := launchAgentLocation(env)
	if err != nil {
		return err
	}
	return removeItem(path)
}

func state(env Env) (State, error) {
	path, err := launchAgentLocation(env)
	if err != nil {
		return State{}, err
	}
	return readItem(path, func(b []byte) (string, bool, error) {
		args, err := readLaunchAgent(b)
		return strings.Join(args, " "), len(args) > 0, err
	})
}
