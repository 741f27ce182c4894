package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/search/quality"
)

// corpusCopy copies corpus files (paths relative to the quality corpus) into a fresh folder,
// keeping their relative paths, so a test can change or delete them.
func corpusCopy(t testing.TB, rel ...string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for _, r := range rel {
		b, err := os.ReadFile(filepath.Join(quality.CorpusDir(), r))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, r)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return dir, out
}

var smokeFiles = []string{
	"rust-book/ch04-01-what-is-ownership.html", "rust-book/ch04-02-references-and-borrowing.html", "rust-book/ch04-03-slices.html",
	"rust-book/ch08-01-vectors.html", "rust-book/ch08-02-strings.html", "rust-book/ch15-01-box.html", "rust-book/ch05-01-defining-structs.html",
	"rust-book/ch06-01-defining-an-enum.html", "rust-book/ch11-01-writing-tests.html", "rust-book/ch11-03-test-organization.html",
	"nodejs-api/stream.md", "nodejs-api/fs.md", "nodejs-api/buffer.md", "nodejs-api/events.md",
}

func TestConceptsSmoke(t *testing.T) {
	e := open(t)
	_, paths := corpusCopy(t, smokeFiles...)
	ingestEnriched(t, e, paths...)
	for _, l := range linksOfType(t, e, "CO_OCCURS_WITH") {
		t.Log(l)
	}
	refs := linksOfType(t, e, "REFERS_TO")
	t.Log(len(refs))
	for _, l := range refs[:min(len(refs), 400)] {
		t.Log(l)
	}
	_ = engine.Config{}
	_ = context.Background()
}

func TestConceptsCorpusTiming(t *testing.T) {
	if os.Getenv("STRATA_I14_CORPUS") == "" {
		t.Skip("set STRATA_I14_CORPUS=1: ingests and enriches the whole quality corpus")
	}
	var opts []opt
	if os.Getenv("STRATA_I14_CORPUS") == "off" { // the baseline: both enrichments switched off
		opts = append(opts, withSpecs(fstest.MapFS{"enrichments.yaml": {Data: []byte("enrichments:\n  TagConceptBridger: {enabled: false}\n  CoOccurrence: {enabled: false}\n")}}))
	}
	e := open(t, opts...)
	start := time.Now()
	ingestEnriched(t, e, quality.CorpusDir())
	t.Logf("corpus ingested and enriched in %v", time.Since(start))
	for _, l := range linksOfType(t, e, "CO_OCCURS_WITH") {
		t.Log(l)
	}
	t.Logf("REFERS_TO: %d", len(linksOfType(t, e, "REFERS_TO")))
}
