//go:build bindings && !desktop

package main

import (
	"context"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/cli"
	"github.com/strata-app/strata/host"
)

// gui, in the binary that `wails build` / `wails dev` compile with the bindings tag (and without
// desktop) and run once, writes the JavaScript bindings to frontend/wailsjs. Wails only reflects
// over the bound values here, so no engine is opened, no data folder is touched and no display
// is needed. Keep OnStartup and Bind in step with windowOptions in main_desktop.go.
var gui cli.GUIFunc = func(context.Context, host.Options) error {
	a := app.New(nil, app.Options{})
	// OnStartup is set as in the desktop build so Wails leaves Startup out of the bindings.
	return wails.Run(&options.App{Title: "Strata", OnStartup: a.Startup, Bind: []interface{}{a}})
}
