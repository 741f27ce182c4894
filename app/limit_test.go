package app_test

import (
	"testing"
	"testing/fstest"
)

// TestLimitZeroRefusedOverHTTP: the browser API (and so the desktop bindings, which call the same
// methods) applies the engine's page-size rule: limit 0 is VALIDATION_ERROR naming limit, in a
// request object (Search, Documents) and as a positional argument (Observations, Entities).
func TestLimitZeroRefusedOverHTTP(t *testing.T) {
	a, _ := newApp(t)
	h := a.Handler(fstest.MapFS{"index.html": {Data: []byte("<title>Strata</title>")}})
	for _, c := range []struct {
		method string
		args   []any
	}{
		{"Search", []any{map[string]any{"query": "heron", "limit": 0}}},
		{"Documents", []any{map[string]any{"limit": 0}}},
		{"Entities", []any{"", "", 0, 0}},
		{"Observations", []any{"ent_0123456789abcdef01234567", 0, 0}},
	} {
		code, res, body := post(t, h, c.method, c.args...)
		env, _ := res["error"].(map[string]any)
		d, _ := env["details"].(map[string]any)
		if code != 400 || env["code"] != "VALIDATION_ERROR" || d["field"] != "limit" {
			t.Errorf("%s %v: %d %s", c.method, c.args, code, body)
		}
	}
	// Omitted in a request object: the default.
	if code, res, body := post(t, h, "Documents", map[string]any{}); code != 200 || res["limit"] != float64(100) {
		t.Fatalf("documents without limit: %d %s", code, body)
	}
}
