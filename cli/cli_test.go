package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/cli"
	"github.com/strata-app/strata/internal/testenv"
)

type run struct {
	code     int
	out, err string
}

func strata(t *testing.T, dir, stdin string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(context.Background(), append([]string{"--data", dir}, args...), cli.IO{In: strings.NewReader(stdin), Out: &out, Err: &errb, Getenv: testenv.Getenv()}, nil, nil)
	return run{code, out.String(), errb.String()}
}

func TestIngestAndReadBack(t *testing.T) {
	dir := t.TempDir()
	r := strata(t, dir, `{"text": "Quarterly review with Acme", "tags": ["acme"]}`, "ingest", "--json", "-")
	if r.code != 0 {
		t.Fatalf("ingest: %d %s", r.code, r.err)
	}
	var res struct {
		EntityIDs []string `json:"entity_ids"`
		Created   bool     `json:"created"`
	}
	// One entity: the document. The tag's concept is derived afterwards, by the
	// TagConceptBridger enrichment's job, not by the ingest.
	if err := json.Unmarshal([]byte(r.out), &res); err != nil || !res.Created || len(res.EntityIDs) != 1 {
		t.Fatalf("ingest output %q: %v", r.out, err)
	}
	r = strata(t, dir, `{"text": "Quarterly review with Acme", "tags": ["acme"]}`, "ingest", "-")
	if r.code != 0 || !strings.Contains(r.out, "Duplicate payload") {
		t.Fatalf("duplicate: %+v", r)
	}
	doc := res.EntityIDs[0]
	r = strata(t, dir, `{"text": "Agenda for the Acme review"}`, "ingest", "--json", "-")
	var other struct {
		EntityIDs []string `json:"entity_ids"`
	}
	if err := json.Unmarshal([]byte(r.out), &other); err != nil || len(other.EntityIDs) != 1 {
		t.Fatalf("second ingest %q: %v", r.out, err)
	}
	r = strata(t, dir, "", "entity", "get", doc)
	if r.code != 0 || !strings.Contains(r.out, "Quarterly review with Acme") || !strings.Contains(r.out, "document") {
		t.Fatalf("entity get: %+v", r)
	}
	r = strata(t, dir, "", "entity", "get", doc, "--at", "2000-01-01", "--json")
	if r.code != 0 || !strings.Contains(r.out, `"observation_count": 0`) {
		t.Fatalf("entity get --at: %+v", r)
	}
	for _, args := range [][]string{
		{"entity", "observations", doc}, {"entity", "provenance", doc, "title"}, {"entity", "list", "--type", "concept"},
		{"rel", "list", doc}, {"rel", "create", "REFERS_TO", other.EntityIDs[0], doc}, {"status"}, {"status", "--json"}, {"version"},
	} {
		if r := strata(t, dir, "", args...); r.code != 0 || r.out == "" {
			t.Errorf("%v: %+v", args, r)
		}
	}
	r = strata(t, dir, "", "status", "--json")
	var st struct {
		Counts struct{ Payloads, Relationships int } `json:"counts"`
	}
	json.Unmarshal([]byte(r.out), &st)
	if st.Counts.Payloads != 2 || st.Counts.Relationships != 1 {
		t.Fatalf("status: %s", r.out)
	}
}

func TestExitCodesAndEnvelopes(t *testing.T) {
	dir := t.TempDir()
	// Engine errors: exit 1; with --json the envelope goes to stderr and stdout stays empty.
	r := strata(t, dir, `{"hello": "world"}`, "--json", "ingest", "-")
	var env struct {
		Error struct{ Code, Message, Hint string } `json:"error"`
	}
	if r.code != 1 || r.out != "" || json.Unmarshal([]byte(r.err), &env) != nil || env.Error.Code != "VALIDATION_ERROR" || env.Error.Hint == "" {
		t.Fatalf("json error: %+v", r)
	}
	r = strata(t, dir, "", "entity", "get", "ent_0123456789abcdef01234567")
	if r.code != 1 || !strings.Contains(r.err, "ENTITY_NOT_FOUND") || !strings.Contains(r.err, "hint:") {
		t.Fatalf("human error: %+v", r)
	}
	r = strata(t, dir, "", "rel", "create", "LIKES", "ent_0123456789abcdef01234567", "ent_0123456789abcdef01234567")
	if r.code != 1 || !strings.Contains(r.err, "INVALID_RELATIONSHIP_TYPE") {
		t.Fatalf("rel create: %+v", r)
	}
	// Usage errors: exit 2.
	for _, args := range [][]string{
		{"entity", "get"}, {"entity", "bogus"}, {"frobnicate"}, {"ingest", "-", "file.json"}, {"ingest", "--kind", "content", "a.md"}, {"status", "--nope"},
		{"rel", "create", "PART_OF"}, {"entity", "list", "--limit", "many"},
	} {
		if r := strata(t, dir, "", args...); r.code != 2 || r.err == "" {
			t.Errorf("%v: want exit 2, got %+v", args, r)
		}
	}
	// A path that fails: its result is printed, and the exit code is 1.
	if r := strata(t, dir, "", "ingest", "no-such-file.md"); r.code != 1 || !strings.Contains(r.out, "FILE_NOT_FOUND") {
		t.Errorf("missing file: %+v", r)
	}
	// Without a GUI, no command prints help and exits 0.
	if r := strata(t, dir, ""); r.code != 0 || !strings.Contains(r.out, "Available Commands") {
		t.Fatalf("no command: %+v", r)
	}
}

// TestDocumentSaysWhyNothingWasIndexed: an empty file is "analyzed" with nothing to index, and
// `strata document` says so instead of a bare status.
func TestDocumentSaysWhyNothingWasIndexed(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := strata(t, dir, "", "--json", "ingest", "--wait", empty)
	var res struct {
		Documents []struct {
			DocumentID string `json:"document_id"`
		} `json:"documents"`
	}
	if err := json.Unmarshal([]byte(r.out), &res); err != nil || len(res.Documents) != 1 {
		t.Fatalf("ingest: %d %s %s %v", r.code, r.out, r.err, err)
	}
	if d := strata(t, dir, "", "document", res.Documents[0].DocumentID); !strings.Contains(d.out, "note      empty — nothing to index") {
		t.Fatalf("document:\n%s%s", d.out, d.err)
	}
}
