// Package host is Strata's one composition root: it opens the engine, runs its background
// loop, serves MCP (over loopback HTTP, with the browser UI when assets are given, or over
// stdio) and, when the entry point's own work ends, drains and closes everything in reverse
// order. `strata serve`, `strata mcp` and the desktop window only choose Options.
//
// Before this package the same wiring lived in three places (cli serve, cli mcp, the desktop
// main) and drifted: the desktop ignored --max-file-mb and the rate-limit setting. One place
// means one set of defaults and one shutdown order.
//
// host sits above the transports (it imports app, httpapi and mcpserver), so nothing under
// backend/ may import it (arch_test.go).
package host

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"sync"

	"github.com/mark3labs/mcp-go/server"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/httpapi"
	"github.com/strata-app/strata/backend/mcpconfig"
	"github.com/strata-app/strata/backend/mcpserver"
)

// Options is everything an entry point chooses. The zero value (plus Config.DataDir) runs the
// engine loop and the MCP HTTP endpoint on httpapi.DefaultAddr without a UI.
type Options struct {
	// Config opens the engine (data folder, file size limit, embedder…), built by the CLI from
	// its flags and the environment, the same for every entry point. Config.Logger nil
	// discards; the runtime adds the UI's log buffer to it.
	Config engine.Config
	// NoRateLimits turns the MCP tools' rate limits off (STRATA_MCP_RATE_LIMITS=off, read by cli).
	NoRateLimits bool
	// NoHTTP serves no loopback HTTP endpoint (`strata serve --no-mcp`, `strata mcp`).
	NoHTTP bool
	Addr   string // loopback host:port of the HTTP endpoint; "" = httpapi.DefaultAddr
	// UI is the built frontend; when set (or Platform is), an App serves it: at / over HTTP and
	// to the desktop window.
	UI fs.FS
	// Platform is what only the desktop can do; nil in browser and headless modes.
	Platform app.Platform
	// Getenv is the process environment (os.Getenv from the entry point); the App reads it
	// only to find AI clients' config files and, with a Platform, the user's config folder for
	// the login item (HOME, XDG_CONFIG_HOME). nil is an empty environment.
	Getenv func(string) string
	// Hidden starts the desktop window hidden (`strata --hidden`, what the login item runs);
	// the runtime serves as always. Only the desktop entry point reads it.
	Hidden bool
	// ShowWindow, set by the desktop, shows its window and reports whether there was one: a
	// second launch on this data folder asks for it over the loopback endpoint
	// (httpapi.Reach), so it works without D-Bus too.
	ShowWindow func() bool
}

// Runtime is what a running entry point may use while its Main runs.
type Runtime struct {
	Engine *engine.Engine
	MCP    *server.MCPServer
	// HTTP is the loopback server; nil when NoHTTP or when the address was taken (HTTPErr says).
	HTTP    *httpapi.Server
	HTTPErr error
	// App is the UI service; nil without UI and Platform.
	App *app.Host
	Log *slog.Logger
}

// Main is an entry point's own work: it runs once everything is up and its return ends the
// runtime. ctx is cancelled when the runtime's context is.
type Main func(ctx context.Context, rt *Runtime) error

// UntilDone is the Main of `strata serve`: it returns when ctx ends (Ctrl-C).
func UntilDone(ctx context.Context, _ *Runtime) error {
	<-ctx.Done()
	return nil
}

// Stdio is the Main of `strata mcp`: MCP on in/out until the client closes in or ctx ends. Only
// JSON-RPC goes to out; the stdio server's own errors go to the runtime's logger.
func Stdio(in io.Reader, out io.Writer) Main {
	return func(ctx context.Context, rt *Runtime) error {
		ss := server.NewStdioServer(rt.MCP)
		ss.SetErrorLogger(slog.NewLogLogger(rt.Log.Handler(), slog.LevelError))
		rt.Log.Info("mcp stdio ready", "data", rt.Engine.DataDir(), "version", engine.Version)
		err := ss.Listen(ctx, in, out)
		rt.Log.Info("mcp stdio stopped")
		if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
			return errs.Wrap(errs.Internal, err, "MCP over stdio stopped")
		}
		return nil
	}
}

// Run opens the engine, starts its loop (eng.Serve) and the vector-index warm-up (eng.Warm),
// serves MCP as opts say, runs main, and then stops everything it started in reverse order,
// waiting for each goroutine. Errors of main, of the loop and of closing are joined.
//
// An HTTP address already in use is not fatal: another Strata on this data folder (the
// desktop app, `strata serve`) already serves it, which is the normal case for `strata mcp`'s
// neighbours; rt.HTTPErr carries it so the entry point can say so.
func Run(ctx context.Context, opts Options, main Main) (err error) {
	log := opts.Config.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var logs *app.LogBuffer
	if opts.UI != nil || opts.Platform != nil {
		// The settings screen shows the recent lines of this process: the engine's included.
		logs = app.NewLogBuffer(200)
		log = slog.New(logs.Handler(log.Handler(), slog.LevelInfo))
	}
	cfg := opts.Config
	cfg.Logger = log
	eng, err := engine.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, eng.Close()) }()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var loopErr error
	// Registered after eng.Close's defer, so it runs before it: the loop stops, then the store closes.
	defer func() { cancel(); wg.Wait(); err = errors.Join(err, loopErr) }()
	wg.Add(2)
	go func() {
		defer wg.Done()
		if e := eng.Serve(ctx); e != nil && ctx.Err() == nil {
			loopErr = e
			cancel() // without its loop the runtime is not doing its job: stop main too
		}
	}()
	go func() {
		defer wg.Done()
		// Warm only saves the first search its wait; a failure is worth a line, not a stop.
		if e := eng.Warm(ctx); e != nil && ctx.Err() == nil {
			log.Warn("warm the vector index", "err", e)
		}
	}()

	rt := &Runtime{Engine: eng, Log: log,
		MCP: mcpserver.New(eng, mcpserver.Options{Logger: log, NoLimits: opts.NoRateLimits})}
	if logs != nil {
		ao := app.Options{Platform: opts.Platform, Logs: logs, Logger: log, Getenv: opts.Getenv,
			Client: func(useHTTP bool) (mcpconfig.Server, error) { return ClientServer(eng.DataDir(), useHTTP) }}
		if opts.Platform != nil {
			// Only the desktop app is started at login; a browser page has no switch for it.
			// Without its own path Strata cannot be started at login; the app runs, and Settings
			// offers no switch for it (as in a browser).
			if li, err := newLoginItem(eng.DataDir(), opts.Getenv); err != nil {
				rt.Log.Warn("no login item: Strata cannot name its own program", "err", err)
			} else {
				ao.LoginItem = li
			}
		}
		rt.App = app.New(eng, ao)
		defer rt.App.Shutdown(ctx) // stops the App's status events (Wails calls it too; twice is fine)
	}
	if !opts.NoHTTP {
		hs, lerr := listen(eng, rt, opts)
		switch {
		case lerr != nil && errs.CodeOf(lerr) == errs.AddressInUse:
			rt.HTTPErr = lerr
			log.Warn("MCP over HTTP not started (another Strata may serve it)", "err", lerr)
		case lerr != nil:
			return lerr
		default:
			rt.HTTP = hs
			defer func() { err = errors.Join(err, hs.Close()) }() // before the loop stops: requests drain first
		}
	}
	if rt.App != nil && opts.Platform == nil {
		rt.App.Startup(ctx) // the desktop's App starts in Wails' OnStartup, with the window's context
	}
	return main(ctx, rt)
}

// listen starts the loopback server: MCP at /mcp, with a UI the browser UI at /, and with a
// window the answer to a second launch at /instance.
func listen(eng *engine.Engine, rt *Runtime, opts Options) (*httpapi.Server, error) {
	tok, err := httpapi.LoadOrCreateToken(eng.DataDir())
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot read or create the MCP token")
	}
	o := httpapi.Options{Addr: opts.Addr, Token: tok, Logger: rt.Log, DataDir: eng.DataDir()}
	if rt.App != nil && opts.UI != nil {
		o.UI = rt.App.Handler(opts.UI)
	}
	if show := opts.ShowWindow; show != nil {
		o.Instance = func(wantShow bool) httpapi.Instance {
			shown := wantShow && show()
			rt.Log.Info("a second launch reached this app", "show", wantShow, "shown", shown)
			return httpapi.Instance{PID: os.Getpid(), DataDir: eng.DataDir(), Shown: shown}
		}
	}
	hs, err := httpapi.Listen(rt.MCP, o)
	if err != nil {
		return nil, err
	}
	if rt.App != nil {
		rt.App.SetMCP(hs.URL(), tok)
	}
	return hs, nil
}

// executable is os.Executable, replaced in tests to check that links are resolved.
var executable = os.Executable
