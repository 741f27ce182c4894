package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/enrich"
	"github.com/strata-app/strata/backend/store"
)

// simCorpus is the quality corpus: real documents (the Rust book as chapters and as one page,
// Node.js API pages as Markdown and HTML, Debian texts, PDFs, byte-identical copies).
func simCorpus(t testing.TB, rel ...string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(append([]string{"..", "search", "quality", "testdata", "corpus"}, rel...)...))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// simEdit is a light edit of a text, as research i14 made one: every 12th line dropped (a
// line of prose: one holding markup stays, or the HTML would no longer be the same page),
// " the " → " a ", one paragraph appended.
func simEdit(t testing.TB, src string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, l := range strings.Split(string(b), "\n") {
		if i%12 == 11 && !strings.ContainsAny(l, "<>") {
			continue
		}
		out = append(out, strings.ReplaceAll(l, " the ", " a "))
	}
	return strings.Join(out, "\n") + "\n\nThis copy was edited for a review and keeps most of the text above as it was.\n"
}

// simLink is one derived link of EmbeddingSimilarity with its ends' paths.
type simLink struct {
	Type, Src, Tgt string
	Score          float64
	Evidence       []enrich.Evidence
	Meta           map[string]any
}

func simLinks(t testing.TB, e *engine.Engine) []simLink {
	t.Helper()
	rows, err := e.DB().Reader().QueryContext(context.Background(), `SELECT l.relationship_type,
			coalesce((SELECT path FROM documents WHERE entity_id = l.source_entity_id), l.source_entity_id),
			coalesce((SELECT path FROM documents WHERE entity_id = l.target_entity_id), l.target_entity_id),
			l.score, l.evidence, coalesce(l.metadata, '{}')
		FROM derived_links l WHERE l.enrichment = 'EmbeddingSimilarity' ORDER BY l.relationship_type, l.score DESC, l.link_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []simLink
	for rows.Next() {
		var l simLink
		var ev, meta string
		if err := rows.Scan(&l.Type, &l.Src, &l.Tgt, &l.Score, &ev, &meta); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(ev), &l.Evidence); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(meta), &l.Meta); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// simFind is the link of typ between the documents whose paths end in a and b (either
// direction for SIMILAR_TO), or nil.
func simFind(links []simLink, typ, a, b string) *simLink {
	for i, l := range links {
		if l.Type != typ {
			continue
		}
		if strings.HasSuffix(l.Src, a) && strings.HasSuffix(l.Tgt, b) ||
			typ == enrich.TypeSimilar && strings.HasSuffix(l.Src, b) && strings.HasSuffix(l.Tgt, a) {
			return &links[i]
		}
	}
	return nil
}

func simDump(t testing.TB, links []simLink) {
	t.Helper()
	for _, l := range links {
		t.Logf("%s %s → %s %.3f", l.Type, simShortPath(l.Src), simShortPath(l.Tgt), l.Score)
	}
}

func simShortPath(p string) string {
	if i := strings.Index(p, "corpus/"); i >= 0 {
		return p[i+len("corpus/"):]
	}
	return filepath.Base(p)
}

// simDocVector reads a document's vector in the static space from doc_vectors.
func simDocVector(t testing.TB, e *engine.Engine, path string) []float32 {
	t.Helper()
	var blob []byte
	err := e.DB().Reader().QueryRowContext(context.Background(), `SELECT v.vector FROM doc_vectors v JOIN documents d ON d.document_id = v.document_id
		WHERE d.path = ? AND v.space LIKE 'static/%' AND v.vector IS NOT NULL`, path).Scan(&blob)
	if err != nil {
		t.Fatalf("vector of %s: %v", path, err)
	}
	return store.DecodeVector(blob)
}

func simCos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func simSubcorpus(p string) string {
	switch {
	case strings.Contains(p, "/rust-book/"):
		return "rust"
	case strings.Contains(p, "nodejs"):
		return "node"
	case strings.Contains(p, "/copies/"), strings.Contains(p, "edited"):
		return "copy"
	}
	return "debian"
}

// TestSimilarKnownAnswers derives the links of the whole quality corpus (the Rust book as
// chapters and as print.html, byte-identical copies, Node.js API pages in Markdown and HTML,
// Debian texts, PDFs) plus a lightly edited chapter, and checks issue 14's and research i14's
// known answers.
func TestSimilarKnownAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests a hundred real documents")
	}
	dir := t.TempDir()
	edited := write(t, filepath.Join(dir, "ch04-02-edited.html"), simEdit(t, simCorpus(t, "rust-book", "ch04-02-references-and-borrowing.html")))
	// Of identical files the older is the original (then the path): a fresh checkout gives
	// the corpus's copies and originals one mtime, and copies/… sorts first. The copies are
	// made a day newer here, as a backup is, and put back when the test ends.
	for _, c := range [][2]string{{"copies/backup/ch04-01-what-is-ownership.html", "rust-book/ch04-01-what-is-ownership.html"},
		{"copies/events.md", "nodejs-api/events.md"}} {
		cp, orig := simCorpus(t, c[0]), simCorpus(t, c[1])
		was, err := os.Stat(cp)
		if err != nil {
			t.Fatal(err)
		}
		o, err := os.Stat(orig)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(cp, o.ModTime().Add(24*time.Hour), o.ModTime().Add(24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chtimes(cp, was.ModTime(), was.ModTime()) }) // best effort: only the mtime was touched
	}
	e := open(t)
	// The originals first: a byte-identical file registered later is the copy.
	ingestEnriched(t, e, simCorpus(t, "rust-book"), simCorpus(t, "nodejs-api"), simCorpus(t, "nodejs-api-html"))
	var debian []string
	for _, f := range []string{"license-gpl-2.txt", "license-lgpl-2.1.txt", "license-gpl-3.txt", "license-bsd.txt", "license-apache-2.0.txt",
		"debian-copyright-curl.txt", "man-bzip2.txt", "man-tar.txt", "man-grep.txt"} {
		debian = append(debian, simCorpus(t, f))
	}
	start := time.Now()
	ingestEnriched(t, e, simCorpus(t), edited) // the rest of the corpus: Debian texts, PDFs, the copies
	t.Logf("the rest of the corpus ingested and enriched in %v", time.Since(start))
	links := simLinks(t, e)
	if testing.Verbose() {
		simDump(t, links)
	}

	// The byte-identical copies are DUPLICATE_OF their originals, because they have the same bytes.
	for _, c := range [][2]string{{"copies/backup/ch04-01-what-is-ownership.html", "rust-book/ch04-01-what-is-ownership.html"},
		{"copies/events.md", "nodejs-api/events.md"}} {
		l := simFind(links, enrich.TypeDuplicateOf, c[0], c[1])
		if l == nil || l.Score != 1 || l.Meta["rule"] != "same_bytes" || len(l.Evidence) != 2 || l.Evidence[0].Field != "content_hash" {
			t.Errorf("%s must be DUPLICATE_OF %s by its bytes: %+v", c[0], c[1], l)
		}
	}
	// A lightly edited version is DUPLICATE_OF the older one (research: containment 0.860 / 0.881).
	if l := simFind(links, enrich.TypeDuplicateOf, "ch04-02-edited.html", "rust-book/ch04-02-references-and-borrowing.html"); l == nil ||
		l.Meta["rule"] != "near_identical" || l.Score < 0.8 {
		t.Errorf("the edited chapter must be DUPLICATE_OF its original: %+v", l)
	}
	// A text and its PDF, a Markdown page and its faithful HTML export are near-identical too.
	if simFind(links, enrich.TypeDuplicateOf, "nodejs-api-html/path.html", "nodejs-api/path.md") == nil &&
		simFind(links, enrich.TypeDuplicateOf, "nodejs-api/path.md", "nodejs-api-html/path.html") == nil {
		t.Error("path.md and its HTML export must be DUPLICATE_OF one another")
	}
	// Chapters are CONTAINED_IN the one-page book, and never SIMILAR_TO it.
	if l := simFind(links, enrich.TypeContainedIn, "rust-book/ch04-01-what-is-ownership.html", "rust-book/print.html"); l == nil || l.Score < 0.9 {
		t.Errorf("ch04-01 must be CONTAINED_IN print.html: %+v", l)
	}
	if l := simFind(links, enrich.TypeContainedIn, "man-bzip2.txt", "pdf/bzip2-manual.pdf"); l == nil {
		t.Error("the bzip2 man page must be CONTAINED_IN the bzip2 manual")
	}
	printLinks := 0
	for _, l := range links {
		if l.Type != enrich.TypeSimilar {
			continue
		}
		if strings.HasSuffix(l.Src, "print.html") || strings.HasSuffix(l.Tgt, "print.html") {
			printLinks++
			if strings.Contains(l.Src, "/rust-book/ch") || strings.Contains(l.Tgt, "/rust-book/ch") {
				t.Errorf("a chapter SIMILAR_TO the book that holds it: %s → %s", simShortPath(l.Src), simShortPath(l.Tgt))
			}
		}
		// No link across sub-corpora (a licence and a Rust chapter).
		if a, b := simSubcorpus(l.Src), simSubcorpus(l.Tgt); a != b && a != "copy" && b != "copy" {
			t.Errorf("SIMILAR_TO across sub-corpora: %s → %s (%.3f)", simShortPath(l.Src), simShortPath(l.Tgt), l.Score)
		}
		if len(l.Evidence) != 2 || l.Evidence[0].Kind != "chunk" || l.Evidence[0].Quote == "" || l.Evidence[0].LineStart == 0 ||
			l.Evidence[1].Path == "" || !strings.HasPrefix(l.Meta["space"].(string), "static/") {
			t.Errorf("SIMILAR_TO %s → %s needs its best chunk pair as evidence and its space: %+v %v", simShortPath(l.Src), simShortPath(l.Tgt), l.Evidence, l.Meta)
		}
	}
	if printLinks > 5 {
		t.Errorf("print.html is a hub of %d SIMILAR_TO links", printLinks)
	}
	// Chapters that cite each other are SIMILAR_TO, above unrelated pairs.
	strong := simFind(links, enrich.TypeSimilar, "rust-book/ch04-01-what-is-ownership.html", "rust-book/ch04-02-references-and-borrowing.html")
	if strong == nil || strong.Score < 0.65 {
		t.Fatalf("ch04-01 ~ ch04-02 (0.697 in research) must be SIMILAR_TO: %+v", strong)
	}
	var sum float64
	var n int
	for _, r := range []string{"ch04-01-what-is-ownership.html", "ch04-02-references-and-borrowing.html"} {
		v := simDocVector(t, e, simCorpus(t, "rust-book", r))
		for _, d := range debian {
			c := simCos(v, simDocVector(t, e, d))
			if c >= strong.Score {
				t.Errorf("unrelated %s ~ %s scores %.3f, above the chapters' %.3f", r, filepath.Base(d), c, strong.Score)
			}
			sum += c
			n++
		}
	}
	var simSum float64
	var simN int
	for _, l := range links {
		if l.Type == enrich.TypeSimilar && simSubcorpus(l.Src) == "rust" && simSubcorpus(l.Tgt) == "rust" {
			simSum += l.Score
			simN++
		}
	}
	if simN < 10 || simSum/float64(simN) <= sum/float64(n)+0.15 {
		t.Errorf("Rust SIMILAR_TO links (%d, mean %.3f) must score well above unrelated pairs (mean %.3f)", simN, simSum/float64(simN), sum/float64(n))
	}
	t.Logf("%d links; Rust SIMILAR_TO mean %.3f over %d; unrelated chapter~Debian mean %.3f", len(links), simSum/float64(simN), simN, sum/float64(n))

	// Idempotent: enriching everything again changes nothing.
	before := derivedRows(t, e)
	start = time.Now()
	res, err := e.RunEnrichment(context.Background(), "EmbeddingSimilarity")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("EmbeddingSimilarity over %d documents again: %v", res.Documents, time.Since(start))
	if res.Changed != 0 {
		t.Errorf("a second run changed %d rows", res.Changed)
	}
	if _, err := e.RunEnrichment(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if after := derivedRows(t, e); !slices.Equal(before, after) {
		t.Errorf("a second run changed the links: %d rows before, %d after:\n%s", len(before), len(after), rowDiff(before, after))
	}
}

// simFolder copies corpus files into a folder of its own (so that a test can change and
// delete them), each with the same fixed mtime, and returns their paths in order.
func simFolder(t testing.TB, dir string, rel ...string) []string {
	t.Helper()
	mtime := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	var out []string
	for _, r := range rel {
		b, err := os.ReadFile(simCorpus(t, r))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, strings.ReplaceAll(r, "/", "_"))
		write(t, p, string(b))
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

var simOrderFiles = []string{
	"rust-book/ch04-00-understanding-ownership.html", "rust-book/ch04-01-what-is-ownership.html", "rust-book/ch04-02-references-and-borrowing.html",
	"rust-book/ch05-01-defining-structs.html", "rust-book/ch05-02-example-structs.html", "rust-book/ch05-03-method-syntax.html",
	"rust-book/ch06-01-defining-an-enum.html", "rust-book/ch06-02-match.html", "rust-book/ch08-01-vectors.html", "rust-book/ch08-02-strings.html",
	"rust-book/ch08-03-hash-maps.html", "rust-book/ch10-01-syntax.html", "rust-book/ch10-02-traits.html", "rust-book/ch10-03-lifetime-syntax.html",
	"rust-book/ch13-01-closures.html", "rust-book/ch13-02-iterators.html", "rust-book/print.html",
	"nodejs-api/os.md", "nodejs-api/path.md", "nodejs-api/events.md", "nodejs-api/stream.md", "nodejs-api/fs.md",
	"nodejs-api-html/path.html", "nodejs-api-html/os.html",
	"license-gpl-2.txt", "license-lgpl-2.1.txt", "license-gpl-3.txt", "license-bsd.txt", "debian-copyright-curl.txt",
	"man-bzip2.txt", "pdf/bzip2-manual.pdf",
}

// TestSimilarSameLinksInAnyOrder builds two stores of one folder: one file at a time in one
// order, with documents that are added and then removed on the way, and all at once in the
// reverse order (top 2, so that rankings change often). Mutual top k depends on every neighbour, so only a run that recomputes the
// neighbours whose top k a document enters or leaves gives the same links both ways.
func TestSimilarSameLinksInAnyOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two stores of real documents")
	}
	dir := t.TempDir()
	files := simFolder(t, dir, simOrderFiles...)
	extra := simFolder(t, dir, "rust-book/ch04-03-slices.html", "rust-book/ch10-00-generics.html", "rust-book/ch13-03-improving-our-io-project.html",
		"rust-book/ch08-00-common-collections.html")
	edited := write(t, filepath.Join(dir, "ch04-02-edited.html"), simEdit(t, files[2]))
	files = append(files, edited)

	// top 2: neighbours' rankings change at almost every arrival and removal.
	top2 := withSpecs(fstest.MapFS{"enrichments.yaml": {Data: []byte("enrichments:\n  EmbeddingSimilarity:\n    top_k: 2\n")}})
	a := open(t, top2)
	for i, f := range files {
		ingestEnriched(t, a, f)
		if i%8 == 4 {
			ingestEnriched(t, a, extra[i/8])
		}
	}
	for _, x := range extra {
		if err := os.Remove(x); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := a.Reconcile(context.Background(), local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, a)

	b := open(t, top2)
	rev := slices.Clone(files)
	slices.Reverse(rev)
	ingestEnriched(t, b, rev...)

	ra, rb := derivedRows(t, a), derivedRows(t, b)
	if !slices.Equal(ra, rb) {
		for _, r := range ra {
			if !slices.Contains(rb, r) {
				t.Logf("only in the first: %.240s", r)
			}
		}
		for _, r := range rb {
			if !slices.Contains(ra, r) {
				t.Logf("only in the second: %.240s", r)
			}
		}
		t.Fatalf("two builds of one folder differ: %d and %d rows", len(ra), len(rb))
	}
	sims := 0
	for _, r := range ra {
		if strings.Contains(r, " SIMILAR_TO ") {
			sims++
		}
	}
	if sims < 5 {
		t.Fatalf("too few SIMILAR_TO links to prove anything: %d", sims)
	}
	// The removed documents left nothing behind.
	var n int
	if err := a.DB().Reader().QueryRowContext(context.Background(), `SELECT count(*) FROM derived_links l JOIN documents d
		ON d.entity_id IN (l.source_entity_id, l.target_entity_id) WHERE d.status = 'removed'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d derived links still have a removed document at an end", n)
	}
	t.Logf("%d derived rows, %d SIMILAR_TO, identical in both orders", len(ra), sims)
}

// TestSimilarChangedDocument changes a file from an edited chapter to an edited Node.js page:
// its links are derived again, and the store holds exactly what a store built from the
// final files holds.
func TestSimilarChangedDocument(t *testing.T) {
	dir := t.TempDir()
	files := simFolder(t, dir, "rust-book/ch04-01-what-is-ownership.html", "rust-book/ch04-02-references-and-borrowing.html",
		"rust-book/ch04-03-slices.html", "nodejs-api/os.md", "nodejs-api/path.md", "nodejs-api-html/path.html")
	f := write(t, filepath.Join(dir, "notes.html"), simEdit(t, files[1]))
	e := open(t)
	ingestEnriched(t, e, append(files, f)...)
	if simFind(simLinks(t, e), enrich.TypeDuplicateOf, "notes.html", "references-and-borrowing.html") == nil {
		t.Fatalf("the edited chapter must be DUPLICATE_OF its original: %v", simLinks(t, e))
	}
	// The file becomes an edited os.md (in Markdown: another document altogether).
	os.Remove(f)
	f = write(t, filepath.Join(dir, "notes.md"), simEdit(t, files[3]))
	if _, _, err := e.Reconcile(context.Background(), local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, e)
	links := simLinks(t, e)
	if simFind(links, enrich.TypeDuplicateOf, "notes.html", "references-and-borrowing.html") != nil {
		t.Fatal("the old version's link outlived it")
	}
	if simFind(links, enrich.TypeDuplicateOf, "notes.md", "nodejs-api_os.md") == nil {
		simDump(t, links)
		t.Fatal("the new version must be DUPLICATE_OF os.md")
	}
	fresh := open(t)
	ingestEnriched(t, fresh, append(files, f)...)
	if got, want := derivedRows(t, e), derivedRows(t, fresh); !slices.Equal(got, want) {
		t.Fatalf("after the change the store holds %d rows, a fresh build %d", len(got), len(want))
	}
}

// TestSimilarFollowsTheSpaceSwitch: when Ollama's space is complete and answers, every link is
// derived again there, with the thresholds of that space's family from enrichments.yaml.
func TestSimilarFollowsTheSpaceSwitch(t *testing.T) {
	fake := newFakeEmbedder()
	fake.up.Store(true)
	srv := httptest.NewServer(fake)
	defer srv.Close()
	yaml := "enrichments:\n  EmbeddingSimilarity:\n    spaces:\n      ollama:\n        similar_min: 0.3\n"
	e := open(t, withOllama(srv.URL), withSpecs(fstest.MapFS{"enrichments.yaml": {Data: []byte(yaml)}}),
		func(c *engine.Config) { c.ProbeInterval = 50 * time.Millisecond })
	dir := t.TempDir()
	files := simFolder(t, dir, "rust-book/ch04-01-what-is-ownership.html", "rust-book/ch04-02-references-and-borrowing.html",
		"rust-book/ch04-03-slices.html", "rust-book/ch08-01-vectors.html", "rust-book/ch08-02-strings.html", "license-gpl-2.txt", "license-lgpl-2.1.txt")
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- e.Serve(ctx) }()
	defer func() { stop(); <-served }()
	ingestEnriched(t, e, files...)
	eventually(t, "the switch to the semantic space", func() bool { return embStatus(t, e).ActualProvider == "ollama" })
	waitEnriched(t, e)
	links := simLinks(t, e)
	sims := 0
	for _, l := range links {
		if l.Meta["space"] != "ollama/nomic-embed-text/768" {
			t.Errorf("%s %s → %s is of space %v", l.Type, simShortPath(l.Src), simShortPath(l.Tgt), l.Meta["space"])
		}
		if l.Type == enrich.TypeSimilar {
			sims++
		}
	}
	if sims == 0 {
		simDump(t, links)
		t.Fatal("no SIMILAR_TO link in the semantic space")
	}
	// A document added after the switch is compared in the semantic space once its vectors
	// are written there (its first enrich job found none of its own in that space).
	late := simFolder(t, dir, "rust-book/ch08-03-hash-maps.html")
	ids := ingestEnriched(t, e, late...)
	eventually(t, "the late document's vector in the semantic space", func() bool {
		var n int
		err := e.DB().Reader().QueryRowContext(context.Background(), `SELECT count(*) FROM doc_vectors
			WHERE document_id = ? AND space = 'ollama/nomic-embed-text/768' AND vector IS NOT NULL`, ids[0]).Scan(&n)
		return err == nil && n == 1
	})
}

// TestSimilarVersionsPointToTheOldest: four versions of one chapter (the original and three
// light edits, newer files each) are three DUPLICATE_OF links, each to the oldest version,
// whatever order they arrive in; when the oldest goes, the others point to the next oldest.
func TestSimilarVersionsPointToTheOldest(t *testing.T) {
	dir := t.TempDir()
	src := simCorpus(t, "rust-book", "ch04-01-what-is-ownership.html")
	var files []string
	for i := range 4 {
		text := simEdit(t, src)
		if i == 0 {
			b, _ := os.ReadFile(src)
			text = string(b)
		}
		p := write(t, filepath.Join(dir, fmt.Sprintf("v%d.html", i)), text+strings.Repeat("\n<p>revision note</p>", i))
		m := time.Date(2024, 1, 1+i, 0, 0, 0, 0, time.UTC)
		if err := os.Chtimes(p, m, m); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	e := open(t)
	ingestEnriched(t, e, files[2], files[3], files[1], files[0])
	dups := func() []string {
		var out []string
		for _, l := range simLinks(t, e) {
			if l.Type == enrich.TypeDuplicateOf {
				out = append(out, filepath.Base(l.Src)+"→"+filepath.Base(l.Tgt))
			}
		}
		slices.Sort(out)
		return out
	}
	if got := strings.Join(dups(), " "); got != "v1.html→v0.html v2.html→v0.html v3.html→v0.html" {
		t.Fatalf("versions: %s", got)
	}
	os.Remove(files[0])
	if _, _, err := e.Reconcile(context.Background(), local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, e)
	if got := strings.Join(dups(), " "); got != "v2.html→v1.html v3.html→v1.html" {
		t.Fatalf("after the oldest went: %s", got)
	}
}
