package cli_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

const heronNote = `{"title": "Heron survey", "text": "# Heron survey\n\nThe grey heron colony by the river rose to 42 nests this spring.\nKingfishers were seen twice.\n"}`

// otherNotes are what the store holds besides the note a test asks about: a store of one note
// has no word statistics to tell a telling word from a common one, and answers nothing.
var otherNotes = []string{
	`{"title": "Otter notes", "text": "Spraint was found under the footbridge twice in June, the first sign of otters since 2019."}`,
	`{"title": "Reed beds", "text": "The reed beds along the eastern bank were cut back in February to let new shoots through."}`,
}

// invoiceBy is one agent's invoice INV-42 from Acme: two agents giving two amounts is a
// contradiction nothing explains.
func invoiceBy(agent, amount string) string {
	return `{"capability_id": "strata:store_invoice:v1", "body": {"invoice_number": "INV-42", "vendor_name": "Acme GmbH", "amount": ` + amount +
		`, "currency": "EUR", "invoice_date": "2025-03-01"}, "provenance": {"source_refs": [], "extracted_at": "2025-03-02T00:00:00Z", "extractor_version": "` +
		agent + `:v1", "agent_id": "` + agent + `"}}`
}

// TestAskCommand: `strata ask` prints the answer with its [n], then the sources with their
// place and quote; --json is the engine's answer; --persist saves it once; bad flags exit 1
// (the engine's refusal) or 2 (the command line).
func TestAskCommand(t *testing.T) {
	dir := t.TempDir()
	for _, in := range append([]string{heronNote}, otherNotes...) {
		if r := strata(t, dir, in, "ingest", "-"); r.code != 0 {
			t.Fatalf("ingest: %+v", r)
		}
	}
	r := strata(t, dir, "", "ask", "how", "many", "nests", "did", "the", "heron", "colony", "have?")
	if r.code != 0 || !regexp.MustCompile(`(?s)^[^\n]*42[^\n]*\[1\].*\nSources\n  \[1\] Heron survey:\d+\n      “[^”]*42 nests[^”]*”\n.*\(extractive\)\n$`).MatchString(r.out) {
		t.Fatalf("ask:\n%s%s", r.out, r.err)
	}
	var a struct {
		Answer    string `json:"answer"`
		Mode      string `json:"mode"`
		Citations []struct {
			N          int    `json:"n"`
			DocumentID string `json:"document_id"`
			LineStart  int    `json:"line_start"`
			Quote      string `json:"quote"`
		} `json:"citations"`
		DocumentID string `json:"document_id"`
		Created    *bool  `json:"created"`
	}
	r = strata(t, dir, "", "ask", "--json", "--max-passages", "3", "--format", "summary_with_sources", "heron nests")
	if r.code != 0 || json.Unmarshal([]byte(r.out), &a) != nil || len(a.Citations) == 0 || a.Citations[0].N != 1 || !strings.Contains(a.Answer, "\n[1] ") {
		t.Fatalf("ask --json: %+v", r)
	}
	r = strata(t, dir, "", "ask", "--persist", "heron nests")
	m := regexp.MustCompile(`\nsaved as document (doc_\w+)\n$`).FindStringSubmatch(r.out)
	if r.code != 0 || m == nil {
		t.Fatalf("ask --persist:\n%s%s", r.out, r.err)
	}
	if r := strata(t, dir, "", "ask", "--persist", "heron nests"); r.code != 0 || !strings.HasSuffix(r.out, "saved before as document "+m[1]+" (the same answer)\n") {
		t.Fatalf("ask --persist again:\n%s%s", r.out, r.err)
	}
	// Nothing answers: "Not found", what is missing, and the closest passages marked as no
	// answer (issue 24); no sources, since nothing is cited.
	if r := strata(t, dir, "", "ask", "zqxjv wombat tariffs"); r.code != 0 || !strings.HasPrefix(r.out, "Not found: no passage says “zqxjv”") ||
		!strings.Contains(r.out, "Closest passages (not an answer)") || strings.Contains(r.out, "Sources") {
		t.Fatalf("nothing answers:\n%s%s", r.out, r.err)
	}

	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"ask"}, 2, "want a QUESTION"},
		{[]string{"ask", "--max-passages", "0", "x"}, 1, "VALIDATION_ERROR"},
		{[]string{"ask", "--max-passages", "21", "x"}, 1, "VALIDATION_ERROR"},
		{[]string{"ask", "--max-passages", "many", "x"}, 2, "invalid argument"},
		{[]string{"ask", "--format", "html", "x"}, 1, "VALIDATION_ERROR"},
		{[]string{"ask", "--from", "yesterday", "x"}, 1, "VALIDATION_ERROR"},
		{[]string{"ask", "--scope", "all", "x"}, 2, "unknown flag"},
	} {
		if r := strata(t, dir, "", c.args...); r.code != c.code || !strings.Contains(r.err, c.err) {
			t.Errorf("%v: want exit %d with %q, got %+v", c.args, c.code, c.err, r)
		}
	}
	// --json errors are the envelope on stderr, nothing on stdout.
	r = strata(t, dir, "", "--json", "ask", "--format", "html", "x")
	var env struct {
		Error struct{ Code, Hint string } `json:"error"`
	}
	if r.code != 1 || r.out != "" || json.Unmarshal([]byte(r.err), &env) != nil || env.Error.Code != "VALIDATION_ERROR" {
		t.Fatalf("ask --json error: %+v", r)
	}
}

// TestLintCommand: `strata lint` counts every kind and prints the planted contradiction under
// its kind with both values, their sources and the one shown today; --kind, paging, --json,
// --publish; bad flags exit 1 or 2.
func TestLintCommand(t *testing.T) {
	dir := t.TempDir()
	// A bank transaction nothing links: an orphan, so that there are two findings to page.
	transaction := `{"capability_id": "strata:store_transaction:v1", "body": {"transaction_id": "T-1", "amount": 12, "date": "2025-02-01"},
		"provenance": {"source_refs": [], "extracted_at": "2025-02-01T09:00:00Z", "extractor_version": "bank:v1", "agent_id": "bank-sync"}}`
	for _, in := range []string{heronNote, invoiceBy("claude", "1500"), invoiceBy("cursor", "1540"), transaction} {
		if r := strata(t, dir, in, "ingest", "-"); r.code != 0 {
			t.Fatalf("ingest: %+v", r)
		}
	}
	r := strata(t, dir, "", "lint")
	if r.code != 0 || !regexp.MustCompile(`^\d+ finding\(s\): contradiction [1-9]\d*, stale \d+, missing_link \d+, undocumented_concept \d+, orphan \d+  \(scope all, stale after 90 days\)\n`).MatchString(r.out) ||
		!regexp.MustCompile(`\nContradictions: [^\n]*\n  high +[^\n]*\n +1500 [^\n]*\n +1540 [^\n]*\n`).MatchString(r.out) || strings.Count(r.out, "(shown today)") < 1 {
		t.Fatalf("lint:\n%s%s", r.out, r.err)
	}
	var rep struct {
		Findings []struct {
			Kind   string `json:"kind"`
			Values []struct {
				Shown bool `json:"shown"`
			} `json:"values"`
		} `json:"findings"`
		Total  int            `json:"total"`
		Limit  int            `json:"limit"`
		Counts map[string]int `json:"counts"`
	}
	r = strata(t, dir, "", "lint", "--json", "--kind", "contradiction", "--scope", "entities", "--staleness-days", "30", "--limit", "1")
	if r.code != 0 || json.Unmarshal([]byte(r.out), &rep) != nil || rep.Limit != 1 || len(rep.Findings) != 1 || rep.Findings[0].Kind != "contradiction" ||
		len(rep.Findings[0].Values) != 2 || rep.Counts["contradiction"] < 1 {
		t.Fatalf("lint --json --kind contradiction: %+v", r)
	}
	if r := strata(t, dir, "", "lint", "--limit", "1"); r.code != 0 || !regexp.MustCompile(`\n\(1–1 of \d+; use --offset to see more\)\n(\(\d+ document\(s\) still being read or linked: not checked for orphans and missing links until then\)\n)?$`).MatchString(r.out) {
		t.Fatalf("lint --limit 1:\n%s%s", r.out, r.err)
	}
	if r := strata(t, dir, "", "lint", "--publish"); r.code != 0 || !regexp.MustCompile(`\nreport published as document doc_\w+\n$`).MatchString(r.out) {
		t.Fatalf("lint --publish:\n%s%s", r.out, r.err)
	}
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"lint", "everything"}, 2, "no arguments"},
		{[]string{"lint", "--limit", "0"}, 1, "VALIDATION_ERROR"},
		{[]string{"lint", "--limit", "1001"}, 1, "VALIDATION_ERROR"},
		{[]string{"lint", "--offset", "-1"}, 1, "VALIDATION_ERROR"},
		{[]string{"lint", "--staleness-days", "0"}, 1, "VALIDATION_ERROR"},
		{[]string{"lint", "--scope", "world"}, 1, "VALIDATION_ERROR"},
		{[]string{"lint", "--kind", "typo"}, 1, "VALIDATION_ERROR"},
		{[]string{"lint", "--persist"}, 2, "unknown flag"},
	} {
		if r := strata(t, dir, "", c.args...); r.code != c.code || !strings.Contains(r.err, c.err) {
			t.Errorf("%v: want exit %d with %q, got %+v", c.args, c.code, c.err, r)
		}
	}
}

// TestLintCleanStore: an empty store has nothing to report, and says so.
func TestLintCleanStore(t *testing.T) {
	r := strata(t, t.TempDir(), "", "lint")
	if r.code != 0 || !strings.Contains(r.out, "Nothing to report") || !strings.HasPrefix(r.out, "0 finding(s): contradiction 0, stale 0, missing_link 0, undocumented_concept 0, orphan 0") {
		t.Fatalf("lint on an empty store:\n%s%s", r.out, r.err)
	}
}
