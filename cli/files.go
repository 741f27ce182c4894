package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/httpapi"
	"github.com/strata-app/strata/host"
)

func ingestPaths(g *globals, cmd *cobra.Command, paths []string, wait bool) error {
	var result *engine.FilesResult
	linking := 0 // documents whose enrich jobs are still queued after --wait
	err := g.run(cmd, func(ctx context.Context, e *engine.Engine) (any, error) {
		var progress func([]engine.Document)
		if wait {
			progress = newProgress(g.io.Err, !g.json && isTerminal(g.io.Err)).update
		}
		r, err := e.IngestFiles(ctx, cliUser, paths, wait, progress)
		result = r
		if err == nil && wait {
			st, serr := e.EnrichStatus(ctx)
			if serr != nil {
				return r, serr
			}
			linking = st.Backlog
		}
		return r, err
	}, func(w io.Writer, v any) {
		r := v.(*engine.FilesResult)
		tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
		fmt.Fprintln(tw, "DOCUMENT\tSTATUS\tREGISTER\tANALYZE\tSEMANTIC\tPATH")
		for _, o := range r.Documents {
			status := o.Status
			if status == "" {
				status = "registered"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", dash(o.DocumentID), status, dash(o.Phases["register"]), dash(o.Phases["analyze"]), dash(o.Phases["semantic"]), o.Path)
		}
		tw.Flush()
		for _, o := range r.Documents {
			if o.Error != nil {
				fmt.Fprintf(w, "  %s: %s: %s\n", o.Path, o.Error.Code, o.Error.Text())
				if o.Error.Hint != "" {
					fmt.Fprintf(w, "    hint: %s\n", o.Error.Hint)
				}
			}
		}
		if !wait && r.Summary.Pending > 0 {
			fmt.Fprintln(w, "Analysis runs in the background of `strata serve` (or the app); add --wait to wait for it here.")
		}
		if linking > 0 {
			// --wait waits for the files to be read; linking (the enrichments) runs after every
			// other job, and `strata status` said "64 document(s) waiting" after a wait that
			// had said nothing of it.
			fmt.Fprintf(w, "Linking %d document(s) (enrichments) goes on in the background of `strata serve` (or the app).\n", linking)
		}
		fmt.Fprintln(w, r.Summary.Text()) // the last line: what the import did, counted once (engine.ImportSummary)
	})
	if err == nil && result != nil && result.Failed > 0 {
		return partialFailure{failed: result.Failed, total: len(result.Documents)}
	}
	return err
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress draws one line per phase, rewritten in place, on a terminal.
type progress struct {
	w     io.Writer
	on    bool
	lines int
}

func newProgress(w io.Writer, on bool) *progress { return &progress{w: w, on: on} }

func (p *progress) update(docs []engine.Document) {
	if !p.on {
		return
	}
	total := len(docs)
	count := func(phase func(engine.Document) string) (done, failed int) {
		for _, d := range docs {
			switch phase(d) {
			case "done", "skipped":
				done++
			case "failed":
				failed++
			}
		}
		return
	}
	if p.lines > 0 {
		fmt.Fprintf(p.w, "\x1b[%dA", p.lines)
	}
	p.lines = 0
	for _, ph := range []struct {
		name string
		get  func(engine.Document) string
	}{
		{"register", func(d engine.Document) string { return d.PhaseRegister }},
		{"analyze ", func(d engine.Document) string { return d.PhaseAnalyze }},
		{"semantic", func(d engine.Document) string { return d.PhaseSemantic }},
	} {
		done, failed := count(ph.get)
		width := 30
		filled := 0
		if total > 0 {
			filled = (done + failed) * width / total
		}
		fmt.Fprintf(p.w, "\r\x1b[K%s [%s%s] %d/%d", ph.name, strings.Repeat("█", filled), strings.Repeat("·", width-filled), done+failed, total)
		if failed > 0 {
			fmt.Fprintf(p.w, "  (%d failed)", failed)
		}
		fmt.Fprintln(p.w)
		p.lines++
	}
}

func documentsCmd(g *globals) *cobra.Command {
	var status, prefix string
	var limit, offset int
	cmd := &cobra.Command{
		Use:   "documents [--status S] [--path PREFIX]",
		Short: "List documents with their phases",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.ListDocuments(ctx, status, prefix, limit, offset)
			}, func(w io.Writer, v any) {
				p := v.(*engine.DocumentPage)
				tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
				fmt.Fprintln(tw, "DOCUMENT\tSTATUS\tANALYZE\tSEMANTIC\tTITLE\tPATH")
				for _, d := range p.Documents {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.DocumentID, d.Status, d.PhaseAnalyze, d.PhaseSemantic, clip(d.Title, 40), d.Path)
				}
				tw.Flush()
				pageFooter(w, len(p.Documents), p.Total, p.Offset)
			})
		},
	}
	cmd.Flags().StringVar(&status, "status", "", "registered, analyzed, semantic, failed or removed")
	cmd.Flags().StringVar(&prefix, "path", "", "only documents under this path")
	pageFlags(cmd, &limit, &offset)
	return cmd
}

func documentCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "document ID",
		Short: "Show a document: metadata, phases, errors, chunks with line and page ranges",
		Args:  exactArgs(1, "ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) { return e.GetDocument(ctx, args[0]) },
				func(w io.Writer, v any) {
					d := v.(*engine.DocumentDetail)
					fmt.Fprintf(w, "%s  %s\n", d.DocumentID, d.Title)
					fmt.Fprintf(w, "path      %s\nmime      %s  (%d bytes", dash(d.Path), d.Mime, d.Size)
					if d.Pages > 0 {
						fmt.Fprintf(w, ", %d pages", d.Pages)
					}
					fmt.Fprintf(w, ")\nstatus    %s   register=%s analyze=%s semantic=%s\n", d.Status, d.PhaseRegister, d.PhaseAnalyze, d.PhaseSemantic)
					switch {
					case d.Note != "":
						fmt.Fprintf(w, "note      %s\n", d.Note) // empty, no text, same content as …
					case d.DuplicateOf != "":
						fmt.Fprintf(w, "same content as %s\n", d.DuplicateOf)
					}
					if len(d.LastError) > 0 {
						e := errs.FromEnvelope(d.LastError)
						fmt.Fprintf(w, "error     %s: %s\n", e.Code, e.Text())
						if e.Hint != "" {
							fmt.Fprintf(w, "hint      %s\n", e.Hint)
						}
					}
					fmt.Fprintf(w, "\n%d chunks\n", len(d.Chunks))
					for _, c := range d.Chunks {
						loc := fmt.Sprintf("lines %d–%d", c.LineStart, c.LineEnd)
						if c.Page > 0 {
							loc = fmt.Sprintf("page %d, ", c.Page) + loc
						}
						fmt.Fprintf(w, "  #%d  %s  %s\n      %s\n", c.Ordinal, loc, c.Heading, clip(strings.Join(strings.Fields(c.Text), " "), 100))
					}
				})
		},
	}
}

func retryCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "retry ID",
		Short: "Read a document's file again and re-queue its analysis",
		Args:  exactArgs(1, "ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) { return e.Retry(ctx, cliUser, args[0]) },
				func(w io.Writer, v any) {
					r := v.(*engine.IngestResult)
					fmt.Fprintf(w, "%s: %s\n", r.DocumentID, r.Message)
				})
		},
	}
}

func watchCmd(g *globals) *cobra.Command {
	cmd := group("watch", "Watch folders: their files are ingested and kept in sync while `strata serve` or the app runs")
	add := &cobra.Command{
		Use:   "add DIR",
		Short: "Watch a folder (and register its files now)",
		Args:  exactArgs(1, "DIR"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				res, err := e.AddWatchRoot(ctx, cliUser, args[0])
				if err != nil {
					return nil, err
				}
				return map[string]any{"watching": args[0], "files": res.Summary.Files, "failed": res.Summary.Failed, "summary": res.Summary}, nil
			}, func(w io.Writer, v any) {
				m := v.(map[string]any)
				fmt.Fprintf(w, "Watching %s. %s\n", m["watching"], m["summary"].(engine.ImportSummary).Text())
				fmt.Fprintln(w, "`strata serve` (or the app) analyses them and keeps the folder in sync.")
			})
		},
	}
	remove := &cobra.Command{
		Use:   "remove DIR",
		Short: "Stop watching a folder (its documents stay)",
		Args:  exactArgs(1, "DIR"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				_, err := e.RemoveWatchRoot(ctx, args[0])
				return map[string]any{"removed": args[0]}, err
			}, func(w io.Writer, v any) { fmt.Fprintf(w, "No longer watching %s.\n", v.(map[string]any)["removed"]) })
		},
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List watched folders",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				folders, err := e.WatchFolders(ctx)
				roots := make([]string, len(folders))
				for i, f := range folders {
					roots[i] = f.Path
				}
				return map[string]any{"roots": roots, "folders": folders}, err
			}, func(w io.Writer, v any) {
				folders := v.(map[string]any)["folders"].([]engine.WatchFolder)
				for _, f := range folders {
					fmt.Fprintln(w, f.Path+skippedAssets(f.SkippedAssets))
				}
				if len(folders) == 0 {
					fmt.Fprintln(w, "No watched folders. Add one with `strata watch add DIR`.")
				}
			})
		},
	}
	cmd.AddCommand(add, remove, list)
	return cmd
}

func serveCmd(g *globals) *cobra.Command {
	var addr string
	var noMCP bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run headless: watch folders, process jobs and serve MCP over loopback HTTP until interrupted",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			opts, err := g.runtimeOptions(g.logger())
			if err != nil {
				return err
			}
			opts.NoHTTP, opts.Addr, opts.UI = noMCP, addr, g.ui
			return host.Run(c.Context(), opts, func(ctx context.Context, rt *host.Runtime) error {
				roots, err := rt.Engine.WatchRoots(ctx)
				if err != nil {
					return err
				}
				fmt.Fprintf(g.io.Err, "strata serve: data %s, watching %d folder(s); Ctrl-C to stop\n", rt.Engine.DataDir(), len(roots))
				switch {
				case rt.HTTPErr != nil:
					fmt.Fprintf(g.io.Err, "strata serve: MCP over HTTP not started: %v\n", errs.As(rt.HTTPErr).Message)
				case rt.HTTP != nil:
					fmt.Fprintf(g.io.Err, "strata serve: MCP at %s (bearer token: `strata mcp config --http --client cursor` shows it)\n", rt.HTTP.URL())
					if rt.App != nil {
						fmt.Fprintf(g.io.Err, "strata serve: open %s in a browser\n", rt.HTTP.UIURL())
					}
				}
				<-ctx.Done()
				fmt.Fprintln(g.io.Err, "strata serve: stopped")
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&addr, "mcp-addr", httpapi.DefaultAddr, "loopback address of the MCP HTTP endpoint (port 0: any free port)")
	cmd.Flags().BoolVar(&noMCP, "no-mcp", false, "do not serve MCP over HTTP")
	return cmd
}
