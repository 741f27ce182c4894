// Command strata is the Strata app: with no arguments it opens the desktop window (in builds
// made with the desktop tag); with a subcommand it runs headless (see `strata --help`).
package main

import (
	"context"
	"embed"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"github.com/strata-app/strata/cli"
)

// assets is the built frontend (frontend/dist), embedded so the binary is self-contained.
//
//go:embed all:frontend/dist
var assets embed.FS

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	ui, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		panic(err) // the embed directive guarantees the folder
	}
	code := cli.Main(ctx, os.Args[1:], cli.Stdio(), gui, ui)
	stop()
	os.Exit(code)
}
