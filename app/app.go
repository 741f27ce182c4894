// Package app is the App service the desktop frontend calls, in the Wails window (bindings) and
// in a browser (HTTP, see Handler): the same methods either way, no second API.
//
// It is a transport and holds no logic of its own (DESIGN.md invariant 2): every method
// delegates to the engine. What only a desktop can do (native dialogs, opening a file in the OS,
// pushing events to the window) goes through Platform, which the desktop build supplies; the
// package itself does not import the Wails runtime and builds without tags.
package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/mcpconfig"
)

// Engine is what App needs from the engine, declared by its consumer; *engine.Engine has it.
type Engine interface {
	Status(ctx context.Context) (*engine.Status, error)
	Overview(ctx context.Context) (*engine.Overview, error)
	Import(ctx context.Context, who engine.Caller, paths []string) (*engine.Import, error)
	Ingest(ctx context.Context, who engine.Caller, kind string, data json.RawMessage) (*engine.IngestResult, error)
	QueryDocuments(ctx context.Context, q engine.DocumentQuery) (*engine.DocumentPage, error)
	DocumentView(ctx context.Context, id string) (*engine.DocumentView, error)
	StoreUpload(ctx context.Context, who engine.Caller, name string, data []byte) (*engine.Import, error)
	Retry(ctx context.Context, who engine.Caller, id string) (*engine.IngestResult, error)
	Search(ctx context.Context, r engine.SearchRequest) (*engine.SearchResponse, error)
	GetEntity(ctx context.Context, id, at string) (*engine.Snapshot, error)
	ListObservations(ctx context.Context, id string, limit, offset int) (*engine.ObservationPage, error)
	FieldProvenance(ctx context.Context, id, field string) (*engine.FieldProvenance, error)
	ListEntities(ctx context.Context, typ, query string, limit, offset int) (*engine.EntityPage, error)
	ListRelationships(ctx context.Context, q engine.RelationshipQuery) (*engine.RelationshipPage, error)
	Suggestions(ctx context.Context, state string, limit, offset int) (*engine.SuggestionPage, error)
	DecideSuggestion(ctx context.Context, id string, accept bool, typ, by string) (*engine.SuggestionDecision, error)
	EnrichStatus(ctx context.Context) (*engine.EnrichStatus, error)
	CreateRelationship(ctx context.Context, typ, source, target string, metadata json.RawMessage) (*engine.RelationshipResult, error)
	Ask(ctx context.Context, r engine.AskRequest) (*engine.AskResponse, error)
	Lint(ctx context.Context, r engine.LintRequest) (*engine.LintReport, error)
	WatchRoots(ctx context.Context) ([]string, error)
	AddWatchRoot(ctx context.Context, who engine.Caller, dir string) (*engine.Import, error)
	RemoveWatchRoot(ctx context.Context, dir string) (bool, error)
	KeepRunning(ctx context.Context) (bool, error)
	SetKeepRunning(ctx context.Context, on bool) error
	DataDir() string
}

var _ Engine = (*engine.Engine)(nil)

// Platform is what only the desktop can do. In a browser these are unavailable and the UI
// offers uploads and typed paths instead.
type Platform interface {
	PickFiles(ctx context.Context) ([]string, error)
	PickFolder(ctx context.Context) (string, error)
	OpenPath(ctx context.Context, path string) error
	Emit(ctx context.Context, event string, data any)
	// Quit stops the app for good (the window's Quit, not its close button, which may only
	// hide it).
	Quit(ctx context.Context)
}

// LoginItem is the "start Strata when I log in" entry, declared by its consumer; host adapts
// internal/autostart to it for the desktop app, for this program and data folder.
type LoginItem interface {
	State() (Autostart, error)
	Set(on bool) (Autostart, error)
}

// Autostart is the login item as the settings screen shows it: read back from the file or the
// registry, so the switch says what is really there.
type Autostart struct {
	Enabled bool `json:"enabled"`
	// Current: it starts this program on this data folder (not an older copy or another folder).
	Current  bool   `json:"current"`
	Location string `json:"location"` // the file, or the registry value
	Command  string `json:"command"`  // what it runs, as written there
}

// Options configures an App.
type Options struct {
	Platform Platform     // nil in browser mode
	MCPURL   string       // the running MCP HTTP endpoint ("" when not running)
	Token    string       // its bearer token
	Logs     *LogBuffer   // recent log lines for the settings screen; nil: none
	Logger   *slog.Logger // nil discards
	// Client describes this Strata for an AI client's MCP configuration (host.ClientServer,
	// shared with `strata mcp config`); nil: the "Add to …" buttons answer an error.
	Client func(useHTTP bool) (mcpconfig.Server, error)
	// Getenv is the process environment (os.Getenv, passed in by the entry point), read only
	// to find AI clients' config files; nil is an empty environment.
	Getenv func(string) string
	// LoginItem starts Strata at login; nil (browser mode): the settings screen has no switch.
	LoginItem LoginItem
}

// user is who the UI acts for: the person at this machine, in the window or in the browser page
// that holds the token `strata serve` printed (httpapi checks it before a call gets here).
var user = engine.LocalUser("app")

// App is the service the frontend calls: Wails binds it as window.go.app.App, and Handler serves
// it at POST /api/<Method>. Its exported methods are exactly the UI's calls, and Methods lists
// them (a test holds the two equal), so adding an exported method is adding a UI call on purpose
// and nothing else reaches the browser. What runs the App (Startup, Shutdown, SetMCP, Handler)
// lives on Host, outside the bound method set.
type App struct {
	eng  Engine
	opts Options

	mu     sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	hidden atomic.Bool // the window is closed to the background: no status events
}

// Host runs an App: it owns its lifetime and its transports. It embeds the App so the process
// that built it can call UI methods directly (a file dropped on the window), but only the App
// itself is bound or served.
type Host struct {
	*App
}

// New returns a Host whose App delegates to e. The caller owns e and closes it after Shutdown.
func New(e Engine, opts Options) *Host {
	return &Host{App: &App{eng: e, opts: opts, ctx: context.Background()}}
}

// Bindings is what the desktop window binds (options.App.Bind): the App alone, whose method set
// is Methods. The HTTP handler serves the same list.
func (h *Host) Bindings() []interface{} { return []interface{}{h.App} }

// Enums are the Go enumerations the UI's types come from (Wails EnumBind, in the window and
// in the bindings generator alike): document statuses, phase states, progress rate states and
// the library's orders.
func Enums() []interface{} {
	return []interface{}{engine.DocumentStatusEnum, engine.DocumentPhaseEnum, engine.RateStateEnum, engine.DocumentSortEnum}
}

// SetMCP records the MCP endpoint once its server listens (the App is built before it).
func (h *Host) SetMCP(url, token string) {
	a := h.App
	a.mu.Lock()
	defer a.mu.Unlock()
	a.opts.MCPURL, a.opts.Token = url, token
}

// Startup is the Wails OnStartup hook (browser mode calls it too): it keeps the app's context
// and, when there is a window to notify, starts pushing status changes to it as "status"
// events. Shutdown stops that and waits for it.
func (h *Host) Startup(ctx context.Context) {
	a := h.App
	ctx, cancel := context.WithCancel(ctx)
	a.mu.Lock()
	a.ctx, a.cancel = ctx, cancel
	a.mu.Unlock()
	if a.opts.Platform == nil {
		return
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		t := time.NewTicker(700 * time.Millisecond)
		defer t.Stop()
		var last []byte
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if a.hidden.Load() {
				last = nil // the window shown again gets the status at the next tick
				continue
			}
			st, err := a.eng.Status(ctx)
			if err != nil {
				continue // the next tick tries again; a closed store ends with ctx
			}
			b, _ := json.Marshal(st)
			if string(b) != string(last) {
				last = b
				a.opts.Platform.Emit(ctx, "status", st)
			}
		}
	}()
}

// SetHidden tells the App that its window went to the background (or came back): while
// hidden it computes no status for the window, which nobody sees. Idle and hidden, the app and
// its WebKit processes used 0.7 % of a core with the status events and 0.4 % without them
// (60 s, 2-core VM; `strata serve` idles at 0.2 %).
func (h *Host) SetHidden(hidden bool) { h.App.hidden.Store(hidden) }

// Shutdown is the Wails OnShutdown hook: it stops the status events and waits for them.
func (h *Host) Shutdown(context.Context) {
	a := h.App
	a.mu.Lock()
	cancel := a.cancel
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	a.wg.Wait()
}

func (a *App) c() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// Status reports what the store holds and how it is set up, the same as `strata status`.
func (a *App) Status() (*engine.Status, error) { return a.eng.Status(a.c()) }

// Overview counts documents by type, status and day for the library's chart.
func (a *App) Overview() (*engine.Overview, error) { return a.eng.Overview(a.c()) }

// IngestPaths ingests files and folders (dropped on the window or picked in a dialog): each
// file's result and the import's summary, which Status.Imports then follows.
func (a *App) IngestPaths(paths []string) (*engine.Import, error) {
	return a.eng.Import(a.c(), user, paths)
}

// IngestText stores a note.
func (a *App) IngestText(title, text string) (*engine.IngestResult, error) {
	data, _ := json.Marshal(map[string]any{"title": title, "text": text}) // strings always marshal
	return a.eng.Ingest(a.c(), user, "content", data)
}

// maxUpload bounds one browser upload (the HTTP handler limits request bodies by it).
const maxUpload = engine.MaxUpload

// Upload stores a file sent by a browser in the data folder's uploads/ and ingests it there
// (engine.StoreUpload: atomically, under a name that cannot leave the folder).
func (a *App) Upload(name, contentBase64 string) (*engine.Import, error) {
	if base64.StdEncoding.DecodedLen(len(contentBase64)) > maxUpload+3 {
		return nil, errs.New(errs.FileTooLarge, "%s is larger than %d MB", name, engine.MaxUpload>>20).WithHint("watch its folder instead, or use `strata ingest PATH`")
	}
	data, err := base64.StdEncoding.DecodeString(contentBase64)
	if err != nil {
		return nil, errs.New(errs.Validation, "the upload is not base64").With("field", "content")
	}
	return a.eng.StoreUpload(a.c(), user, name, data)
}

// Documents lists documents by status, folder and type.
func (a *App) Documents(q engine.DocumentQuery) (*engine.DocumentPage, error) {
	return a.eng.QueryDocuments(a.c(), q)
}

// DocumentView is a document with its chunks, jobs and the observations made from it.
type DocumentView = engine.DocumentView

// Document returns one document for the document screen.
func (a *App) Document(id string) (*DocumentView, error) { return a.eng.DocumentView(a.c(), id) }

// Retry re-reads a failed document.
func (a *App) Retry(id string) (*engine.IngestResult, error) { return a.eng.Retry(a.c(), user, id) }

// Search runs a search as `strata search --json` does.
func (a *App) Search(r engine.SearchRequest) (*engine.SearchResponse, error) {
	res, err := a.eng.Search(a.c(), r)
	if err == nil && a.opts.Logger != nil {
		a.opts.Logger.Debug("search", "query", r.Query, "mode", res.Mode, "results", len(res.Results), "took_ms", res.TookMS)
	}
	return res, err
}

// Entity returns an entity's snapshot, at a time when at is set.
func (a *App) Entity(id, at string) (*engine.Snapshot, error) { return a.eng.GetEntity(a.c(), id, at) }

// Observations pages through an entity's observations.
func (a *App) Observations(id string, limit, offset int) (*engine.ObservationPage, error) {
	if err := engine.CheckLimit(limit); err != nil { // positional: always given (engine/limit.go)
		return nil, err
	}
	return a.eng.ListObservations(a.c(), id, limit, offset)
}

// Provenance says where a field's value came from.
func (a *App) Provenance(id, field string) (*engine.FieldProvenance, error) {
	return a.eng.FieldProvenance(a.c(), id, field)
}

// Entities finds entities by type and name.
func (a *App) Entities(typ, query string, limit, offset int) (*engine.EntityPage, error) {
	if err := engine.CheckLimit(limit); err != nil { // positional: always given (engine/limit.go)
		return nil, err
	}
	return a.eng.ListEntities(a.c(), typ, query, limit, offset)
}

// Relationships lists an entity's links, asserted ones first and then derived ones (each marked
// derived, with its enrichment, score and evidence), both ends named.
func (a *App) Relationships(id string) (*engine.RelationshipPage, error) {
	return a.eng.ListRelationships(a.c(), engine.RelationshipQuery{EntityID: id, Limit: 200})
}

// QueryRelationships pages through an entity's links with the filters of `relationships list`
// (direction, type, derived or asserted only, one enrichment, a least score).
func (a *App) QueryRelationships(q engine.RelationshipQuery) (*engine.RelationshipPage, error) {
	return a.eng.ListRelationships(a.c(), q)
}

// Suggestions lists DiscoveryGap's suggestions in a state: open ("" too), accepted, dismissed
// or all; strongest first, both ends named, with their evidence.
func (a *App) Suggestions(state string) (*engine.SuggestionPage, error) {
	return a.eng.Suggestions(a.c(), state, 500, 0)
}

// AcceptSuggestion asserts the suggested link (RELATED_TO) and remembers the decision.
func (a *App) AcceptSuggestion(id string) (*engine.SuggestionDecision, error) {
	return a.eng.DecideSuggestion(a.c(), id, true, "", user.Via())
}

// DismissSuggestion remembers that the pair is not related: it is not suggested again.
func (a *App) DismissSuggestion(id string) (*engine.SuggestionDecision, error) {
	return a.eng.DecideSuggestion(a.c(), id, false, "", user.Via())
}

// EnrichStatus is each enrichment's state and the shared backlog (also in Status).
func (a *App) EnrichStatus() (*engine.EnrichStatus, error) { return a.eng.EnrichStatus(a.c()) }

// CreateRelationship asserts a link between two entities (a lint finding's fix: the missing
// REFERS_TO, or one source marked as correcting or superseding another).
func (a *App) CreateRelationship(typ, source, target string) (*engine.RelationshipResult, error) {
	return a.eng.CreateRelationship(a.c(), typ, source, target, nil)
}

// Ask answers a question from the store with cited passages (the Ask box). Each answer is
// logged at debug level, as searches are (the Xvfb test reads it).
func (a *App) Ask(r engine.AskRequest) (*engine.AskResponse, error) {
	res, err := a.eng.Ask(a.c(), r)
	if err == nil && a.opts.Logger != nil {
		a.opts.Logger.Debug("ask", "question", r.Question, "mode", res.Mode, "citations", len(res.Citations), "persist", r.Persist)
	}
	return res, err
}

// Lint is the store's health check (the Health screen): findings by kind with their evidence.
func (a *App) Lint(r engine.LintRequest) (*engine.LintReport, error) {
	res, err := a.eng.Lint(a.c(), r)
	if err == nil && a.opts.Logger != nil {
		a.opts.Logger.Debug("lint", "kind", r.Kind, "total", res.Total, "findings", len(res.Findings), "publish", r.Publish)
	}
	return res, err
}

// WatchedFolders lists the watched folders.
func (a *App) WatchedFolders() ([]string, error) { return a.eng.WatchRoots(a.c()) }

// AddWatchedFolder starts watching a folder.
func (a *App) AddWatchedFolder(dir string) (*engine.Import, error) {
	return a.eng.AddWatchRoot(a.c(), user, dir)
}

// RemoveWatchedFolder stops watching a folder; its documents stay.
func (a *App) RemoveWatchedFolder(dir string) (bool, error) { return a.eng.RemoveWatchRoot(a.c(), dir) }

// ErrorCode is what the UI needs to know about one error code: whether trying again can help
// (it offers Retry only then) and what the code means.
type ErrorCode struct {
	Code      string `json:"code"`
	Retryable bool   `json:"retryable"`
	Meaning   string `json:"meaning"`
	Hint      string `json:"hint"`
}

// ErrorCodes lists every error code from the registry (backend/errs), sorted by name, so the UI
// decides "Retry or not" from the same table the job runner uses instead of a copied list.
func (a *App) ErrorCodes() []ErrorCode {
	all := errs.All()
	out := make([]ErrorCode, len(all))
	for i, c := range all {
		out[i] = ErrorCode{Code: c.Name, Retryable: c.Retryable, Meaning: c.Meaning, Hint: c.Hint}
	}
	return out
}

// Settings is what the settings screen shows besides the status.
type Settings struct {
	DataDir  string   `json:"data_dir"`
	MCPURL   string   `json:"mcp_url"`
	Token    string   `json:"token"`
	Desktop  bool     `json:"desktop"` // native dialogs and file opening are available
	Clients  []string `json:"clients"`
	LogLines []string `json:"log_lines"`
	// KeepRunning: closing the window leaves Strata running in the background (desktop).
	KeepRunning bool `json:"keep_running"`
	// Autostart is the login item; nil where there is none to offer (browser mode).
	Autostart *Autostart `json:"autostart,omitempty"`
	// AutostartError says why the login item could not be read ("" when it could).
	AutostartError string `json:"autostart_error,omitempty"`
}

// Settings reports the data folder, the MCP endpoint and token, the background and login
// settings, and recent log lines.
func (a *App) Settings() (*Settings, error) {
	a.mu.Lock()
	url, tok := a.opts.MCPURL, a.opts.Token
	a.mu.Unlock()
	keep, err := a.eng.KeepRunning(a.c())
	if err != nil {
		return nil, err
	}
	s := &Settings{DataDir: a.eng.DataDir(), MCPURL: url, Token: tok, Desktop: a.opts.Platform != nil,
		Clients: mcpconfig.Clients, LogLines: []string{}, KeepRunning: keep}
	if a.opts.Logs != nil {
		s.LogLines = a.opts.Logs.Lines()
	}
	if a.opts.LoginItem != nil {
		st, err := a.opts.LoginItem.State()
		s.Autostart = &st
		if err != nil {
			s.AutostartError = errs.As(err).Message
		}
	}
	return s, nil
}

// SetKeepRunning chooses what closing the window does: hide it and keep serving (on, the
// default) or quit. It is the data folder's setting, read at each close.
func (a *App) SetKeepRunning(on bool) error {
	if a.opts.Platform == nil {
		return errNoDesktop("running in the background")
	}
	if err := a.eng.SetKeepRunning(a.c(), on); err != nil {
		return err
	}
	if a.opts.Logger != nil {
		a.opts.Logger.Info("keep running in the background when the window is closed", "on", on)
	}
	return nil
}

// SetAutostart writes (on) or removes the login item that starts Strata in the background,
// and answers what is there afterwards.
func (a *App) SetAutostart(on bool) (*Autostart, error) {
	if a.opts.LoginItem == nil {
		return nil, errNoDesktop("starting Strata at login")
	}
	st, err := a.opts.LoginItem.Set(on)
	if err != nil {
		return nil, err
	}
	if a.opts.Logger != nil {
		a.opts.Logger.Info("start at login", "on", on, "enabled", st.Enabled, "location", st.Location)
	}
	return &st, nil
}

// Quit stops Strata: the window, the watchers, the jobs and the MCP endpoint (the menu's Quit
// does the same).
func (a *App) Quit() error {
	if a.opts.Platform == nil {
		return errs.New(errs.DesktopOnly, "quitting is only available in the desktop app").WithHint("stop `strata serve` with Ctrl-C in its terminal")
	}
	a.opts.Platform.Quit(a.c())
	return nil
}

// ClientSnippet is the configuration text for an AI client (stdio, or HTTP when useHTTP).
func (a *App) ClientSnippet(client string, useHTTP bool) (string, error) {
	s, err := a.server(useHTTP)
	if err != nil {
		return "", err
	}
	out, err := mcpconfig.Snippet(client, s)
	if err != nil {
		return "", errs.Wrap(errs.Validation, err, "unknown MCP client %q", client).With("field", "client")
	}
	return out, nil
}

// InstallResult says where Strata was added and where the previous file was kept.
type InstallResult struct {
	Path   string `json:"path"`
	Backup string `json:"backup,omitempty"`
}

// InstallClient adds Strata to an AI client's config file, as `strata mcp config --install`.
func (a *App) InstallClient(client string) (*InstallResult, error) {
	s, err := a.server(false)
	if err != nil {
		return nil, err
	}
	getenv := a.opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	path, err := mcpconfig.ConfigPath(client, getenv)
	if err != nil {
		return nil, errs.Wrap(errs.Validation, err, "unknown MCP client %q", client).With("field", "client")
	}
	backup, err := mcpconfig.Install(client, path, s, time.Now())
	if err != nil {
		return nil, errs.Wrap(errs.Validation, err, "could not add Strata to %s", path).With("path", path).WithHint("copy the snippet into the file by hand instead")
	}
	return &InstallResult{Path: path, Backup: backup}, nil
}

func (a *App) server(useHTTP bool) (mcpconfig.Server, error) {
	a.mu.Lock()
	url := a.opts.MCPURL
	a.mu.Unlock()
	if useHTTP && url == "" {
		return mcpconfig.Server{}, errs.New(errs.MCPNotRunning, "the MCP HTTP endpoint is not running").WithHint("use the stdio configuration, or start `strata serve`")
	}
	if a.opts.Client == nil {
		return mcpconfig.Server{}, errs.New(errs.Internal, "this window cannot describe Strata to AI clients").WithHint("use `strata mcp config --client NAME`")
	}
	return a.opts.Client(useHTTP)
}

// errNoDesktop: a desktop-only call made from a browser.
func errNoDesktop(what string) error {
	return errs.New(errs.DesktopOnly, "%s is only available in the desktop app", what).WithHint("in a browser, upload files or type a folder path")
}

// PickFiles opens the native file dialog and ingests what is chosen.
func (a *App) PickFiles() (*engine.Import, error) {
	if a.opts.Platform == nil {
		return nil, errNoDesktop("choosing files")
	}
	paths, err := a.opts.Platform.PickFiles(a.c())
	if err != nil || len(paths) == 0 {
		return nil, err
	}
	return a.eng.Import(a.c(), user, paths)
}

// PickFolder opens the native folder dialog and returns the chosen folder ("" if cancelled).
func (a *App) PickFolder() (string, error) {
	if a.opts.Platform == nil {
		return "", errNoDesktop("choosing a folder")
	}
	return a.opts.Platform.PickFolder(a.c())
}

// OpenPath opens a file with the OS's default application.
func (a *App) OpenPath(path string) error {
	if a.opts.Platform == nil {
		return errNoDesktop("opening files")
	}
	if _, err := os.Stat(path); err != nil {
		return errs.New(errs.FileNotFound, "%s cannot be opened: it no longer exists", path).With("path", path)
	}
	return a.opts.Platform.OpenPath(a.c(), path)
}
