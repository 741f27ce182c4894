// Package app is the Wails binding layer: the App service the desktop frontend calls.
//
// It is a transport and holds no logic of its own (DESIGN.md invariant 2): every method
// delegates to the engine, so the GUI, CLI, MCP server and HTTP API all answer from the same
// code. The package does not import the Wails runtime and builds without tags, so it is
// compiled and vetted in headless builds too.
package app

import (
	"context"

	"github.com/strata-app/strata/backend/engine"
)

// Engine is what App needs from the engine. It is declared here, on the consumer side, so App
// depends only on the methods it calls and tests can hand it a fake; *engine.Engine satisfies it.
type Engine interface {
	Status(ctx context.Context) (*engine.Status, error)
}

var _ Engine = (*engine.Engine)(nil)

// App is bound to the frontend; Wails exposes its exported methods as JavaScript functions.
type App struct {
	eng Engine
	ctx context.Context
}

// New returns an App that delegates to e. The caller owns e and closes it after the window
// has closed.
func New(e Engine) *App {
	return &App{eng: e, ctx: context.Background()}
}

// Startup is the Wails OnStartup hook. Wails calls it once the window exists, with a context
// that lives as long as the app; App keeps it so engine calls made from the frontend are tied
// to the app's lifetime (and so a later version can pass it to the Wails runtime for events).
func (a *App) Startup(ctx context.Context) {
	a.ctx = ctx
}

// Status reports what the store holds and how it is set up, the same as `strata status`.
func (a *App) Status() (*engine.Status, error) {
	return a.eng.Status(a.ctx)
}
