package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-app/strata/backend/atomicfile"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/lint"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// Lint checks what the store believes (issue 15): contradictions, stale values, orphans,
// missing links and undocumented concepts.
//
// The findings are kept in the store (lint_findings) and brought up to date by each call, in
// one write transaction: the first call checks everything, later ones only what the writes
// since the previous call touched (every write marks the entities it changes, by trigger).
// Reading a page afterwards filters by scope, kind and staleness_days, so none of those
// parameters forces a new run.
func (e *Engine) Lint(ctx context.Context, r LintRequest) (*LintReport, error) {
	if err := checkLint(&r); err != nil {
		return nil, err
	}
	checked, err := e.lintRun(ctx, false)
	if err != nil {
		return nil, err
	}
	rep, err := e.lintPage(ctx, r, r.Limit, r.Offset)
	if err != nil {
		return nil, err
	}
	rep.Checked = checked
	if rep.Pending, err = store.LintPending(ctx, e.db.Reader()); err != nil {
		return nil, queryErr(err, "the documents still being read")
	}
	if r.Publish {
		all, err := e.lintPage(ctx, LintRequest{Scope: r.Scope, StalenessDays: r.StalenessDays, Kind: r.Kind}, -1, 0)
		if err != nil {
			return nil, err
		}
		if rep.DocumentID, err = e.publishLint(ctx, all); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// lintEnv is what the checks read besides the store.
func (e *Engine) lintEnv(q store.Q) lint.Env {
	return lint.Env{Q: q, Generated: e.IsGenerated, Policy: func(typ, field string) string {
		if t := e.specs.EntityTypes[typ]; t != nil {
			return t.Policy(field)
		}
		return ""
	}, Changes: func(typ, field string) bool {
		t := e.specs.EntityTypes[typ]
		return t != nil && t.Fields[field].Merge == spec.MergeLatest
	}, PrimaryType: func(capability string) string {
		if c := e.specs.Capabilities[capability]; c != nil && len(c.Entities) > 0 {
			return c.Entities[0].Type
		}
		return ""
	}}
}

// lintRun brings the stored findings up to date (full: check everything again).
func (e *Engine) lintRun(ctx context.Context, full bool) (lint.Checked, error) {
	var checked lint.Checked
	err := e.db.WriteTx(ctx, func(tx *store.Tx) error {
		var err error
		checked, err = lint.Run(ctx, e.lintEnv(tx), lint.Registered(), full)
		return err
	})
	if err != nil {
		return checked, e.writeErr(err, "the lint run failed")
	}
	return checked, nil
}

// lintScopes maps a request's scope onto the findings' scopes (nil: all).
func lintScopes(scope string) []string {
	switch scope {
	case LintEntities:
		return []string{lint.ScopeEntities}
	case LintDocuments:
		return []string{lint.ScopeDocuments}
	case LintConcepts:
		return []string{lint.ScopeConcepts}
	}
	return nil
}

// lintPage reads one page of stored findings (limit < 0: all of them).
func (e *Engine) lintPage(ctx context.Context, r LintRequest, limit, offset int) (*LintReport, error) {
	bodies, total, counts, err := store.LintFindings(ctx, e.db.Reader(),
		store.LintFilter{Scopes: lintScopes(r.Scope), Kind: r.Kind, StalenessDays: r.StalenessDays}, limit, offset)
	if err != nil {
		return nil, queryErr(err, "the lint findings")
	}
	rep := &LintReport{Findings: make([]Finding, 0, len(bodies)), Total: total, Limit: limit, Offset: offset, Counts: map[string]int{},
		Scope: r.Scope, StalenessDays: r.StalenessDays}
	for _, k := range lint.Kinds {
		rep.Counts[k] = counts[k]
	}
	for _, b := range bodies {
		var f Finding
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, errs.Wrap(errs.DBQueryFailed, err, "a stored lint finding could not be read").WithHint("run lint again; findings are rebuilt from the store")
		}
		rep.Findings = append(rep.Findings, f)
	}
	return rep, nil
}

// publishLint writes the report as a Markdown file among the generated documents and ingests
// it: it is searchable, and each published report is a new version of the same document, so
// the store keeps its history. The file name is the scope's, so one scope's report replaces
// its previous one.
func (e *Engine) publishLint(ctx context.Context, rep *LintReport) (string, error) {
	name := "lint-report.md"
	if rep.Scope != LintAll {
		name = "lint-report-" + rep.Scope + ".md"
	}
	path := filepath.Join(e.GeneratedDir(), name)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", e.writeErr(err, "could not create the folder of generated documents")
	}
	if err := atomicfile.Write(path, bytes.NewReader(lintMarkdown(rep)), 0o600); err != nil {
		return "", e.writeErr(err, "could not write the lint report")
	}
	results, err := e.IngestPaths(ctx, LocalUser("lint"), []string{path})
	if err != nil {
		return "", err
	}
	for _, r := range results {
		if r.Error != nil {
			return "", r.Error
		}
		if r.Result != nil && r.Result.DocumentID != "" {
			return r.Result.DocumentID, nil
		}
	}
	return "", errs.New(errs.Internal, "the lint report was written but not registered").WithHint("see the log file for details")
}

// lintMarkdown renders a report: what a person reads first, then each kind's findings with
// their evidence as path:line. Nothing in it depends on the time, so the same findings give the
// same bytes (and the same document version).
func lintMarkdown(rep *LintReport) []byte {
	var b strings.Builder
	b.WriteString("# Strata lint report\n\n")
	fmt.Fprintf(&b, "Scope: %s. Values count as stale after %d days.\n\n", rep.Scope, rep.StalenessDays)
	for _, k := range lint.Kinds {
		fmt.Fprintf(&b, "- %s: %d\n", k, rep.Counts[k])
	}
	kind := ""
	for _, f := range rep.Findings {
		if f.Kind != kind {
			kind = f.Kind
			fmt.Fprintf(&b, "\n## %s\n", kind)
		}
		fmt.Fprintf(&b, "\n- **%s** (%s)\n", f.Title, f.Severity)
		for _, v := range f.Values {
			shown := ""
			if v.Shown {
				shown = " — shown today"
			}
			fmt.Fprintf(&b, "  - %s from %s%s\n", string(v.Value), evidenceWhere(v.Source), shown)
		}
		for _, ev := range f.Evidence {
			if ev.Quote != "" {
				fmt.Fprintf(&b, "  - %s: “%s”\n", evidenceWhere(ev), ev.Quote)
			}
		}
		fmt.Fprintf(&b, "  - %s\n", f.Hint)
	}
	if len(rep.Findings) == 0 {
		b.WriteString("\nNo findings: the store holds together.\n")
	}
	return []byte(b.String())
}

// evidenceWhere is path:line (or path p.N, or the agent) of a piece of evidence.
func evidenceWhere(ev lint.Evidence) string {
	switch {
	case ev.Path != "" && ev.Page > 0:
		return fmt.Sprintf("%s p.%d", ev.Path, ev.Page)
	case ev.Path != "" && ev.LineStart > 0:
		return fmt.Sprintf("%s:%d", ev.Path, ev.LineStart)
	case ev.Path != "":
		return ev.Path
	case ev.Title != "":
		return ev.Title
	case ev.Source != "":
		return "agent " + ev.Source
	}
	return ev.DocumentID
}
