// Package reduce turns an entity's observations into its snapshot: for every field one value
// chosen by the field's merge policy, and the observation that supplied it (field provenance).
//
// The choice is a total order per policy with the observation ID as the last tie-breaker, so
// the result does not depend on the order observations arrive in. That makes the reducer both
// deterministic and incremental: State.Apply folds one new observation into a stored state, and
// folding all observations in any order gives the same snapshot as a full recompute — which is
// how `at` (the snapshot as of a time) is answered.
package reduce

import (
	"encoding/json"
	"sort"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
)

// Obs is the part of an observation the reducer needs.
type Obs struct {
	ID             string
	ObservedAt     string // store.TimeFormat: text order is time order
	SourcePriority int
	Specificity    float64
	Fields         map[string]json.RawMessage
}

// Winner is the value currently chosen for a field (or a union element) and its source.
type Winner struct {
	Value       json.RawMessage `json:"v"`
	Obs         string          `json:"o"`
	ObservedAt  string          `json:"t"`
	Priority    int             `json:"p"`
	Specificity float64         `json:"s"`
}

// State is the reducer's memory for one entity; it is stored next to the snapshot.
type State struct {
	Fields map[string]*Winner            `json:"f"`
	Unions map[string]map[string]*Winner `json:"u,omitempty"`
	Count  int                           `json:"n"`
	Last   string                        `json:"l"`
}

// New returns an empty state.
func New() *State {
	return &State{Fields: map[string]*Winner{}, Unions: map[string]map[string]*Winner{}}
}

// Apply folds one observation into the state.
func (s *State) Apply(t *spec.EntityType, o Obs) {
	s.Count++
	if o.ObservedAt > s.Last {
		s.Last = o.ObservedAt
	}
	for field, raw := range o.Fields {
		if isNull(raw) {
			continue // null means "this source says nothing", not "erase"
		}
		policy := t.Policy(field)
		if policy == spec.MergeUnion {
			s.applyUnion(field, raw, o)
			continue
		}
		cand := &Winner{Value: raw, Obs: o.ID, ObservedAt: o.ObservedAt, Priority: o.SourcePriority, Specificity: o.Specificity}
		if cur := s.Fields[field]; cur == nil || Better(policy, cand, cur) {
			s.Fields[field] = cand
		}
	}
}

func (s *State) applyUnion(field string, raw json.RawMessage, o Obs) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		elems = []json.RawMessage{raw} // a scalar joins the set as one element
	}
	set := s.Unions[field]
	if set == nil {
		set = map[string]*Winner{}
		s.Unions[field] = set
	}
	for _, e := range elems {
		if isNull(e) {
			continue
		}
		v, err := ids.Decode(e)
		if err != nil {
			continue // values reach the reducer already canonical; a bad one cannot be merged
		}
		key := string(ids.MustMarshal(ids.Normalize(v)))
		cand := &Winner{Value: json.RawMessage(key), Obs: o.ID, ObservedAt: o.ObservedAt, Priority: o.SourcePriority, Specificity: o.Specificity}
		if cur := set[key]; cur == nil || Better(spec.MergeLatest, cand, cur) {
			set[key] = cand
		}
	}
}

// Better reports whether a beats b under policy. Every policy falls back to the other criteria
// and finally to the smaller observation ID, so there is never a tie.
func Better(policy string, a, b *Winner) bool {
	type key struct {
		at   string
		pri  int
		spec float64
	}
	cmp := func(x, y key, order []int) int {
		for _, k := range order {
			switch k {
			case 0:
				if x.at != y.at {
					return boolSign(x.at > y.at)
				}
			case 1:
				if x.pri != y.pri {
					return boolSign(x.pri > y.pri)
				}
			case 2:
				if x.spec != y.spec {
					return boolSign(x.spec > y.spec)
				}
			}
		}
		return 0
	}
	order := []int{0, 1, 2}
	switch policy {
	case spec.MergeHighestPriority:
		order = []int{1, 0, 2}
	case spec.MergeMostSpecific:
		order = []int{2, 0, 1}
	}
	if c := cmp(key{a.ObservedAt, a.Priority, a.Specificity}, key{b.ObservedAt, b.Priority, b.Specificity}, order); c != 0 {
		return c > 0
	}
	return a.Obs < b.Obs
}

func boolSign(b bool) int {
	if b {
		return 1
	}
	return -1
}

// Snapshot renders the state: field → value, and field → observation ID (provenance). A union
// field's provenance is its most recent contributing observation; Contributors lists them all.
func (s *State) Snapshot() (map[string]json.RawMessage, map[string]string) {
	snap, prov := map[string]json.RawMessage{}, map[string]string{}
	for f, w := range s.Fields {
		snap[f], prov[f] = w.Value, w.Obs
	}
	for f, set := range s.Unions {
		if len(set) == 0 {
			continue
		}
		keys := make([]string, 0, len(set))
		var best *Winner
		for k, w := range set {
			keys = append(keys, k)
			if best == nil || Better(spec.MergeLatest, w, best) {
				best = w
			}
		}
		sort.Strings(keys)
		elems := make([]json.RawMessage, len(keys))
		for i, k := range keys {
			elems[i] = json.RawMessage(k)
		}
		snap[f], prov[f] = ids.MustMarshal(elems), best.Obs
	}
	return snap, prov
}

// Contributors lists the observations behind a field, best first: the winner for a plain field;
// for a union field, each observation that is the latest source of at least one element.
func (s *State) Contributors(field string) []*Winner {
	if w, ok := s.Fields[field]; ok {
		return []*Winner{w}
	}
	byObs := map[string]*Winner{}
	for _, w := range s.Unions[field] {
		if cur, ok := byObs[w.Obs]; !ok || Better(spec.MergeLatest, w, cur) {
			byObs[w.Obs] = w
		}
	}
	out := make([]*Winner, 0, len(byObs))
	for _, w := range byObs {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return Better(spec.MergeLatest, out[i], out[j]) })
	return out
}

// Reduce computes the state of a whole set of observations.
func Reduce(t *spec.EntityType, obs []Obs) *State {
	s := New()
	for _, o := range obs {
		s.Apply(t, o)
	}
	return s
}

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }
