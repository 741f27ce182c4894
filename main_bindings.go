//go:build bindings && !desktop

package main

import (
	"context"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/cli"
	"github.com/strata-app/strata/host"
)

// gui, in the binary that `wails build` / `wails dev` compile with the bindings tag (and without
// desktop) and run once, writes the JavaScript bindings to frontend/wailsjs. Wails only reflects
// over the bound values here, so no engine is opened, no data folder is touched and no display
// is needed. Bind comes from the same Host.Bindings as the desktop window (main_desktop.go), and
// the bound App has only the UI's methods (app.Methods), so no lifecycle method needs leaving out.
var gui cli.GUIFunc = func(context.Context, host.Options) error {
	return wails.Run(&options.App{Title: "Strata", Bind: append(app.New(nil, app.Options{}).Bindings(), &modelTypes{}),
		EnumBind: app.Enums()})
}

// modelTypes names, as method results, the types the UI reads that Wails does not reach by
// itself: it follows a bound method's results and their fields, but not the fields of an
// embedded struct, so app.DocumentView (which embeds engine.DocumentDetail) and
// engine.SearchResponse (which embeds search.Response) would leave store.Chunk, store.Job and
// search.Result referenced in models.ts and never declared. It is bound only in this
// generator binary; the window has no such object and the UI never calls it.
type modelTypes struct{}

// DocumentDetail brings store.Chunk and store.Job.
func (*modelTypes) DocumentDetail() engine.DocumentDetail { return engine.DocumentDetail{} }

// SearchResult brings search.Result.
func (*modelTypes) SearchResult() engine.SearchResult { return engine.SearchResult{} }
