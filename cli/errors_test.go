package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A cause is shown to the person at the terminal after the message, and sent to programs in
// the envelope's details, never inside the message.
func TestCauseAfterTheMessage(t *testing.T) {
	dir := t.TempDir()
	r := strata(t, dir, `{"text": "unterminated`, "ingest", "-")
	if r.code != 1 || !strings.Contains(r.err, "error: VALIDATION_ERROR: data is not valid JSON (") {
		t.Fatalf("human error: %+v", r)
	}
	r = strata(t, dir, `{"text": "unterminated`, "--json", "ingest", "-")
	var env struct {
		Error struct {
			Message string
			Details map[string]string
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.err), &env); err != nil || env.Error.Message != "data is not valid JSON" || env.Error.Details["cause"] == "" {
		t.Fatalf("json error: %+v (%v)", r, err)
	}
}
