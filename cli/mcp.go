package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/mcpconfig"
	"github.com/strata-app/strata/host"
)

func mcpCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the store to an AI client over stdio (what Claude Desktop, Cursor and Codex launch)",
		Long: `Serve the store over MCP on stdin/stdout: only JSON-RPC goes to stdout; logs go to stderr
and to logs/mcp.log in the data folder. It answers initialize at once; the embedder probe and
the vector index are prepared in the background. While it runs it also processes queued jobs
and watches the watched folders, like strata serve.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			return g.serveStdio(c.Context(), g.io.In, g.io.Out)
		},
	}
	cmd.AddCommand(mcpConfigCmd(g), mcpRootsCmd(g))
	return cmd
}

// mcpLogger writes to stderr and to the data folder's logs/mcp.log (never stdout).
func (g *globals) mcpLogger(dir string) (*slog.Logger, func(), error) {
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o700); err != nil {
		return nil, nil, errs.Wrap(errs.Internal, err, "cannot create %s", filepath.Join(dir, "logs"))
	}
	f, err := os.OpenFile(filepath.Join(dir, "logs", "mcp.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, errs.Wrap(errs.Internal, err, "cannot open the MCP log")
	}
	level := slog.LevelInfo
	if g.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(io.MultiWriter(g.io.Err, f), &slog.HandlerOptions{Level: level})).With("pid", os.Getpid())
	return log, func() { f.Close() }, nil
}

// serveStdio runs `strata mcp`: the MCP server on in/out, and the engine loop beside it until
// the client closes stdin or the process is interrupted. Its logs go to stderr and
// logs/mcp.log, never to out.
func (g *globals) serveStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	cfg, err := g.config()
	if err != nil {
		return err
	}
	dir := cfg.DataDir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return errs.Wrap(errs.Internal, err, "cannot create the data folder %s", dir)
	}
	log, closeLog, err := g.mcpLogger(dir)
	if err != nil {
		return err
	}
	defer closeLog()
	opts, err := g.runtimeOptions(log)
	if err != nil {
		return err
	}
	opts.NoHTTP = true
	if err := host.Run(ctx, opts, host.Stdio(in, out)); err != nil {
		log.Error("mcp stdio", "err", err)
		return err
	}
	return nil
}

func mcpConfigCmd(g *globals) *cobra.Command {
	var client string
	var useHTTP, install bool
	cmd := &cobra.Command{
		Use:   "config --client claude|cursor|codex [--http] [--install]",
		Short: "Print (or install) the MCP configuration for an AI client",
		Long: `Print the snippet that adds Strata to an AI client's MCP configuration. By default the
client launches "strata mcp" over stdio; with --http it connects to the loopback HTTP endpoint
that strata serve and the desktop app run (with this data folder's bearer token).
With --install the snippet is merged into the client's config file: the file is backed up
first, written atomically, and every other server in it is kept.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			if client == "" {
				return usageError{fmt.Errorf("--client is required (claude, cursor or codex)")}
			}
			s, err := g.mcpServerEntry(useHTTP)
			if err != nil {
				return err
			}
			if !install {
				out, err := mcpconfig.Snippet(client, s)
				if err != nil {
					return usageError{err}
				}
				fmt.Fprint(g.io.Out, out)
				return nil
			}
			path, err := mcpconfig.ConfigPath(client, g.io.Getenv)
			if err != nil {
				return usageError{err}
			}
			backup, err := mcpconfig.Install(client, path, s, time.Now())
			if err != nil {
				return errs.Wrap(errs.Validation, err, "could not add Strata to %s", path).With("path", path)
			}
			if g.json {
				return json.NewEncoder(g.io.Out).Encode(map[string]any{"installed": path, "backup": backup})
			}
			fmt.Fprintf(g.io.Out, "Strata added to %s\n", path)
			if backup != "" {
				fmt.Fprintf(g.io.Out, "previous file kept as %s\n", backup)
			}
			fmt.Fprintln(g.io.Out, "Restart the client to load it.")
			return nil
		},
	}
	cmd.Flags().StringVar(&client, "client", "", "claude, cursor or codex")
	cmd.Flags().BoolVar(&useHTTP, "http", false, "connect over loopback HTTP (needs strata serve or the desktop app running)")
	cmd.Flags().BoolVar(&install, "install", false, "merge into the client's config file (backup first)")
	return cmd
}

// mcpServerEntry describes this Strata for a client, as the app's "Add to …" buttons do.
func (g *globals) mcpServerEntry(useHTTP bool) (mcpconfig.Server, error) {
	dir, err := g.dataDir()
	if err != nil {
		return mcpconfig.Server{}, err
	}
	return host.ClientServer(dir, useHTTP)
}

func mcpRootsCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "roots [add|remove DIR]",
		Short: "List, add or remove folders MCP clients may ingest files from (besides watched folders)",
		Args:  cobra.MaximumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 || len(args) == 2 && args[0] != "add" && args[0] != "remove" {
				return usageError{fmt.Errorf("use `strata mcp roots`, `strata mcp roots add DIR` or `strata mcp roots remove DIR`")}
			}
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				if len(args) == 0 {
					return e.AllowedRoots(ctx)
				}
				return e.SetAllowedRoot(ctx, cliUser, args[1], args[0] == "remove")
			}, func(w io.Writer, v any) {
				roots := v.([]string)
				if len(roots) == 0 {
					fmt.Fprintln(w, "no allowed roots (MCP clients may read files in watched folders only)")
				}
				for _, r := range roots {
					fmt.Fprintln(w, r)
				}
			})
		},
	}
	return cmd
}
