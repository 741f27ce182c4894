package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-app/strata/backend/engine"
)

func enrichCmd(g *globals) *cobra.Command {
	cmd := group("enrich", "See and run the enrichments: what Strata derives by itself")
	status := &cobra.Command{
		Use:   "status",
		Short: "Show each enrichment (version, on/off, links, open suggestions) and the backlog",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) { return e.EnrichStatus(ctx) }, func(w io.Writer, v any) {
				s := v.(*engine.EnrichStatus)
				tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
				fmt.Fprintln(tw, "ENRICHMENT\tVERSION\tON\tLINKS\tSUGGESTIONS")
				for _, en := range s.Enrichments {
					on := "on"
					if !en.Enabled {
						on = "off"
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\n", en.Name, en.Version, on, en.Links, en.Suggestions)
				}
				tw.Flush()
				fmt.Fprintf(w, "backlog: %d document(s) waiting, %d failed\n", s.Backlog, s.Failed)
			})
		},
	}
	run := &cobra.Command{
		Use:   "run [NAME]",
		Short: "Derive again: one enrichment over every document here and now, or all enabled ones",
		Long: `With NAME, runs that enrichment (even if switched off in specs/enrichments.yaml) over every
document in this process and reports the derived rows it changed (0: nothing changed).
Without, queues every document for every enabled enrichment and waits until they are done.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{fmt.Errorf("want at most one enrichment NAME, got %d arguments", len(args))}
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) { return e.RunEnrichment(ctx, name) }, func(w io.Writer, v any) {
				r := v.(*engine.EnrichRunResult)
				if r.Enrichment == "" {
					fmt.Fprintf(w, "every enabled enrichment: %d document(s) enriched again\n", r.Documents)
					return
				}
				fmt.Fprintf(w, "%s: %d document(s), %d derived row(s) changed\n", r.Enrichment, r.Documents, r.Changed)
			})
		},
	}
	cmd.AddCommand(status, run)
	return cmd
}

func suggestionsCmd(g *globals) *cobra.Command {
	var state string
	var limit, offset int
	cmd := &cobra.Command{
		Use:   "suggestions [--state open|accepted|dismissed|all]",
		Short: "List pairs that look related while nothing links them; accept or dismiss them",
		Long: `Lists DiscoveryGap's suggestions, strongest first: why (reason), both ends, the score and the
evidence (path:line). Accepting one asserts the link (RELATED_TO unless --type says otherwise);
dismissing one remembers that the pair is not related. Either way it is not suggested again.`,
		Args: exactArgs(0, "no arguments (or a subcommand: accept, dismiss)"),
		RunE: func(c *cobra.Command, _ []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.Suggestions(ctx, state, limit, offset)
			}, func(w io.Writer, v any) {
				p := v.(*engine.SuggestionPage)
				for _, s := range p.Suggestions {
					fmt.Fprintf(w, "%s  %.2f  %s  %s ↔ %s", s.ID, s.Score, s.Kind, endName(s.Source), endName(s.Target))
					if state != "" && state != "open" {
						fmt.Fprintf(w, "  [%s]", s.State)
					}
					fmt.Fprintf(w, "\n    %s\n", s.Reason)
					if ev := evidenceLine(s.Evidence); ev != "" {
						fmt.Fprintf(w, "    evidence: %s\n", ev)
					}
				}
				pageFooter(w, len(p.Suggestions), p.Total, p.Offset)
			})
		},
	}
	cmd.Flags().StringVar(&state, "state", "open", "open, accepted, dismissed or all")
	pageFlags(cmd, &limit, &offset)

	var typ string
	decided := func(w io.Writer, v any) {
		d := v.(*engine.SuggestionDecision)
		fmt.Fprintf(w, "%s %s\n", d.Suggestion.ID, d.Suggestion.State)
		if r := d.Relationship; r != nil {
			fmt.Fprintf(w, "created %s: %s -%s-> %s\n", r.ID, r.SourceEntityID, r.RelationshipType, r.TargetEntityID)
		}
	}
	accept := &cobra.Command{
		Use:   "accept ID [--type T]",
		Short: "Assert the suggested link (RELATED_TO by default) and remember the decision",
		Args:  exactArgs(1, "ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.DecideSuggestion(ctx, args[0], true, typ, cliUser.Via())
			}, decided)
		},
	}
	accept.Flags().StringVar(&typ, "type", "", "the relationship type to assert (default RELATED_TO)")
	dismiss := &cobra.Command{
		Use:   "dismiss ID",
		Short: "Remember that the pair is not related: it is not suggested again",
		Args:  exactArgs(1, "ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.DecideSuggestion(ctx, args[0], false, "", cliUser.Via())
			}, decided)
		},
	}
	cmd.AddCommand(accept, dismiss)
	return cmd
}

// endName is one end of a link or suggestion for a person: its name and, for a document, its
// path.
func endName(r engine.EntityRef) string {
	switch {
	case r.Path != "":
		return r.Path
	case r.Name != "":
		return fmt.Sprintf("%s (%s)", r.Name, r.EntityType)
	}
	return r.EntityID
}

// evidenceLine cites a derived link's or suggestion's evidence: path:line where it has lines,
// the path or the field read otherwise.
func evidenceLine(raw json.RawMessage) string {
	var list []engine.Evidence
	if json.Unmarshal(raw, &list) != nil {
		return string(raw) // not the usual shape: shown as stored rather than hidden
	}
	var parts []string
	for _, ev := range list {
		switch {
		case ev.LineStart > 0:
			parts = append(parts, place(ev.Path, ev.DocumentID, ev.Page, ev.LineStart))
		case ev.Path != "" || ev.DocumentID != "":
			p := ev.Path
			if p == "" {
				p = ev.DocumentID
			}
			if ev.Field != "" {
				p += " (" + ev.Field + ")"
			}
			parts = append(parts, p)
		default:
			parts = append(parts, ev.Kind+" "+ev.ID)
		}
	}
	return strings.Join(parts, ", ")
}
