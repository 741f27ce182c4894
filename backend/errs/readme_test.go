package errs

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's error-code table from the registry")

const (
	tableBegin = "<!-- error-codes:begin -->"
	tableEnd   = "<!-- error-codes:end -->"
)

// renderTable is the README's code table, one row per registered code in name order.
func renderTable() string {
	var b strings.Builder
	b.WriteString("| code | HTTP | retry | meaning | default hint |\n|---|---|---|---|---|\n")
	for _, c := range All() {
		retry := "no: a job fails at once"
		if c.Retryable {
			retry = "yes: a job backs off"
		}
		fmt.Fprintf(&b, "| `%s` | %d | %s | %s | %s |\n", c.Name, c.Status, retry, c.Meaning, c.Hint)
	}
	return b.String()
}

// replaceTable puts table between the markers of readme.
func replaceTable(readme []byte, table string) ([]byte, error) {
	i := bytes.Index(readme, []byte(tableBegin))
	j := bytes.Index(readme, []byte(tableEnd))
	if i < 0 || j < i {
		return nil, fmt.Errorf("README.md has no %s … %s section", tableBegin, tableEnd)
	}
	var out bytes.Buffer
	out.Write(readme[:i+len(tableBegin)])
	out.WriteString("\n" + table)
	out.Write(readme[j:])
	return out.Bytes(), nil
}

// TestREADME keeps the README's code table what the registry says. After adding or changing a
// code, run `go test ./backend/errs -run TestREADME -update`.
func TestREADME(t *testing.T) {
	path := filepath.Join(moduleRoot(t), "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := replaceTable(readme, renderTable())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if !bytes.Equal(want, readme) {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if !bytes.Equal(want, readme) {
		t.Fatal("README.md's error-code table differs from the registry: run `go test ./backend/errs -run TestREADME -update`")
	}
}

func TestRenderedTableHasEveryCode(t *testing.T) {
	table := renderTable()
	for _, c := range All() {
		row := fmt.Sprintf("| `%s` | %d |", c.Name, c.Status)
		if !strings.Contains(table, row) {
			t.Errorf("no row for %s", c.Name)
		}
	}
	got, err := replaceTable([]byte("a\n"+tableBegin+"\nold\n"+tableEnd+"\nb\n"), "new\n")
	if err != nil || string(got) != "a\n"+tableBegin+"\nnew\n"+tableEnd+"\nb\n" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := replaceTable([]byte("no markers"), "x"); err == nil {
		t.Fatal("a README without markers passed")
	}
}
