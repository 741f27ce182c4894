package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-app/strata/backend/engine"
)

func entityCmd(g *globals) *cobra.Command {
	cmd := group("entity", "Read entities: snapshots, observations, field provenance, lists")
	var at string
	get := &cobra.Command{
		Use:   "get ID [--at TIME]",
		Short: "Show an entity's snapshot (as of TIME when --at is given)",
		Args:  exactArgs(1, "ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) { return e.GetEntity(ctx, args[0], at) }, printSnapshot)
		},
	}
	get.Flags().StringVar(&at, "at", "", "RFC 3339 time or date: the snapshot as of then")

	var limit, offset int
	obs := &cobra.Command{
		Use:   "observations ID",
		Short: "List what every source said about an entity, newest first",
		Args:  exactArgs(1, "ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.ListObservations(ctx, args[0], limit, offset)
			}, func(w io.Writer, v any) {
				p := v.(*engine.ObservationPage)
				tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
				fmt.Fprintln(tw, "OBSERVED AT\tOBSERVATION\tPRIORITY\tSPECIFICITY\tEXTRACTOR\tFIELDS")
				for _, o := range p.Observations {
					fmt.Fprintf(tw, "%s\t%s\t%d\t%.3g\t%s\t%s\n", o.ObservedAt, o.ID, o.SourcePriority, o.SpecificityScore, o.Extractor, clip(string(o.Fields), 80))
				}
				tw.Flush()
				pageFooter(w, len(p.Observations), p.Total, p.Offset)
			})
		},
	}
	pageFlags(obs, &limit, &offset)

	prov := &cobra.Command{
		Use:   "provenance ID FIELD",
		Short: "Trace one field to the observation, payload and document it came from",
		Args:  exactArgs(2, "ID and FIELD"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.FieldProvenance(ctx, args[0], args[1])
			}, func(w io.Writer, v any) {
				p := v.(*engine.FieldProvenance)
				fmt.Fprintf(w, "%s = %s   (merge: %s)\n", p.Field, p.Value, p.MergePolicy)
				fmt.Fprintf(w, "  observation  %s  observed %s  priority %d  specificity %.3g  by %s\n", p.SourceObservation.ID,
					p.SourceObservation.ObservedAt, p.SourceObservation.SourcePriority, p.SourceObservation.SpecificityScore, p.SourceObservation.Extractor)
				fmt.Fprintf(w, "  payload      %s  (%s %s)\n", p.SourcePayload.PayloadID, p.SourcePayload.Kind, p.SourcePayload.CapabilityID)
				fmt.Fprintf(w, "  origin       %s\n", p.SourcePayload.Origin)
				if d := p.SourceDocument; d != nil {
					fmt.Fprintf(w, "  document     %s  %q %s\n", d.DocumentID, d.Title, d.Path)
				}
				if len(p.Candidates) > 1 {
					fmt.Fprintln(w, "  candidates (ranked by the merge policy):")
					for _, c := range p.Candidates {
						mark := " "
						if c.Chosen {
							mark = "*"
						}
						fmt.Fprintf(w, "   %s %s  %s  priority %d  specificity %.3g  %s\n", mark, c.ObservedAt, c.ObservationID, c.SourcePriority, c.SpecificityScore, clip(string(c.Value), 60))
					}
				}
			})
		},
	}

	var typ, query string
	var llimit, loffset int
	list := &cobra.Command{
		Use:   "list [--type T] [--query Q]",
		Short: "List entities",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(c *cobra.Command, _ []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				t := typ
				if t == "" { // documented: every type, documents included (the window leaves them out)
					t = engine.AllTypes
				}
				return e.ListEntities(ctx, t, query, llimit, loffset)
			}, func(w io.Writer, v any) {
				p := v.(*engine.EntityPage)
				tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
				fmt.Fprintln(tw, "ENTITY\tTYPE\tNAME")
				for _, e := range p.Entities {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", e.EntityID, e.EntityType, e.CanonicalName)
				}
				tw.Flush()
				pageFooter(w, len(p.Entities), p.Total, p.Offset)
			})
		},
	}
	list.Flags().StringVar(&typ, "type", "", "only entities of this type")
	list.Flags().StringVar(&query, "query", "", "only entities whose name or alias contains this")
	pageFlags(list, &llimit, &loffset)

	cmd.AddCommand(get, obs, prov, list)
	return cmd
}

func pageFlags(c *cobra.Command, limit, offset *int) {
	c.Flags().IntVar(limit, "limit", 100, "at most this many (1–1000; 0 is refused)")
	c.Flags().IntVar(offset, "offset", 0, "skip this many")
	limitCheck(c, limit)
}

// limitCheck applies the engine's page-size rule (engine/limit.go) to a --limit flag: the flag
// always has a value, so an explicit --limit 0 is refused like limit: 0 on MCP and HTTP.
func limitCheck(c *cobra.Command, limit *int) {
	c.PreRunE = func(*cobra.Command, []string) error { return engine.CheckLimit(*limit) }
}

func pageFooter(w io.Writer, shown, total, offset int) {
	if total > shown {
		fmt.Fprintf(w, "(%d–%d of %d; use --offset to see more)\n", offset+1, offset+shown, total)
	} else {
		fmt.Fprintf(w, "(%d)\n", total)
	}
}

func printSnapshot(w io.Writer, v any) {
	s := v.(*engine.Snapshot)
	fmt.Fprintf(w, "%s  %s  (%s)\n", s.EntityType, s.CanonicalName, s.EntityID)
	if s.At != "" {
		fmt.Fprintf(w, "as of %s\n", s.At)
	}
	if len(s.Aliases) > 1 {
		fmt.Fprintf(w, "aliases: %v\n", s.Aliases)
	}
	last := "never"
	if s.LastObservationAt != nil {
		last = *s.LastObservationAt
	}
	fmt.Fprintf(w, "%d observation(s), last %s\n\n", s.ObservationCount, last)
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	for _, f := range sortedKeys(s.Snapshot) {
		fmt.Fprintf(tw, "  %s\t%s\t← %s\n", f, clip(string(s.Snapshot[f]), 70), s.Provenance[f])
	}
	tw.Flush()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func relCmd(g *globals) *cobra.Command {
	cmd := group("rel", "Create and list typed relationships between entities")
	var metadata string
	create := &cobra.Command{
		Use:   "create TYPE SOURCE_ID TARGET_ID",
		Short: "Create a relationship (PART_OF, CORRECTS, REFERS_TO, SETTLES, DUPLICATE_OF, DEPENDS_ON, SUPERSEDES)",
		Args:  exactArgs(3, "TYPE, SOURCE_ID and TARGET_ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				var meta json.RawMessage
				if metadata != "" {
					meta = json.RawMessage(metadata)
				}
				return e.CreateRelationship(ctx, args[0], args[1], args[2], meta)
			}, func(w io.Writer, v any) {
				r := v.(*engine.RelationshipResult)
				verb := "created"
				if !r.Created {
					verb = "exists"
				}
				fmt.Fprintf(w, "%s %s: %s -%s-> %s\n", verb, r.ID, r.SourceEntityID, r.RelationshipType, r.TargetEntityID)
			})
		},
	}
	create.Flags().StringVar(&metadata, "metadata", "", "a JSON object stored with the relationship")

	var direction, typ, enrichment string
	var derived, asserted bool
	var minScore float64
	var limit, offset int
	list := &cobra.Command{
		Use:   "list ID [--direction inbound|outbound|both] [--type T] [--derived | --asserted] [--enrichment NAME] [--min-score S]",
		Short: "List an entity's relationships: asserted ones (newest first), then derived ones (strongest first)",
		Args:  exactArgs(1, "ID"),
		RunE: func(c *cobra.Command, args []string) error {
			q := engine.RelationshipQuery{EntityID: args[0], Direction: direction, Type: typ, Enrichment: enrichment, MinScore: minScore,
				Limit: limit, Offset: offset}
			switch {
			case derived && asserted:
				return usageError{fmt.Errorf("--derived and --asserted exclude each other; give neither for both")}
			case derived || asserted:
				q.Derived = &derived
			}
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.ListRelationships(ctx, q)
			}, func(w io.Writer, v any) {
				p := v.(*engine.RelationshipPage)
				tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
				fmt.Fprintln(tw, "RELATIONSHIP\tSOURCE\tTYPE\tTARGET\tKIND")
				for _, r := range p.Relationships {
					kind := "asserted " + r.CreatedAt
					if r.Derived && r.Score != nil {
						kind = fmt.Sprintf("derived %s %.2f", r.Enrichment, *r.Score)
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, endName(r.Source), r.RelationshipType, endName(r.Target), kind)
				}
				tw.Flush()
				pageFooter(w, len(p.Relationships), p.Total, p.Offset)
			})
		},
	}
	list.Flags().StringVar(&direction, "direction", "both", "inbound, outbound or both")
	list.Flags().StringVar(&typ, "type", "", "only this relationship type (asserted or derived)")
	list.Flags().BoolVar(&derived, "derived", false, "only links the enrichments derived")
	list.Flags().BoolVar(&asserted, "asserted", false, "only links a source or a person asserted")
	list.Flags().StringVar(&enrichment, "enrichment", "", "only the derived links of this enrichment")
	list.Flags().Float64Var(&minScore, "min-score", 0, "leave out derived links scoring below this (0–1)")
	pageFlags(list, &limit, &offset)
	cmd.AddCommand(create, list)
	return cmd
}

// group is a command that only holds subcommands: an unknown subcommand is a usage error.
func group(use, short string) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unknown command %q for %q", args[0], c.CommandPath())}
			}
			return c.Help()
		}}
}
