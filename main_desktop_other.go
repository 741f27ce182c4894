//go:build desktop && !linux

package main

import (
	"context"
	"log/slog"
)

func setProgramName(string) {}

// presentWindow: on macOS and Windows, Wails' WindowShow already brings the window forward.
func presentWindow(string) {}

// notifyBackground: on macOS the Dock icon stays while Strata runs. On Windows nothing shows it
// (Wails v2 has no tray icon), and a toast needs an AppUserModelID that an unpackaged binary
// lacks; the log line and the README say it. Both need a packaged app first.
func notifyBackground(context.Context, *slog.Logger) {}

var appIcon []byte
