package heuristics

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/extract"
)

// dump writes the facts found in the corpus that are not labelled yet, with their context, to
// testdata/unlabelled.json, for a person to label and move into labelled.json.
var dump = flag.Bool("dump", false, "write unlabelled facts of the corpus to testdata/unlabelled.json")

// Label is one fact of the labelled corpus: found in File, judged Right or not by a person,
// with the reason. Facts are keyed by file, kind and value (not offsets), so the corpus
// survives changes to how readers lay out text.
type Label struct {
	File    string `json:"file"`
	Kind    string `json:"kind"`
	Value   string `json:"value"`
	Right   bool   `json:"right"`
	Reason  string `json:"reason"`
	Context string `json:"context,omitempty"`
}

func (l Label) key() string { return l.File + "\x00" + l.Kind + "\x00" + l.Value }

// minPrecision is the precision each kind must keep on the labelled corpus; a kind that cannot
// reach it is not emitted at all.
const minPrecision = 0.90

// TestLabelledPrecision reads the corpus of real documents (Node.js API Markdown, Rust book
// HTML, program docs, changelogs and PDFs from /usr/share/doc) through the real readers,
// finds facts as the analyzer does, and scores them against facts labelled by hand: precision
// (right among found) per kind must stay ≥ 90 %; recall (found among all right facts labelled,
// which include right facts an earlier, looser scanner found) is reported.
func TestLabelledPrecision(t *testing.T) {
	raw, err := os.ReadFile("testdata/labelled.json")
	if err != nil && !*dump {
		t.Fatal(err)
	}
	var labels []Label
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &labels); err != nil {
			t.Fatal(err)
		}
	}
	byKey := map[string]Label{}
	for _, l := range labels {
		byKey[l.key()] = l
	}
	found := map[string]bool{}
	var unlabelled []Label
	files, err := filepath.Glob("testdata/corpus/*")
	if err != nil || len(files) < 15 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	sort.Strings(files)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := extract.Read(context.Background(), data, path, extract.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, f := range FindDocument(d) {
			l := Label{File: filepath.Base(path), Kind: f.Kind, Value: f.Value}
			if found[l.key()] {
				continue
			}
			found[l.key()] = true
			if _, ok := byKey[l.key()]; !ok {
				l.Context = strings.Join(strings.Fields(d.Text[max(0, f.ByteStart-80):min(len(d.Text), f.ByteEnd+80)]), " ")
				unlabelled = append(unlabelled, l)
			}
		}
	}
	if *dump {
		out, _ := json.MarshalIndent(unlabelled, "", " ")
		if err := os.WriteFile("testdata/unlabelled.json", out, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d unlabelled facts written", len(unlabelled))
		return
	}
	for _, l := range unlabelled {
		t.Errorf("unlabelled fact %s %s %q in %s (run with -dump and label it)", l.File, l.Kind, l.Value, l.Context)
	}
	type score struct{ found, foundRight, right int }
	scores := map[string]*score{}
	for _, l := range labels {
		s := scores[l.Kind]
		if s == nil {
			s = &score{}
			scores[l.Kind] = s
		}
		if l.Right {
			s.right++
		}
		if found[l.key()] {
			s.found++
			if l.Right {
				s.foundRight++
			}
		}
	}
	kinds := make([]string, 0, len(scores))
	for k := range scores {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	if len(labels) < 300 {
		t.Errorf("only %d labelled facts; the corpus needs at least 300", len(labels))
	}
	for _, k := range kinds {
		s := scores[k]
		if s.found == 0 {
			t.Logf("%-8s found   0 (of %d right labelled): precision n/a", k, s.right)
			continue
		}
		prec := float64(s.foundRight) / float64(s.found)
		rec := 1.0
		if s.right > 0 {
			rec = float64(s.foundRight) / float64(s.right)
		}
		t.Logf("%-8s found %3d right %3d  precision %5.1f%%  recall %5.1f%% (of %d right labelled)", k, s.found, s.foundRight, 100*prec, 100*rec, s.right)
		if prec < minPrecision {
			t.Errorf("%s: precision %.1f%% < %.0f%%", k, 100*prec, 100*minPrecision)
		}
	}
}
