// Package cli is Strata's command line: a thin transport over backend/engine. It parses flags,
// calls one engine method, and renders the answer as JSON (--json) or for a person.
//
// Exit codes: 0 success, 1 the engine refused or failed (the error envelope goes to stderr),
// 2 the command line itself was wrong.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/httpapi"
	"github.com/strata-app/strata/backend/storage"
	"github.com/strata-app/strata/host"
)

// cliUser is who every command acts for: the person at the terminal, whose paths are theirs to
// choose. (`strata mcp` serves remote clients; its tools name their own caller.)
var cliUser = engine.LocalUser("cli")

// IO is where the CLI reads and writes; tests pass buffers.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// Getenv is the environment (os.Getenv in Stdio); nil is an empty one, so a test sees only
	// the variables it passes (see ConfigFromEnv).
	Getenv func(string) string
}

// GUIFunc opens the desktop window with the runtime options the command line chose (data
// folder, file size limit, rate limits, logger, UI assets); nil when this binary has no GUI.
// It runs until the window closes or ctx ends.
type GUIFunc func(ctx context.Context, opts host.Options) error

type usageError struct{ error }

// partialFailure: the command printed its results, and some items in them failed.
type partialFailure struct{ failed, total int }

func (p partialFailure) Error() string { return fmt.Sprintf("%d of %d failed", p.failed, p.total) }

type globals struct {
	data    string
	json    bool
	verbose bool
	maxMB   int
	io      IO
	ui      fs.FS
}

// Main runs the CLI with args (without the program name) and returns the exit code.
//
// ui is the built frontend (the folder holding index.html) that `strata serve` offers to
// browsers; nil serves no UI.
func Main(ctx context.Context, args []string, stdio IO, gui GUIFunc, ui fs.FS) int {
	if stdio.Getenv == nil {
		stdio.Getenv = func(string) string { return "" }
	}
	g := &globals{io: stdio, ui: ui}
	root := newRoot(g, gui)
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var pf partialFailure
	if errors.As(err, &pf) {
		if !g.json {
			fmt.Fprintf(stdio.Err, "%d of %d file(s) failed\n", pf.failed, pf.total)
		}
		return 1
	}
	var ee *errs.Error
	if errors.As(err, &ee) {
		if g.json {
			fmt.Fprintln(stdio.Err, string(errs.EnvelopeJSON(ee)))
		} else {
			fmt.Fprintf(stdio.Err, "error: %s: %s\n", ee.Code, ee.Text())
			if ee.Hint != "" {
				fmt.Fprintf(stdio.Err, "hint: %s\n", ee.Hint)
			}
		}
		return 1
	}
	fmt.Fprintf(stdio.Err, "error: %v\nRun 'strata --help' for usage.\n", err)
	return 2
}

func newRoot(g *globals, gui GUIFunc) *cobra.Command {
	var win struct {
		hidden bool
		addr   string
	}
	root := &cobra.Command{
		Use:   "strata",
		Short: "Strata keeps your documents in one local store, searchable and served to AI tools",
		Long: `Strata reads documents into one local SQLite store — documents, chunks, entities,
observations with provenance, relationships — and serves it to people and AI tools.
Nothing leaves this machine.

Run with no command to open the desktop window (in builds that have one).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if gui == nil {
				fmt.Fprintln(g.io.Err, "This strata binary was built without the desktop window (build it with `make app`).")
				fmt.Fprintln(g.io.Err, "Run `strata serve` and open the address it prints in a browser for the same UI,")
				fmt.Fprintln(g.io.Err, "or use the commands below; `strata status` shows what the store holds.")
				fmt.Fprintln(g.io.Err)
				return cmd.Help()
			}
			opts, err := g.runtimeOptions(g.logger())
			if err != nil {
				return err
			}
			opts.UI = g.ui
			opts.Hidden, opts.Addr = win.hidden, win.addr
			return gui(cmd.Context(), opts)
		},
	}
	// The window's own flags (the root command's, not inherited): the login item starts it
	// with --hidden; --mcp-addr is `strata serve`'s, as the window serves the same endpoint.
	root.Flags().BoolVar(&win.hidden, "hidden", false, "start the window hidden, running in the background (what the login item runs); launching Strata again shows it")
	root.Flags().StringVar(&win.addr, "mcp-addr", httpapi.DefaultAddr, "loopback address of the window's MCP HTTP endpoint (port 0: any free port)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.PersistentFlags().StringVar(&g.data, "data", "", "data folder (default $STRATA_HOME, else ~/.local/share/strata)")
	root.PersistentFlags().BoolVar(&g.json, "json", false, "print machine-readable JSON; errors print the error envelope to stderr")
	root.PersistentFlags().BoolVarP(&g.verbose, "verbose", "v", false, "log to stderr")
	root.PersistentFlags().IntVar(&g.maxMB, "max-file-mb", 200, "largest file to read, in MB")
	root.AddCommand(ingestCmd(g), entityCmd(g), relCmd(g), statusCmd(g), versionCmd(g),
		documentsCmd(g), documentCmd(g), retryCmd(g), watchCmd(g), serveCmd(g), searchCmd(g), askCmd(g), lintCmd(g), mcpCmd(g), enrichCmd(g), suggestionsCmd(g))
	return root
}

func (g *globals) dataDir() (string, error) {
	if g.data != "" {
		return g.data, nil
	}
	if d := ConfigFromEnv(g.io.Getenv).DataDir; d != "" {
		return d, nil
	}
	return "", errs.New(errs.Internal, "cannot choose a data folder: neither STRATA_HOME nor HOME is set").WithHint("pass --data DIR or set STRATA_HOME")
}

// config is the engine configuration of this run: the environment's, then the flags'. The
// caller adds its logger.
func (g *globals) config() (engine.Config, error) {
	cfg := ConfigFromEnv(g.io.Getenv)
	dir, err := g.dataDir()
	if err != nil {
		return cfg, err
	}
	if g.maxMB <= 0 {
		return cfg, usageError{fmt.Errorf("--max-file-mb must be positive")}
	}
	cfg.DataDir, cfg.MaxFileBytes = dir, int64(g.maxMB)<<20
	return cfg, nil
}

// logger writes warnings (everything with -v or STRATA_LOG=debug) to stderr.
func (g *globals) logger() *slog.Logger {
	level := slog.LevelWarn
	if g.verbose || g.env().debugLog {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(g.io.Err, &slog.HandlerOptions{Level: level}))
}

// env is what the environment may change besides the engine's configuration (ConfigFromEnv).
// Read in this one place so every entry point honours the same settings: the desktop used to
// ignore the rate-limit switch.
type env struct {
	noRateLimits bool // STRATA_MCP_RATE_LIMITS=off: benchmarks and load tests
	debugLog     bool // STRATA_LOG=debug: what the Xvfb test reads; handy when reporting a bug
}

func (g *globals) env() env {
	return env{noRateLimits: rateLimitsOff(g.io.Getenv), debugLog: strings.TrimSpace(g.io.Getenv(envLog)) == "debug"}
}

// runtimeOptions are the options `strata serve`, `strata mcp` and the window share; each
// adds its own transport choices.
func (g *globals) runtimeOptions(log *slog.Logger) (host.Options, error) {
	cfg, err := g.engineConfig(log)
	if err != nil {
		return host.Options{}, err
	}
	return host.Options{Config: cfg, NoRateLimits: g.env().noRateLimits, Getenv: g.io.Getenv}, nil
}

// open opens the engine for one command; the caller closes it.
func (g *globals) open(ctx context.Context) (*engine.Engine, error) {
	cfg, err := g.engineConfig(g.logger())
	if err != nil {
		return nil, err
	}
	return engine.Open(ctx, cfg)
}

// engineConfig is the engine's configuration from the environment and the flags (config) with
// the caller's logger: the same for one-shot commands and for the runtime of serve, mcp and
// the window.
func (g *globals) engineConfig(log *slog.Logger) (engine.Config, error) {
	cfg, err := g.config()
	cfg.Logger = log
	return cfg, err
}

// run opens the engine, calls fn, closes the engine and prints fn's value with human.
func (g *globals) run(cmd *cobra.Command, fn func(ctx context.Context, e *engine.Engine) (any, error), human func(w io.Writer, v any)) error {
	ctx := cmd.Context()
	e, err := g.open(ctx)
	if err != nil {
		return err
	}
	v, err := fn(ctx, e)
	if cerr := e.Close(); err == nil && cerr != nil {
		if ee := (*errs.Error)(nil); errors.As(cerr, &ee) {
			err = ee // the engine named it (a disk fault on the last checkpoint)
		} else {
			err = errs.Wrap(errs.Internal, cerr, "could not close the data folder cleanly")
		}
	}
	if err != nil {
		return errs.As(err)
	}
	if g.json {
		enc := json.NewEncoder(g.io.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	human(g.io.Out, v)
	return nil
}

func exactArgs(n int, names string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError{fmt.Errorf("want %s, got %d argument(s)", names, len(args))}
		}
		return nil
	}
}

func ingestCmd(g *globals) *cobra.Command {
	var kind string
	var wait bool
	cmd := &cobra.Command{
		Use:   "ingest [--kind K] - | ingest [--wait] PATH...",
		Short: "Store files and folders, or one JSON object read from stdin",
		Long: `Reads one JSON object from stdin and stores it through Strata's one write path.

Shapes (detected when --kind is not given):
  {"text": "…", "title"?, "tags"?, "source"?, "agent_id"?, "file"?, "line_start"?, "line_end"?, "chain_name"?}
  {"capability_id": "strata:store_invoice:v1", "body": {…}, "provenance": {"source_refs": [], "extracted_at": "…", "extractor_version": "…"}}
  bare JSON matching a capability, e.g. {"invoice_number": "INV-1", "vendor_name": "Acme", …}

Kinds: auto, content, payload, extract-file, or a capability ID.

With paths instead of -, registers files and folders (recursively, skipping .git, node_modules,
hidden and temporary files and .strataignore patterns). --wait processes their analysis here and
returns when every phase is done, failed or skipped.`,
		Example: `  echo '{"text": "Call Acme about the Q3 invoice", "tags": ["acme"]}' | strata ingest -
  strata ingest --kind strata:store_note:v1 - < note.json
  strata ingest --wait ~/Documents/invoices report.pdf`,
		Args: func(_ *cobra.Command, args []string) error {
			for _, a := range args {
				if a == "-" && len(args) > 1 {
					return usageError{errors.New("pass either - (JSON on stdin) or paths, not both")}
				}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && args[0] != "-" {
				if kind != "" {
					return usageError{errors.New("--kind applies to JSON on stdin, not to paths")}
				}
				return ingestPaths(g, cmd, args, wait)
			}
			data, err := io.ReadAll(io.LimitReader(g.io.In, 64<<20))
			if err != nil {
				return errs.Wrap(errs.Validation, err, "cannot read stdin")
			}
			return g.run(cmd, func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.Ingest(ctx, cliUser, kind, data)
			}, func(w io.Writer, v any) {
				r := v.(*engine.IngestResult)
				fmt.Fprintln(w, r.Message)
				fmt.Fprintf(w, "payload     %s (%s)\n", r.PayloadID, r.PayloadContentID)
				fmt.Fprintf(w, "submission  %s\n", r.PayloadSubmissionID)
				if r.DocumentID != "" {
					fmt.Fprintf(w, "document    %s\n", r.DocumentID)
				}
				for _, e := range r.Entities {
					fmt.Fprintf(w, "entity      %s  %-10s %s\n", e.EntityID, e.EntityType, e.Name)
				}
				for _, id := range r.RelationshipIDs {
					fmt.Fprintf(w, "relation    %s\n", id)
				}
				if len(r.Phases) > 0 {
					fmt.Fprintf(w, "phases      register=%s analyze=%s semantic=%s\n", r.Phases["register"], r.Phases["analyze"], r.Phases["semantic"])
				}
			})
		},
	}
	cmd.Flags().StringVar(&kind, "kind", "", "input kind: auto, content, payload, extract-file or a capability ID")
	cmd.Flags().BoolVar(&wait, "wait", false, "with paths: wait until every file is read (registered, analyzed and, with a local model, semantic), failed or skipped; linking goes on in `strata serve` or the app")
	return cmd
}

func statusCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show what the store holds",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.run(cmd, func(ctx context.Context, e *engine.Engine) (any, error) { return e.Status(ctx) },
				func(w io.Writer, v any) {
					s := v.(*engine.Status)
					fmt.Fprintf(w, "Strata %s\n", s.Version)
					fmt.Fprintf(w, "data folder    %s\n", s.DataDir)
					fmt.Fprintf(w, "storage        %s\n", storageLine(s.Storage))
					if s.Storage.Error != nil {
						fmt.Fprintf(w, "               %s: %s\n               hint: %s\n", s.Storage.Error.Code, s.Storage.Error.Text(), s.Storage.Error.HintOrDefault())
					}
					fmt.Fprintf(w, "database       %s (schema %d)\n", s.Database, s.SchemaVersion)
					fmt.Fprintf(w, "payloads       %d (%d submissions)\n", s.Counts.Payloads, s.Counts.Submissions)
					fmt.Fprintf(w, "documents      %s\n", countsLine(s.Counts.Documents))
					fmt.Fprintf(w, "chunks         %d\n", s.Counts.Chunks)
					fmt.Fprintf(w, "entities       %s\n", countsLine(s.Counts.Entities))
					fmt.Fprintf(w, "observations   %d\n", s.Counts.Observations)
					fmt.Fprintf(w, "relationships  %d\n", s.Counts.Relationships)
					if em := s.Embeddings; em != nil {
						fmt.Fprintf(w, "embedder       %s/%s, %d dims (configured: %s/%s)", em.ActualProvider, em.ActualModel, em.Dimensions, em.Provider, em.Model)
						if em.IsFallbackActive {
							fmt.Fprint(w, " — fallback: keyword-heavy search")
						}
						fmt.Fprintf(w, "\nvectors        %s\n", vectorsLine(em))
						if em.FallbackReason != "" {
							fmt.Fprintf(w, "               why: %s\n               %s\n", em.FallbackReason, em.Hint)
						}
					}
					fmt.Fprintf(w, "jobs           %s\n", countsLine(s.Jobs))
					if en := s.Enrichments; en != nil {
						fmt.Fprintf(w, "enrichments    %s\n", enrichLine(en))
					}
					fmt.Fprintf(w, "background     %s\n", backgroundLine(s.Background))
					fmt.Fprintf(w, "watched        %d folder(s)\n", len(s.WatchFolders))
					for _, f := range s.WatchFolders {
						fmt.Fprintf(w, "               %s%s\n", f.Path, skippedAssets(f.SkippedAssets))
					}
					fmt.Fprintf(w, "capabilities   %s\n", strings.Join(s.Capabilities, ", "))
					label := "input kinds"
					for _, k := range s.InputKinds {
						fmt.Fprintf(w, "%-14s %s\n", label, inputKindLine(k))
						label = ""
					}
				})
		},
	}
}

// inputKindLine is one input kind as the keys it needs: what `strata ingest` and the MCP
// ingest tool accept, read off the spec registry (engine.InputKind).
func inputKindLine(k engine.InputKind) string {
	keys := func(s []string) string { return "{" + strings.Join(s, ", ") + "}" }
	var b strings.Builder
	b.WriteString(k.ID)
	switch {
	case len(k.RequiredOneOf) > 0:
		fmt.Fprintf(&b, "  {%s}", strings.Join(k.RequiredOneOf, " | "))
	case k.Kind == "semantic":
		fmt.Fprintf(&b, "  semantic: %s documents → %s", strings.Join(k.DocTypes, ", "), k.Capability)
	default:
		fmt.Fprintf(&b, "  %s", keys(k.RequiredFields))
	}
	if k.Body != nil {
		fmt.Fprintf(&b, "; body needs %s", keys(k.Body.Required))
	}
	if len(k.MatchFields) > 0 {
		fmt.Fprintf(&b, "; bare JSON with %s routes here", keys(k.MatchFields))
	}
	return b.String()
}

func countsLine(m map[string]int) string {
	if len(m) == 0 {
		return "0"
	}
	total := 0
	var parts []string
	for _, k := range sortedKeys(m) {
		total += m[k]
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
}

func versionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			if g.json {
				return json.NewEncoder(g.io.Out).Encode(map[string]string{"version": engine.Version})
			}
			fmt.Fprintf(g.io.Out, "strata %s\n", engine.Version)
			return nil
		},
	}
}

// Stdio is the process's real standard streams.
func Stdio() IO { return IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv} }

// vectorsLine says how far the configured vector space is built, in words that are true: a
// count with "building" while it is built, "all N chunks" when done, and otherwise that it is
// not being built (Ollama not answering), not "0/12775 (ready)".
func vectorsLine(em *engine.EmbeddingStatus) string {
	done, total, space := em.Reembed.Done, em.Reembed.Total, em.Provider+"/"+em.Model
	switch {
	case em.Status == "building":
		return fmt.Sprintf("%d/%d chunks in %s (building)", done, total, space)
	case done >= total:
		return fmt.Sprintf("all %d chunks in %s", total, space)
	default:
		return fmt.Sprintf("%s is not being built (%d of %d chunks have its vectors; it is built once %s answers)", space, done, total, em.Provider)
	}
}

// storageLine is the storage condition in a few words: "ok, 78.4 GB free", "full, 1.2 MB free".
func storageLine(st engine.StorageStatus) string {
	if st.FreeBytes < 0 {
		return string(st.State)
	}
	return fmt.Sprintf("%s, %s free", st.State, storage.HumanBytes(uint64(st.FreeBytes)))
}

// enrichLine is the enrichments in a few words: "4 of 5 on, 120 derived links, 3 open
// suggestions, 0 documents waiting" (`strata enrich status` has the table).
func enrichLine(s *engine.EnrichStatus) string {
	on, links, sugg := 0, 0, 0
	for _, en := range s.Enrichments {
		if en.Enabled {
			on++
		}
		links, sugg = links+en.Links, sugg+en.Suggestions
	}
	line := fmt.Sprintf("%d of %d on, %d derived link(s), %d open suggestion(s), %d document(s) waiting", on, len(s.Enrichments), links, sugg, s.Backlog)
	if s.Failed > 0 {
		line += fmt.Sprintf(", %d failed", s.Failed)
	}
	return line
}

// skippedAssets is a watched folder's note on the asset files it skips ("" for none).
// backgroundLine says which process watches, reads and links for this data folder.
func backgroundLine(b engine.Background) string {
	switch {
	case b.Here:
		return fmt.Sprintf("this process (pid %d) watches, reads and links", b.PID)
	case b.Running && b.PID > 0:
		return fmt.Sprintf("process %d watches, reads and links", b.PID)
	case b.Running:
		return "another process watches, reads and links"
	}
	return "no Strata process is running: queued files wait for strata serve or the app"
}

func skippedAssets(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("  (skipped (assets): %d: fonts, images, media, archives, minified code; a .strataignore \"!\" pattern brings a kind back)", n)
}
