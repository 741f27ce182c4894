package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/lint"
)

func askCmd(g *globals) *cobra.Command {
	var r engine.AskRequest
	cmd := &cobra.Command{
		Use:   "ask [--persist] [--format markdown|summary_with_sources] [--max-passages N] [--type T] [--path PREFIX] QUESTION...",
		Short: "Answer a question from the store, citing the passages it rests on",
		Long: `Answers a question from what the store holds. Without a local chat model the answer is
extractive: the sentences of the best passages that answer it, each ending with its [n]; with
one (Ollama) it is written from those passages only, and every sentence is checked against the
passages it cites (sentences that fail are removed and listed). Then the sources ([n] path:line
and the quoted words), the facts Strata holds about the entities the question names, and why
nothing was answered when nothing was.

Use search to explore and see many passages; use ask for a direct answer with its sources.
--persist files the answer back into the store as a document citing its sources: the same
question on the same store gives the same answer and the same document.`,
		Example: `  strata ask what did Acme invoice in March
  strata ask --persist --type meeting-notes "what did we decide about pricing?"
  strata ask --json --max-passages 4 heron nests`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{fmt.Errorf("want a QUESTION")}
			}
			return nil
		},
		PreRunE: func(*cobra.Command, []string) error {
			return givenCount("--max-passages", "max_passages", r.MaxPassages, engine.MaxAskPassages)
		},
		RunE: func(c *cobra.Command, args []string) error {
			r.Question = strings.Join(args, " ")
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) { return e.Ask(ctx, r) },
				func(w io.Writer, v any) {
					printAnswer(w, v.(*engine.AskResponse), r.Format == engine.AskSummaryWithSource)
				})
		},
	}
	cmd.Flags().BoolVar(&r.Persist, "persist", false, "file the answer back into the store as a document citing its sources")
	cmd.Flags().StringVar(&r.Format, "format", engine.AskMarkdown, "markdown, or summary_with_sources (the answer then lists its sources as [n] path:line)")
	cmd.Flags().IntVar(&r.MaxPassages, "max-passages", engine.DefaultAskPassages, fmt.Sprintf("passages the answer may rest on (1–%d)", engine.MaxAskPassages))
	cmd.Flags().StringVar(&r.Filters.Type, "type", "", "only documents of this type (invoice, contract, meeting-notes, note, …)")
	cmd.Flags().StringVar(&r.Filters.Path, "path", "", "only documents under this path")
	cmd.Flags().StringVar(&r.Filters.Tag, "tag", "", "only documents with this tag")
	cmd.Flags().StringVar(&r.Filters.Mime, "mime", "", "only documents of this MIME type")
	cmd.Flags().StringVar(&r.Filters.From, "from", "", "only documents dated on or after (YYYY-MM-DD)")
	cmd.Flags().StringVar(&r.Filters.To, "to", "", "only documents dated on or before (YYYY-MM-DD)")
	return cmd
}

// givenCount refuses a count flag outside 1…max: the engine reads 0 as "the default", and a
// flag always has a value, so an explicit 0 would otherwise pass unnoticed (as limitCheck does
// for --limit).
func givenCount(flag, field string, n, maxN int) error {
	if n < 1 || n > maxN {
		return errs.New(errs.Validation, "%s %d is not between 1 and %d", flag, n, maxN).With("field", field).
			WithHint("leave %s out for the default", flag)
	}
	return nil
}

// printAnswer renders an answer for a person: the answer with its [n], the sources each with
// its place and quote (unless the answer lists them itself: summary_with_sources), the facts,
// the sentences removed for want of support, and the notice. With no answer, the closest
// passages follow, marked as what they are: where to read on, not an answer.
func printAnswer(w io.Writer, a *engine.AskResponse, listsSources bool) {
	notice := a.Notice
	switch {
	case a.Answer != "":
		fmt.Fprintln(w, strings.TrimRight(a.Answer, "\n"))
	case strings.HasPrefix(notice, "not found: "):
		fmt.Fprintf(w, "Not found: %s.\n", strings.TrimRight(strings.TrimPrefix(notice, "not found: "), "."))
		notice = ""
	case notice != "":
		fmt.Fprintf(w, "No answer: %s.\n", strings.TrimRight(notice, "."))
		notice = ""
	default:
		fmt.Fprintln(w, "No answer: nothing in the store answers this question.")
	}
	if len(a.Closest) > 0 {
		fmt.Fprintln(w, "\nClosest passages (not an answer)")
		for _, c := range a.Closest {
			fmt.Fprintf(w, "  %s", citePlace(c.Path, c.Title, c.DocumentID, c.Page, c.LineStart))
			if len(c.Missing) > 0 {
				fmt.Fprintf(w, "  does not say: %s", strings.Join(c.Missing, ", "))
			}
			fmt.Fprintln(w)
			if q := oneLine(c.Snippet); q != "" {
				fmt.Fprintf(w, "      %s\n", q)
			}
		}
	}
	if len(a.Citations) > 0 && !listsSources {
		fmt.Fprintln(w, "\nSources")
		for _, c := range a.Citations {
			fmt.Fprintf(w, "  [%d] %s", c.N, citePlace(c.Path, c.Title, c.DocumentID, c.Page, c.LineStart))
			if c.Path != "" && c.Title != "" {
				fmt.Fprintf(w, "  %s", c.Title)
			}
			fmt.Fprintln(w)
			if q := oneLine(c.Quote); q != "" {
				fmt.Fprintf(w, "      “%s”\n", q)
			}
		}
	}
	if len(a.Facts) > 0 {
		fmt.Fprintln(w, "\nFacts")
		for _, f := range a.Facts {
			fmt.Fprintf(w, "  %s (%s): %s = %s", f.EntityName, f.EntityType, f.Field, jsonText(f.Value))
			switch {
			case f.Path != "" || f.DocumentID != "":
				fmt.Fprintf(w, "  from %s", citePlace(f.Path, "", f.DocumentID, f.Page, f.Line))
			case f.Agent != "":
				fmt.Fprintf(w, "  submitted by %s", f.Agent)
			}
			fmt.Fprintln(w)
		}
	}
	if len(a.Unsupported) > 0 {
		fmt.Fprintln(w, "\nRemoved: sentences the sources do not bear out")
		for _, u := range a.Unsupported {
			fmt.Fprintf(w, "  “%s” (%s)\n", oneLine(u.Sentence), u.Reason)
		}
	}
	mode := a.Mode
	if a.Model != "" {
		mode += ", " + a.Model
	}
	fmt.Fprintf(w, "\n(%s", mode)
	if notice != "" {
		fmt.Fprintf(w, "; %s", notice)
	}
	fmt.Fprintln(w, ")")
	if a.DocumentID != "" {
		if a.Created != nil && !*a.Created {
			fmt.Fprintf(w, "saved before as document %s (the same answer)\n", a.DocumentID)
		} else {
			fmt.Fprintf(w, "saved as document %s\n", a.DocumentID)
		}
	}
}

// citePlace is where a citation points: "path:line", "path p.N:line", or, for a note without a
// file, its title (its ID when it has none); no ":0" for a source without lines.
func citePlace(path, title, documentID string, page, line int) string {
	p := path
	if p == "" {
		p = title
	}
	if p == "" {
		p = documentID
	}
	if page > 0 {
		p += fmt.Sprintf(" p.%d", page)
	}
	if line > 0 {
		p += fmt.Sprintf(":%d", line)
	}
	return p
}

// jsonText shows a raw JSON value: a string as it reads, anything else as JSON.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// kindHeading names each kind of finding for the grouped report.
var kindHeading = map[string]string{
	lint.Contradiction:       "Contradictions: one field, different values from different sources",
	lint.Stale:               "Stale: a value a newer source no longer restates",
	lint.MissingLink:         "Missing links: a document names a known entity without a link to it",
	lint.UndocumentedConcept: "Undocumented concepts: used by several documents, explained by none",
	lint.Orphan:              "Orphans: nothing connects them",
}

func lintCmd(g *globals) *cobra.Command {
	var r engine.LintRequest
	cmd := &cobra.Command{
		Use:   "lint [--scope all|entities|documents|concepts] [--staleness-days N] [--kind K] [--limit N] [--offset N] [--publish]",
		Short: "Check what the store believes: contradictions, stale values, missing links, orphans",
		Long: `A health check of the store. Findings, most urgent first:

  contradiction         one entity field given different values by sources that nothing
                        reconciles (a CORRECTS or SUPERSEDES link, or a newer version of the
                        same source, does); both values, their sources and the one shown today
  stale                 a value whose source is --staleness-days older than a newer source that
                        mentions the entity without restating it; a superseded document
  missing_link          a document names a known entity (by name or alias) without a link to it
  undocumented_concept  a concept several documents use that no document explains
  orphan                an entity mentioned once with no links; a document with no entities or links

Each finding says what to do (hint) and how to fix it: the place to open, or the link to
create (strata rel create …). --publish writes the report into the store as a document.`,
		Example: `  strata lint
  strata lint --kind contradiction
  strata lint --scope documents --json --limit 20
  strata lint --publish`,
		Args: exactArgs(0, "no arguments"),
		PreRunE: func(*cobra.Command, []string) error {
			if err := engine.CheckLimit(r.Limit); err != nil {
				return err
			}
			return givenCount("--staleness-days", "staleness_days", r.StalenessDays, engine.MaxStalenessDays)
		},
		RunE: func(c *cobra.Command, _ []string) error {
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) { return e.Lint(ctx, r) },
				func(w io.Writer, v any) { printLint(w, v.(*engine.LintReport)) })
		},
	}
	cmd.Flags().StringVar(&r.Scope, "scope", engine.LintAll, "all, entities, documents or concepts")
	cmd.Flags().IntVar(&r.StalenessDays, "staleness-days", engine.DefaultStalenessDays, "how much older than a newer source a value must be to be stale")
	cmd.Flags().StringVar(&r.Kind, "kind", "", "only findings of this kind: "+strings.Join(lint.Kinds, ", "))
	cmd.Flags().IntVar(&r.Limit, "limit", engine.DefaultLintLimit, fmt.Sprintf("at most this many findings (1–%d)", engine.MaxLintLimit))
	cmd.Flags().IntVar(&r.Offset, "offset", 0, "skip this many")
	cmd.Flags().BoolVar(&r.Publish, "publish", false, "write the report into the store as a document")
	return cmd
}

// printLint renders a report for a person: the counts per kind, then this page's findings
// grouped by kind, each with its severity, title, values and their sources, evidence, hint and
// fixes.
func printLint(w io.Writer, r *engine.LintReport) {
	var counts []string
	all := 0
	for _, k := range lint.Kinds {
		if n, ok := r.Counts[k]; ok {
			counts = append(counts, fmt.Sprintf("%s %d", k, n))
			all += n
		}
	}
	line := fmt.Sprintf("%d finding(s)", all)
	if len(counts) > 0 {
		line += ": " + strings.Join(counts, ", ")
	}
	fmt.Fprintf(w, "%s  (scope %s, stale after %d days)\n", line, r.Scope, r.StalenessDays)
	for _, k := range lint.Kinds {
		var group []engine.Finding
		for _, f := range r.Findings {
			if f.Kind == k {
				group = append(group, f)
			}
		}
		if len(group) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d)\n", kindHeading[k], len(group))
		for _, f := range group {
			printFinding(w, f)
		}
	}
	var other []engine.Finding // a kind this build does not know: shown, not dropped
	for _, f := range r.Findings {
		if !lint.KnownKind(f.Kind) {
			other = append(other, f)
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(w, "\nOther (%d)\n", len(other))
		for _, f := range other {
			printFinding(w, f)
		}
	}
	if len(r.Findings) == 0 {
		if r.Total == 0 {
			fmt.Fprintln(w, "Nothing to report: no contradictions, stale values, missing links, undocumented concepts or orphans.")
		} else {
			fmt.Fprintf(w, "No findings past offset %d.\n", r.Offset)
		}
	}
	if r.Total > len(r.Findings) && len(r.Findings) > 0 {
		fmt.Fprintf(w, "\n(%d–%d of %d; use --offset to see more)\n", r.Offset+1, r.Offset+len(r.Findings), r.Total)
	}
	if r.Pending > 0 {
		fmt.Fprintf(w, "(%d document(s) still being read or linked: not checked for orphans and missing links until then)\n", r.Pending)
	}
	if r.DocumentID != "" {
		fmt.Fprintf(w, "report published as document %s\n", r.DocumentID)
	}
}

func printFinding(w io.Writer, f engine.Finding) {
	fmt.Fprintf(w, "  %-6s %s\n", f.Severity, f.Title)
	const pad = "         "
	// A value's quote is the evidence at its own place: printed under the value, not again.
	quoted := make([]bool, len(f.Evidence))
	for _, v := range f.Values {
		fmt.Fprintf(w, "%s%s  %s", pad, jsonText(v.Value), evidencePlace(v.Source))
		if v.Shown {
			fmt.Fprint(w, "  (shown today)")
		}
		fmt.Fprintln(w)
		for i, ev := range f.Evidence {
			if !quoted[i] && samePlace(ev, v.Source) {
				if q := oneLine(ev.Quote); q != "" {
					fmt.Fprintf(w, "%s  “%s”\n", pad, q)
				}
				quoted[i] = true
				break
			}
		}
	}
	for i, ev := range f.Evidence {
		if quoted[i] {
			continue
		}
		fmt.Fprintf(w, "%sevidence: %s", pad, evidencePlace(ev))
		if q := oneLine(ev.Quote); q != "" {
			fmt.Fprintf(w, " “%s”", q)
		}
		fmt.Fprintln(w)
	}
	if f.Hint != "" {
		fmt.Fprintf(w, "%shint: %s\n", pad, f.Hint)
	}
	for _, x := range f.Fixes {
		switch x.Action {
		case "create_relationship":
			fmt.Fprintf(w, "%sfix: %s: strata rel create %s %s %s\n", pad, x.Label, x.RelationshipType, x.SourceEntityID, x.TargetEntityID)
		default: // open: the label names the place

			fmt.Fprintf(w, "%sfix: %s\n", pad, x.Label)
		}
	}
}

// samePlace reports whether two places are one: the same document line, or the same agent.
func samePlace(a, b engine.FindingSource) bool {
	if a.DocumentID != "" || b.DocumentID != "" {
		return a.DocumentID == b.DocumentID && a.LineStart == b.LineStart && a.Page == b.Page
	}
	return a.Source != "" && a.Source == b.Source
}

// evidencePlace cites a finding's source: path:line (or page), else the document's title, else
// who submitted it (a payload from an agent has no document).
func evidencePlace(ev engine.FindingSource) string {
	switch {
	case ev.Path != "" || ev.DocumentID != "":
		p := citePlace(ev.Path, ev.Title, ev.DocumentID, ev.Page, ev.LineStart)
		if ev.Date != "" {
			p += " (" + ev.Date + ")"
		}
		return p
	case ev.Source != "":
		return "from " + ev.Source
	case ev.EntityID != "":
		return ev.EntityID
	}
	return "(no source)"
}
