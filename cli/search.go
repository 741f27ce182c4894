package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/spf13/cobra"

	"github.com/strata-app/strata/backend/engine"
)

func searchCmd(g *globals) *cobra.Command {
	var r engine.SearchRequest
	var limit int
	cmd := &cobra.Command{
		Use:   "search [--mode hybrid|keyword|semantic] [--limit N] [--type T] [--path PREFIX] [--per-document] QUERY",
		Short: "Search documents; results cite path:line or page",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{fmt.Errorf("want a QUERY")}
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			r.Query, r.Limit = strings.Join(args, " "), engine.Limit(limit)
			return g.run(c, func(ctx context.Context, e *engine.Engine) (any, error) { return e.Search(ctx, r) },
				func(w io.Writer, v any) {
					resp := v.(*engine.SearchResponse)
					bold := isTerminal(w) && g.io.Getenv("NO_COLOR") == ""
					if resp.Notice != "" {
						fmt.Fprintf(w, "(%s)\n", resp.Notice)
					}
					for i, res := range resp.Results {
						loc := res.Path
						if loc == "" {
							loc = res.DocumentID
						}
						if res.Page > 0 {
							loc += fmt.Sprintf(" p.%d", res.Page)
						}
						loc += fmt.Sprintf(":%d", citedLine(res.Line, res.LineStart))
						fmt.Fprintf(w, "%2d. %s  %s\n", i+1, loc, res.Title)
						if res.Heading != "" {
							fmt.Fprintf(w, "    § %s\n", res.Heading)
						}
						fmt.Fprintf(w, "    %s\n", marked(res.Snippet, res.Highlights, bold))
						if res.AlsoInCount > 0 {
							fmt.Fprintf(w, "    %s\n", alsoIn(res))
						}
						if res.OtherPassagesCount > 0 {
							fmt.Fprintf(w, "    %s\n", otherPassages(res))
						}
					}
					switch {
					case len(resp.Results) > 0:
					case resp.Dropped > 0:
						// Some passages matched, none well enough: "No results." under "(23
						// weaker results left out)" read as a contradiction (as in the app).
						fmt.Fprintf(w, "Nothing matches %q well enough to show.\n", r.Query)
					default:
						fmt.Fprintln(w, "No results.")
					}
					fmt.Fprintf(w, "(%d results, %s, %.1f ms)\n", len(resp.Results), resp.Mode, resp.TookMS)
				})
		},
	}
	cmd.Flags().StringVar(&r.Mode, "mode", "hybrid", "hybrid, keyword or semantic")
	cmd.Flags().IntVar(&limit, "limit", 10, "at most this many results (1–100; 0 is refused)")
	limitCheck(cmd, &limit)
	cmd.Flags().StringVar(&r.Type, "type", "", "only documents of this type (invoice, contract, meeting-notes, note, …)")
	cmd.Flags().StringVar(&r.Path, "path", "", "only documents under this path")
	cmd.Flags().StringVar(&r.Tag, "tag", "", "only documents with this tag")
	cmd.Flags().StringVar(&r.Mime, "mime", "", "only documents of this MIME type")
	cmd.Flags().StringVar(&r.From, "from", "", "only documents dated on or after (YYYY-MM-DD)")
	cmd.Flags().StringVar(&r.To, "to", "", "only documents dated on or before (YYYY-MM-DD)")
	cmd.Flags().BoolVar(&r.PerDocument, "per-document", false, "at most one result per document")
	return cmd
}

// marked renders a snippet for a person: the highlighted words in bold on a terminal, in
// [brackets] when the output goes to a file or a pipe. Only this human renderer marks words;
// --json gives the plain snippet and its highlights (UTF-16 offsets, see engine.SearchHighlight).
func marked(snippet string, spans []engine.SearchHighlight, bold bool) string {
	open, closing := "[", "]"
	if bold {
		open, closing = "\x1b[1m", "\x1b[22m"
	}
	u := utf16.Encode([]rune(snippet))
	var b strings.Builder
	pos := 0
	for _, s := range spans {
		if s.Start < pos || s.End <= s.Start || s.End > len(u) {
			continue // not from this snippet: show the text unmarked rather than cut
		}
		b.WriteString(string(utf16.Decode(u[pos:s.Start])) + open + string(utf16.Decode(u[s.Start:s.End])) + closing)
		pos = s.End
	}
	b.WriteString(string(utf16.Decode(u[pos:])))
	return b.String()
}

// alsoIn says which other documents hold a result's passage: "also in 2 other documents:
// book.html:3424, copy/ch04.html:260".
func alsoIn(res engine.SearchResult) string {
	noun := "documents"
	if res.AlsoInCount == 1 {
		noun = "document"
	}
	var locs []string
	for _, a := range res.AlsoIn {
		locs = append(locs, place(a.Path, a.DocumentID, a.Page, citedLine(a.Line, a.LineStart)))
	}
	if more := res.AlsoInCount - len(res.AlsoIn); more > 0 {
		locs = append(locs, fmt.Sprintf("and %d more", more))
	}
	return fmt.Sprintf("also in %d other %s: %s", res.AlsoInCount, noun, strings.Join(locs, ", "))
}

// otherPassages says where else the cited document answers: "7 more in this document, at
// lines 3, 11, 35, p.2:14, 59 and 2 more".
func otherPassages(res engine.SearchResult) string {
	var locs []string
	for _, p := range res.OtherPassages {
		if p.Page > 0 {
			locs = append(locs, fmt.Sprintf("p.%d:%d", p.Page, citedLine(p.Line, p.LineStart)))
		} else {
			locs = append(locs, fmt.Sprint(citedLine(p.Line, p.LineStart)))
		}
	}
	at := strings.Join(locs, ", ")
	if more := res.OtherPassagesCount - len(res.OtherPassages); more > 0 {
		at += fmt.Sprintf(" and %d more", more)
	}
	noun := "lines"
	if res.OtherPassagesCount == 1 {
		noun = "line"
	}
	return fmt.Sprintf("%d more in this document, at %s %s", res.OtherPassagesCount, noun, at)
}

// place cites a document's passage as "path:line" or "path p.N:line" (the document ID when
// the document has no path), for a result and for the other documents holding its passage.
func place(path, documentID string, page, line int) string {
	if path == "" {
		path = documentID
	}
	if page > 0 {
		path += fmt.Sprintf(" p.%d", page)
	}
	return fmt.Sprintf("%s:%d", path, line)
}

// citedLine is the line a result cites: that of the words its snippet shows (line), else its
// passage's first line.
func citedLine(line, start int) int {
	if line > 0 {
		return line
	}
	return start
}
