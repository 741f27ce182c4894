//go:build windows

package autostart

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows/registry"
)

// On Windows the login item is a string value under the current user's Run key, which Explorer
// runs at login (and Task Manager's Startup tab can switch off). golang.org/x/sys/windows/registry
// is the Go team's own package, already in go.mod for x/sys; it needs no cgo and no extra module.

func location(Env) (string, error) { return runKeyPath + `\` + runValueName, nil }

// commandOf is the value State reads back for e.
func commandOf(e Entry) (string, error) { return RunValue(e), nil }

const runSubkey = `Software\Microsoft\Windows\CurrentVersion\Run`

// approvedSubkey is where Task Manager's Startup tab records that the person switched a Run
// value off: a binary value of the same name whose first byte is odd (0x03, 0x07). Windows skips
// such a value at login, so State reports it off, and Enable clears the mark (turning it on in
// Strata must really turn it on).
const approvedSubkey = `Software\Microsoft\Windows\CurrentVersion\Explorer\StartupApproved\Run`

func enable(_ Env, e Entry) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, runSubkey, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("open %s: %w", runKeyPath, err)
	}
	defer k.Close()
	// One registry write is atomic: readers see the old value or the new one.
	if err := k.SetStringValue(runValueName, RunValue(e)); err != nil {
		return fmt.Errorf("write %s\\%s: %w", runKeyPath, runValueName, err)
	}
	a, err := registry.OpenKey(registry.CURRENT_USER, approvedSubkey, registry.SET_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open the Startup tab's settings: %w", err)
	}
	defer a.Close()
	if err := a.DeleteValue(runValueName); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf("clear the Startup tab's switch for Strata: %w", err)
	}
	return nil
}

func disable(Env) error {
	k, err := registry.OpenKey(registry.CURRENT_USER, runSubkey, registry.SET_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", runKeyPath, err)
	}
	defer k.Close()
	if err := k.DeleteValue(runValueName); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf("remove %s\\%s: %w", runKeyPath, runValueName, err)
	}
	return nil
}

func state(Env) (State, error) {
	loc := runKeyPath + `\` + runValueName
	k, err := registry.OpenKey(registry.CURRENT_USER, runSubkey, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return State{Location: loc}, nil
	}
	if err != nil {
		return State{Location: loc}, fmt.Errorf("open %s: %w", runKeyPath, err)
	}
	defer k.Close()
	v, _, err := k.GetStringValue(runValueName)
	if errors.Is(err, registry.ErrNotExist) {
		return State{Location: loc}, nil
	}
	if err != nil {
		return State{Location: loc}, fmt.Errorf("read %s: %w", loc, err)
	}
	return State{Enabled: v != "" && !switchedOff(), Location: loc, Command: v}, nil
}

// switchedOff reports whether Task Manager's Startup tab switched the value off.
func switchedOff() bool {
	a, err := registry.OpenKey(registry.CURRENT_USER, approvedSubkey, registry.QUERY_VALUE)
	if err != nil {
		return false
	}
	defer a.Close()
	b, _, err := a.GetBinaryValue(runValueName)
	return err == nil && len(b) > 0 && b[0]&1 == 1
}
