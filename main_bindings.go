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
// is needed. Bind comes from the same Host.Bindings as the desktop window (main_desktop.go), and
// the bound App has only the UI's methods (app.Methods), so no lifecycle method needs leaving out.
var gui cli.GUIFunc = func(context.Context, host.Options) error {
	return wails.Run(&options.App{Title: "Strata", Bind: app.New(nil, app.Options{}).Bindings()})
}
