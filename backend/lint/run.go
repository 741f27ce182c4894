package lint

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-app/strata/backend/store"
)

// fullShare is the share of the store's entities that, marked as changed, makes a run check
// everything at once: past it, the bulk reads of a full run cost less than expanding the marks
// subject by subject. Below fullMin marks a run is incremental whatever the share (a small
// store is cheap either way).
const (
	fullShare = 0.3
	fullMin   = 500
)

// Version is what the stored findings were made by: every check's name and version. A new
// check, or a check's new logic, makes the next run a full one.
func Version(checks []Check) string {
	parts := make([]string, 0, len(checks))
	for _, c := range checks {
		parts = append(parts, c.Name()+"@"+c.Version())
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

// Run brings the stored findings up to date, inside the caller's write transaction (env.Q), so
// a crash leaves either the old findings with their marks or the new ones without. The first
// run (or one after the checks changed, or with full set) checks every subject; later runs
// recheck the subjects the entities marked since the last run affect, plus the subjects of
// stored findings that rest on a marked entity.
func Run(ctx context.Context, env Env, checks []Check, full bool) (Checked, error) {
	var out Checked
	n, err := store.CountEntities(ctx, env.Q)
	if err != nil {
		return out, err
	}
	out.Subjects = n
	version := Version(checks)
	stored, err := store.Setting(ctx, env.Q, store.LintVersionKey)
	if err != nil {
		return out, err
	}
	dirty, err := store.LintDirty(ctx, env.Q)
	if err != nil {
		return out, err
	}
	if stored != version || (len(dirty) >= fullMin && float64(len(dirty)) > fullShare*float64(n)) {
		full = true
	}
	// What each check must look at again: what the marks affect, and the subjects of its stored
	// findings that rest on a marked entity. When that is most of the store, a full run's bulk
	// reads cost less than the look-ups subject by subject.
	recheck := make([][]string, len(checks))
	if !full && len(dirty) > 0 {
		all := map[string]bool{}
		for i, c := range checks {
			subs, err := c.Affected(ctx, env, dirty)
			if err != nil {
				return out, fmt.Errorf("lint %s: %w", c.Name(), err)
			}
			held, err := store.LintSubjectsWithFindings(ctx, env.Q, c.Name(), dirty)
			if err != nil {
				return out, err
			}
			recheck[i] = union(subs, held)
			for _, s := range recheck[i] {
				all[s] = true
			}
		}
		out.Rechecked = len(all)
		if len(all) >= fullMin && float64(len(all)) > fullShare*float64(n) {
			full = true
		}
	}
	out.Full = full
	if full {
		env.memo = newMemo()
		if err := store.DeleteAllLintFindings(ctx, env.Q); err != nil {
			return out, err
		}
		for _, c := range checks {
			fs, err := c.Check(ctx, env, nil)
			if err != nil {
				return out, fmt.Errorf("lint %s: %w", c.Name(), err)
			}
			if err := save(ctx, env.Q, c, fs, nil); err != nil {
				return out, err
			}
		}
		out.Rechecked = n
	} else {
		for i, c := range checks {
			subs := recheck[i]
			if len(subs) == 0 {
				continue
			}
			if err := store.DeleteLintFindings(ctx, env.Q, c.Name(), subs); err != nil {
				return out, err
			}
			fs, err := c.Check(ctx, env, subs)
			if err != nil {
				return out, fmt.Errorf("lint %s: %w", c.Name(), err)
			}
			if err := save(ctx, env.Q, c, fs, setOf(subs)); err != nil {
				return out, err
			}
		}
	}
	if err := store.ClearLintDirty(ctx, env.Q); err != nil {
		return out, err
	}
	if stored != version {
		if err := store.SetSetting(ctx, env.Q, store.LintVersionKey, version); err != nil {
			return out, err
		}
	}
	return out, nil
}

// save stores a check's findings about subjects (nil: any): a finding about another subject is
// a check's bug, and is dropped rather than left unreachable by the next recheck.
func save(ctx context.Context, q store.Q, c Check, fs []Finding, subjects subjectSet) error {
	list := make([]store.StoredFinding, 0, len(fs))
	for _, f := range fs {
		if !subjects.has(f.subject) {
			continue
		}
		if f.Kind != c.Kind() {
			return fmt.Errorf("lint %s found a %s", c.Name(), f.Kind)
		}
		if f.DocumentIDs == nil {
			f.DocumentIDs = []string{}
		}
		if f.Evidence == nil {
			f.Evidence = []Evidence{}
		}
		body, err := json.Marshal(f)
		if err != nil {
			return fmt.Errorf("encode finding %s: %w", f.ID, err)
		}
		list = append(list, store.StoredFinding{ID: f.ID, Check: c.Name(), Kind: f.Kind, Severity: SeverityRank(f.Severity),
			KindRank: KindRank(f.Kind), Scope: f.Scope, Subject: f.subject, GapDays: f.gapDays, Body: body, Refs: f.refs})
	}
	return store.InsertLintFindings(ctx, q, list)
}

// union merges sorted-or-not ID lists into one sorted list without repeats.
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// newFinding fills what every finding has.
func newFinding(kind, severity, scope, subject string, key ...string) Finding {
	return Finding{ID: FindingID(kind, key...), Kind: kind, Severity: severity, Scope: scope, subject: subject, gapDays: -1,
		DocumentIDs: []string{}, Evidence: []Evidence{}}
}
