//go:build desktop

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/httpapi"
	"github.com/strata-app/strata/cli"
	"github.com/strata-app/strata/host"
)

// gui opens the desktop window: `strata` with no command runs it in desktop builds.
var gui cli.GUIFunc = runDesktop

// runDesktop runs the runtime that `strata serve` runs (engine loop, MCP over loopback HTTP,
// the UI for browsers too), with the options the command line chose, and shows the window.
// Closing the window hides it while Strata keeps running in the background (unless the data
// folder's setting says to quit); Quit in the menu or on the settings screen, or Ctrl-C in the
// terminal, stops everything: host.Run then stops and awaits it all.
//
// A launch on a data folder whose app is already running shows that app's window and exits
// (hidden, as the login item launches it, it only checks that one runs): one engine and one
// window per folder, found over the loopback endpoint first, so without a D-Bus session too.
func runDesktop(ctx context.Context, opts host.Options) error {
	if !hasDisplay() {
		// Without this check GTK aborts the process with a C-level message; say what to do instead.
		return errs.New(errs.NoDisplay, "no graphical display found (neither DISPLAY nor WAYLAND_DISPLAY is set)").
			WithHint("run `strata serve` and open the address it prints in a browser, or use the commands in `strata --help`")
	}
	if in, _ := httpapi.Reach(ctx, opts.Config.DataDir, !opts.Hidden); in != nil {
		handedOver(in, opts.Hidden)
		return nil
	}
	// WebKit names its storage folders after the program; "strata" would put them inside the
	// default data folder (~/.local/share/strata).
	setProgramName("strata-webview")
	plat := &desktop{}
	opts.Platform = plat
	opts.ShowWindow = plat.show
	return host.Run(ctx, opts, func(ctx context.Context, rt *host.Runtime) error {
		if errs.CodeOf(rt.HTTPErr) == errs.AddressInUse {
			// Two launches at once: the other one took the port first. If it is this folder's app,
			// its endpoint answers within a moment; hand over to it instead of a second window.
			for range 5 {
				if in, _ := httpapi.Reach(ctx, rt.Engine.DataDir(), !opts.Hidden); in != nil {
					handedOver(in, opts.Hidden)
					return nil
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
		plat.setRuntime(rt)
		rt.App.SetHidden(opts.Hidden && runtime.GOOS != "darwin") // see beforeClose
		// Ctrl-C in the terminal quits as the menu's Quit does.
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-ctx.Done():
				plat.Quit(ctx)
			case <-done:
			}
		}()
		defer wg.Wait()
		defer close(done)
		return wails.Run(windowOptions(rt, plat, opts))
	})
}

// handedOver says that the running app took this launch.
func handedOver(in *httpapi.Instance, hidden bool) {
	if hidden {
		fmt.Fprintf(os.Stderr, "strata: already running in the background on %s (pid %d); nothing to do\n", in.DataDir, in.PID)
		return
	}
	if !in.Shown {
		fmt.Fprintf(os.Stderr, "strata: already running on %s (pid %d); it could not show its window\n", in.DataDir, in.PID)
		return
	}
	fmt.Fprintf(os.Stderr, "strata: already running on %s (pid %d); its window is shown\n", in.DataDir, in.PID)
}

// windowTitle is the window's title (xdotool and GTK find the window by it).
const windowTitle = "Strata"

// windowOptions is the window over the runtime's App: its bindings, file drops, the menu, what
// closing does, and the single-instance lock per data folder.
func windowOptions(rt *host.Runtime, plat *desktop, opts host.Options) *options.App {
	a, log := rt.App, rt.Log
	sum := sha256.Sum256([]byte(rt.Engine.DataDir()))
	return &options.App{
		Title:     windowTitle,
		Width:     1200,
		Height:    800,
		MinWidth:  760,
		MinHeight: 520,
		// On macOS a window that never showed is not brought back by the Dock icon; there the app
		// starts shown and hides itself at once (OnStartup), which the Dock icon undoes.
		StartHidden: opts.Hidden && runtime.GOOS != "darwin",
		AssetServer: &assetserver.Options{Assets: opts.UI},
		Menu:        appMenu(plat),
		OnStartup: func(wctx context.Context) {
			plat.set(wctx)
			a.Startup(wctx)
			if opts.Hidden && runtime.GOOS == "darwin" {
				wruntime.Hide(wctx)
			}
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
		// Every way of closing the window arrives here (Wails' HideWindowOnClose is fixed at
		// start and bypasses this hook, so the setting could not change while Strata runs).
		OnBeforeClose: plat.beforeClose,
		OnShutdown:    a.Shutdown,
		Bind:          a.Bindings(),
		EnumBind:      app.Enums(),
		DragAndDrop:   &options.DragAndDrop{EnableFileDrop: true},
		// One window per data folder over D-Bus as well (the loopback endpoint is asked first,
		// in runDesktop): a second launch raises the first.
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               "strata-" + hex.EncodeToString(sum[:8]),
			OnSecondInstanceLaunch: func(options.SecondInstanceData) { plat.show() },
		},
		Linux: &linux.Options{Icon: appIcon, ProgramName: "strata-webview", WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
	}
}

// appMenu is the window's menu: Close Window (which, by default, leaves Strata running in the
// background) and Quit, which stops it. On macOS it replaces the standard application menu,
// whose Quit item would go through the close path; the Edit menu keeps copy and paste working
// there.
func appMenu(d *desktop) *menu.Menu {
	m := menu.NewMenu()
	s := m.AddSubmenu("Strata")
	s.AddText("Close Window", keys.CmdOrCtrl("w"), func(*menu.CallbackData) { d.close() })
	s.AddSeparator()
	s.AddText("Quit Strata", keys.CmdOrCtrl("q"), func(*menu.CallbackData) { d.Quit(context.Background()) })
	if runtime.GOOS == "darwin" {
		m.Append(menu.EditMenu())
	}
	return m
}

// desktop is app.Platform over the Wails runtime, and the window's lifecycle: what closing
// does, Quit, showing it again.
type desktop struct {
	mu       sync.Mutex
	ctx      context.Context
	rt       *host.Runtime
	quitting bool // Quit was asked: closing must not hide the window
	notified bool // the first hide has been announced
	showing  bool // a second launch asked for the window before it existed
}

// set keeps the window's context (Wails' OnStartup); a Quit asked before it existed (Ctrl-C
// during start-up) is carried out now, and so is a second launch's request to show the window
// (a launch at login starts hidden; the person who opened Strata meanwhile wants to see it).
func (d *desktop) set(c context.Context) {
	d.mu.Lock()
	d.ctx = c
	q, show := d.quitting, d.showing
	d.showing = false
	d.mu.Unlock()
	if q {
		wruntime.Quit(c)
	} else if show {
		d.show()
	}
}

func (d *desktop) setRuntime(rt *host.Runtime) { d.mu.Lock(); d.rt = rt; d.mu.Unlock() }

func (d *desktop) context() context.Context { d.mu.Lock(); defer d.mu.Unlock(); return d.ctx }

// Quit stops Strata for good: the menu's Quit, the settings screen's, Ctrl-C in the terminal.
func (d *desktop) Quit(context.Context) {
	d.mu.Lock()
	d.quitting = true
	c := d.ctx
	d.mu.Unlock()
	if c != nil {
		wruntime.Quit(c) // → beforeClose, which lets it through
	}
}

// close is the menu's Close Window: what the window's close button does.
func (d *desktop) close() {
	if c := d.context(); c != nil {
		wruntime.Quit(c) // Wails' close path: → beforeClose, which hides unless told to quit
	}
}

// beforeClose is Wails' OnBeforeClose, which every close passes through (the close button,
// Alt+F4, Close Window, and Quit). Unless Quit was asked or the data folder's setting says to
// quit on close, the window hides and everything else keeps running: watchers, jobs, the MCP
// endpoint. It reads the setting at each close, so the switch works at once.
func (d *desktop) beforeClose(ctx context.Context) (prevent bool) {
	d.mu.Lock()
	quitting, rt, first := d.quitting, d.rt, !d.notified
	if !quitting && rt != nil {
		d.notified = true
	}
	d.mu.Unlock()
	if quitting || rt == nil {
		return false
	}
	keep, err := rt.Engine.KeepRunning(ctx)
	if err != nil {
		rt.Log.Warn("read the background setting; keeping Strata running", "err", err)
	} else if !keep {
		rt.Log.Info("window closed: quitting (the setting to keep running in the background is off)")
		return false
	}
	// Hide, not WindowHide: on macOS it hides the application, which the Dock icon or opening
	// Strata from Finder brings back by itself (Wails v2 does not handle the "reopen" event a
	// hidden window would need); elsewhere it hides the window.
	wruntime.Hide(ctx)
	if runtime.GOOS != "darwin" {
		// Only show() brings the window back here, and it resumes the events; on macOS AppKit
		// unhides without telling us, so the events go on.
		rt.App.SetHidden(true)
	}
	mcp := "not served over HTTP"
	if rt.HTTP != nil {
		mcp = rt.HTTP.URL()
	}
	rt.Log.Info("window closed: Strata keeps running in the background; launch it again to show the window, or choose Quit in its menu",
		"mcp", mcp)
	if first {
		notifyBackground(ctx, rt.Log)
	}
	return true
}

// show brings the window back (a second launch asked for it): out of the background or
// from under other windows.
func (d *desktop) show() bool {
	d.mu.Lock()
	c, rt := d.ctx, d.rt
	if c == nil {
		d.showing = true // the window is being made: set shows it
	}
	d.mu.Unlock()
	if c == nil {
		return true
	}
	if rt != nil {
		rt.App.SetHidden(false)
	}
	wruntime.Show(c) // the application, on macOS
	wruntime.WindowUnminimise(c)
	wruntime.WindowShow(c)
	presentWindow(windowTitle)
	return true
}

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
