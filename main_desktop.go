//go:build desktop

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"runtime"
	"sync"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/cli"
	"github.com/strata-app/strata/host"
)

// gui opens the desktop window: `strata` with no command runs it in desktop builds.
var gui cli.GUIFunc = runDesktop

// runDesktop runs the runtime that `strata serve` runs (engine loop, MCP over loopback HTTP,
// the UI for browsers too), with the options the command line chose, and shows the window
// until it is closed or ctx ends (Ctrl-C); host.Run then stops and awaits everything.
func runDesktop(ctx context.Context, opts host.Options) error {
	if !hasDisplay() {
		// Without this check GTK aborts the process with a C-level message; say what to do instead.
		return errs.New(errs.NoDisplay, "no graphical display found (neither DISPLAY nor WAYLAND_DISPLAY is set)").
			WithHint("run `strata serve` and open the address it prints in a browser, or use the commands in `strata --help`")
	}
	// WebKit names its storage folders after the program; "strata" would put them inside the
	// default data folder (~/.local/share/strata).
	setProgramName("strata-webview")
	plat := &desktop{}
	opts.Platform = plat
	return host.Run(ctx, opts, func(ctx context.Context, rt *host.Runtime) error {
		// Ctrl-C in the terminal closes the window as the close button would.
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-ctx.Done():
				if c := plat.context(); c != nil {
					wruntime.Quit(c)
				}
			case <-done:
			}
		}()
		defer wg.Wait()
		defer close(done)
		return wails.Run(windowOptions(rt, plat, opts.UI))
	})
}

// windowOptions is the window over the runtime's App: its bindings, file drops and the
// single-instance lock per data folder.
func windowOptions(rt *host.Runtime, plat *desktop, ui fs.FS) *options.App {
	a, log := rt.App, rt.Log
	sum := sha256.Sum256([]byte(rt.Engine.DataDir()))
	return &options.App{
		Title:       "Strata",
		Width:       1200,
		Height:      800,
		MinWidth:    760,
		MinHeight:   520,
		AssetServer: &assetserver.Options{Assets: ui},
		OnStartup: func(wctx context.Context) {
			plat.set(wctx)
			a.Startup(wctx)
			// Files and folders dropped from the OS arrive here with their real paths.
			wruntime.OnFileDrop(wctx, func(_, _ int, paths []string) {
				res, err := a.IngestPaths(paths)
				if err != nil {
					log.Error("ingest dropped files", "err", err)
					return
				}
				wruntime.EventsEmit(wctx, "dropped", res)
			})
		},
		OnShutdown:  a.Shutdown,
		Bind:        a.Bindings(),
		EnumBind:    app.Enums(),
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		// One window per data folder: a second launch raises the first (needs a D-Bus session).
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId: "strata-" + hex.EncodeToString(sum[:8]),
			OnSecondInstanceLaunch: func(options.SecondInstanceData) {
				if c := plat.context(); c != nil {
					wruntime.WindowUnminimise(c)
					wruntime.WindowShow(c)
				}
			},
		},
		Linux: &linux.Options{Icon: appIcon, ProgramName: "strata-webview", WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
	}
}

// desktop is app.Platform over the Wails runtime.
type desktop struct {
	mu  sync.Mutex
	ctx context.Context
}

func (d *desktop) set(c context.Context) { d.mu.Lock(); d.ctx = c; d.mu.Unlock() }

func (d *desktop) context() context.Context { d.mu.Lock(); defer d.mu.Unlock(); return d.ctx }

func (d *desktop) PickFiles(context.Context) ([]string, error) {
	return wruntime.OpenMultipleFilesDialog(d.context(), wruntime.OpenDialogOptions{Title: "Add documents to Strata"})
}

func (d *desktop) PickFolder(context.Context) (string, error) {
	return wruntime.OpenDirectoryDialog(d.context(), wruntime.OpenDialogOptions{Title: "Watch a folder", CanCreateDirectories: false})
}

// OpenPath hands a file to the OS (BrowserOpenURL refuses file:// URLs) and reports the
// opener's failure (runOpener), which the UI shows.
func (d *desktop) OpenPath(ctx context.Context, path string) error {
	opener := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		opener = "open"
	case "windows":
		// explorer exits 1 even when it opened the file; rundll32's handler exits 0 or fails.
		return runOpener(ctx, openerWait, "rundll32", "url.dll,FileProtocolHandler", path)
	}
	return runOpener(ctx, openerWait, opener, path)
}

func (d *desktop) Emit(_ context.Context, event string, data any) {
	if c := d.context(); c != nil {
		wruntime.EventsEmit(c, event, data)
	}
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
