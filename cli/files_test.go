package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestFileCommands(t *testing.T) {
	dir, docs := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(docs, "a.md"), []byte("# Alpha\n\nInvoice due 2025-02-01.\n"), 0o644)
	os.MkdirAll(filepath.Join(docs, "sub"), 0o755)
	os.WriteFile(filepath.Join(docs, "sub", "b.txt"), []byte("beta notes"), 0o644)
	os.WriteFile(filepath.Join(docs, "junk.bin"), []byte{0, 1, 2, 3, 0, 0, 255, 254, 0, 7}, 0o644)

	r := strata(t, dir, "", "ingest", "--wait", "--json", docs)
	var res struct {
		Documents []struct {
			Path       string
			DocumentID string `json:"document_id"`
			Status     string
			Phases     map[string]string
			Error      *struct{ Code, Hint string }
		}
		Failed int
	}
	if err := json.Unmarshal([]byte(r.out), &res); err != nil {
		t.Fatalf("ingest --wait --json: %v\n%+v", err, r)
	}
	if r.code != 1 || res.Failed != 1 || len(res.Documents) != 3 {
		t.Fatalf("want 3 documents with 1 failure and exit 1: %+v", r)
	}
	var alpha string
	for _, d := range res.Documents {
		switch filepath.Base(d.Path) {
		case "junk.bin":
			if d.Error == nil || d.Error.Code != "UNSUPPORTED_FILE_TYPE" || d.Error.Hint == "" {
				t.Errorf("junk: %+v", d)
			}
		default:
			if d.Status != "analyzed" || d.Phases["analyze"] != "done" {
				t.Errorf("%s: %+v", d.Path, d)
			}
			if strings.HasSuffix(d.Path, "a.md") {
				alpha = d.DocumentID
			}
		}
	}
	if r := strata(t, dir, "", "documents", "--status", "analyzed"); r.code != 0 || !strings.Contains(r.out, "Alpha") || !strings.Contains(r.out, "(2)") {
		t.Errorf("documents: %+v", r)
	}
	if r := strata(t, dir, "", "document", alpha); r.code != 0 || !strings.Contains(r.out, "lines 1–3") || !strings.Contains(r.out, "analyze=done") {
		t.Errorf("document: %+v", r)
	}
	// The result cites the line of the word it shows (line 3), not its section's first line.
	if r := strata(t, dir, "", "search", "invoice"); r.code != 0 || !strings.Contains(r.out, "a.md:3") || !strings.Contains(r.out, "[Invoice]") {
		t.Errorf("search: %+v", r)
	}
	// A word no document holds: the vectors' weak matches are left out, and the output says
	// nothing matched well enough rather than "No results." under "(N weaker results left out)".
	if r := strata(t, dir, "", "search", "zyxwvutsrq"); r.code != 0 || !strings.Contains(r.out, `Nothing matches "zyxwvutsrq" well enough`) ||
		strings.Contains(r.out, "No results.") {
		t.Errorf("search for an unknown word: %+v", r)
	}
	// --wait waits for the files to be read; what linking has left is said, and it is what
	// `strata enrich status` then counts.
	more := filepath.Join(docs, "more")
	os.MkdirAll(more, 0o755)
	for i := range 40 {
		os.WriteFile(filepath.Join(more, fmt.Sprintf("c%02d.md", i)), []byte(fmt.Sprintf("# Gamma %d\n\nThe invoice %d from Acme is due in March.\n", i, i)), 0o644)
	}
	r = strata(t, dir, "", "ingest", "--wait", more)
	st := strata(t, dir, "", "enrich", "status")
	waiting := regexp.MustCompile(`backlog: (\d+) document`).FindStringSubmatch(st.out)
	if r.code != 0 || waiting == nil {
		t.Fatalf("ingest --wait: %+v\nenrich status: %+v", r, st)
	}
	if said := strings.Contains(r.out, "Linking "+waiting[1]+" document(s)"); said != (waiting[1] != "0") {
		t.Errorf("after --wait, %s document(s) wait for linking; the ingest said:\n%s", waiting[1], r.out)
	}
	if r := strata(t, dir, "", "search"); r.code != 2 {
		t.Errorf("search without a query: %+v", r)
	}
	if r := strata(t, dir, "", "retry", alpha); r.code != 0 || !strings.Contains(r.out, alpha) {
		t.Errorf("retry: %+v", r)
	}
	if r := strata(t, dir, "", "document", "doc_nope"); r.code != 1 || !strings.Contains(r.err, "DOCUMENT_NOT_FOUND") {
		t.Errorf("missing document: %+v", r)
	}
	if r := strata(t, dir, "", "watch", "add", docs); r.code != 0 || !strings.Contains(r.out, "Watching") {
		t.Errorf("watch add: %+v", r)
	}
	if r := strata(t, dir, "", "watch", "list"); r.code != 0 || strings.TrimSpace(r.out) != docs {
		t.Errorf("watch list: %+v", r)
	}
	if r := strata(t, dir, "", "watch", "add", dir); r.code != 1 || !strings.Contains(r.err, "data folder") {
		t.Errorf("watching the data folder must be refused: %+v", r)
	}
	if r := strata(t, dir, "", "watch", "remove", docs); r.code != 0 {
		t.Errorf("watch remove: %+v", r)
	}
	if r := strata(t, dir, "", "watch", "remove", docs); r.code != 1 {
		t.Errorf("removing an unwatched folder: %+v", r)
	}
}
