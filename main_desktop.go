//go:build desktop

package main

import (
	"context"
	"errors"
	"os"
	"runtime"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/cli"
)

// gui opens the desktop window: `strata` with no command runs it in desktop builds.
var gui cli.GUIFunc = runDesktop

// runDesktop opens the engine on dataDir and shows the Wails window until it is closed.
func runDesktop(dataDir string) (err error) {
	if !hasDisplay() {
		// Without this check GTK aborts the process with a C-level message; say what to do instead.
		return errs.New("NO_DISPLAY", "no graphical display found (neither DISPLAY nor WAYLAND_DISPLAY is set)").
			WithHint("run Strata from a desktop session, or use the commands in `strata --help` (a browser UI via `strata serve` is coming)")
	}
	ctx := context.Background()
	eng, err := engine.Open(ctx, engine.Config{DataDir: dataDir})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, eng.Close()) }()

	a := app.New(eng)
	return wails.Run(&options.App{
		Title:       "Strata",
		Width:       1100,
		Height:      760,
		AssetServer: &assetserver.Options{Assets: assets},
		OnStartup:   a.Startup,
		Bind:        []interface{}{a},
	})
}

// hasDisplay reports whether a window can be shown. On macOS and Windows there always is a
// display; elsewhere (Linux, BSD) GTK needs an X11 or Wayland display.
func hasDisplay() bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}
