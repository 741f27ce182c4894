package heuristics

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/extract"
)

// TestTitlesOfRealFiles derives the title of real files that declare none (README, NEWS,
// AUTHORS, changelogs and PDFs from /usr/share/doc, cut to their first 4 KB) and compares it
// with the title a person chose: "" where the text has no title (a changelog entry, a
// sentence, a list of names), so the file name is shown. Precision must stay ≥ 90 %; recall
// is reported.
func TestTitlesOfRealFiles(t *testing.T) {
	raw, err := os.ReadFile("testdata/titles.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]struct{ Title, Reason string }
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/titles/*")
	pdfs, _ := filepath.Glob("testdata/corpus/*.pdf")
	found, right, titled := 0, 0, 0
	for _, path := range append(files, pdfs...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := extract.Read(context.Background(), data, path, extract.Limits{})
		if err != nil || d.Title != "" {
			continue
		}
		got := Title(d.Kind, d.Text)
		w, ok := want[filepath.Base(path)]
		if !ok {
			t.Errorf("%s: no label (derived %q)", filepath.Base(path), got)
			continue
		}
		if w.Title != "" {
			titled++
		}
		if got != "" {
			found++
			if got == w.Title {
				right++
			} else {
				t.Logf("%s: derived %q, want %q", filepath.Base(path), got, w.Title)
			}
		}
	}
	if found == 0 || len(want) < 40 {
		t.Fatalf("%d titles derived from %d labelled files", found, len(want))
	}
	prec, rec := float64(right)/float64(found), float64(right)/float64(max(titled, 1))
	t.Logf("title: derived %d, right %d: precision %.1f%%, recall %.1f%% (of %d files with a title)", found, right, 100*prec, 100*rec, titled)
	if prec < minPrecision {
		t.Errorf("title precision %.1f%% < %.0f%%", 100*prec, 100*minPrecision)
	}
}
