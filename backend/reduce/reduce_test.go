package reduce_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/strata-app/strata/backend/reduce"
	"github.com/strata-app/strata/backend/spec"
)

var typ = &spec.EntityType{Type: "x", DefaultMerge: spec.MergeLatest, Fields: map[string]spec.FieldPolicy{
	"a": {Merge: spec.MergeLatest}, "b": {Merge: spec.MergeHighestPriority}, "c": {Merge: spec.MergeMostSpecific}, "d": {Merge: spec.MergeUnion}}}

func randomObs(r *rand.Rand, n int) []reduce.Obs {
	var out []reduce.Obs
	for i := 0; i < n; i++ {
		f := map[string]json.RawMessage{}
		for _, k := range []string{"a", "b", "c", "e"} {
			if r.Intn(3) > 0 {
				f[k] = json.RawMessage(fmt.Sprintf(`"v%d"`, r.Intn(5)))
			}
		}
		if r.Intn(2) == 0 {
			f["d"] = json.RawMessage(fmt.Sprintf(`["t%d","t%d"]`, r.Intn(4), r.Intn(4)))
		}
		if r.Intn(5) == 0 {
			f["a"] = json.RawMessage(`null`)
		}
		out = append(out, reduce.Obs{
			ID:             fmt.Sprintf("obs_%03d", r.Intn(1000)),
			ObservedAt:     fmt.Sprintf("2025-01-%02dT00:00:00.000000000Z", 1+r.Intn(3)), // many ties on purpose
			SourcePriority: r.Intn(3) * 10,
			Specificity:    float64(r.Intn(3)) / 2,
			Fields:         f,
		})
	}
	return out
}

// TestOrderIndependence: folding observations in any order gives the same snapshot and
// provenance — the property that makes incremental updates equal a full recompute.
func TestOrderIndependence(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 300; trial++ {
		obs := randomObs(r, 1+r.Intn(12))
		s1, p1 := reduce.Reduce(typ, obs).Snapshot()
		shuffled := append([]reduce.Obs(nil), obs...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		// also through a JSON round trip of the state, as the store does between ingests
		half := len(shuffled) / 2
		st := reduce.Reduce(typ, shuffled[:half])
		b, _ := json.Marshal(st)
		var st2 reduce.State
		if err := json.Unmarshal(b, &st2); err != nil {
			t.Fatal(err)
		}
		if st2.Unions == nil {
			st2.Unions = map[string]map[string]*reduce.Winner{}
		}
		for _, o := range shuffled[half:] {
			st2.Apply(typ, o)
		}
		s2, p2 := st2.Snapshot()
		if !reflect.DeepEqual(s1, s2) || !reflect.DeepEqual(p1, p2) {
			t.Fatalf("trial %d: order changed the result\n%v\n%v", trial, s1, s2)
		}
	}
}

func TestPolicies(t *testing.T) {
	obs := []reduce.Obs{
		{ID: "obs_1", ObservedAt: "2025-01-01", SourcePriority: 90, Specificity: 0.2, Fields: map[string]json.RawMessage{"a": []byte(`1`), "b": []byte(`1`), "c": []byte(`1`), "d": []byte(`["x"]`)}},
		{ID: "obs_2", ObservedAt: "2025-03-01", SourcePriority: 10, Specificity: 0.5, Fields: map[string]json.RawMessage{"a": []byte(`2`), "b": []byte(`2`), "c": []byte(`2`), "d": []byte(`"y"`)}},
		{ID: "obs_3", ObservedAt: "2025-02-01", SourcePriority: 50, Specificity: 0.9, Fields: map[string]json.RawMessage{"a": []byte(`3`), "b": []byte(`3`), "c": []byte(`3`), "d": []byte(`["x","z"]`)}},
		{ID: "obs_0", ObservedAt: "2025-03-01", SourcePriority: 10, Specificity: 0.5, Fields: map[string]json.RawMessage{"a": []byte(`0`), "d": []byte(`null`)}},
	}
	snap, prov := reduce.Reduce(typ, obs).Snapshot()
	want := map[string]string{"a": "0", "b": "1", "c": "3", "d": `["x","y","z"]`}
	for f, v := range want {
		if string(snap[f]) != v {
			t.Errorf("%s = %s, want %s", f, snap[f], v)
		}
	}
	// a: obs_0 and obs_2 tie on every criterion; the smaller ID wins.
	if prov["a"] != "obs_0" || prov["b"] != "obs_1" || prov["c"] != "obs_3" || prov["d"] != "obs_2" {
		t.Errorf("provenance %v", prov)
	}
	// x is sourced by obs_3 (later than obs_1), y by obs_2, z by obs_3.
	if got := reduce.Reduce(typ, obs).Contributors("d"); len(got) != 2 || got[0].Obs != "obs_2" {
		t.Errorf("union contributors %d", len(got))
	}
}
