package engine_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/backend/engine"
)

// The dated meeting notes and invoices of testdata/enrich/temporal, written for this test
// (issue 14): six meeting notes (front-matter date, tags, attendees' addresses) and four
// invoices (a date in the first lines, a vendor contact's address; the customer's
// accounts@ address is a role, not a person), January to April 2026.
//
// Known answers. Within 7 days and sharing an entity — exactly these are NEAR_IN_TIME:
//   - kickoff 01-12 → schema review 01-15 (3 days; mara.quinn, #migration)
//   - budget review 03-02 → vendor call 03-05 (3 days; tomas.reyes)
//   - vendor call 03-05 → Kestrel invoice 03-09 (4 days; sam.patel)
//
// Within 7 days but sharing nothing (not linked): Kestrel invoice 01-05 ~ kickoff 01-12 (7),
// Papercraft invoice 01-14 ~ kickoff/schema review/office move, office move 01-16 ~ kickoff
// and schema review, budget review 03-02 ~ Kestrel invoice 03-09 (7), retrospective 04-20 ~
// Papercraft invoice 04-24. Sharing an entity but months apart (not linked): kickoff ~ budget
// review (mara, tomas), schema review ~ retrospective (ines, #migration), the two Kestrel
// invoices (sam), the two Papercraft invoices (olga), office move ~ retrospective (li.wen).
var temporalWant = []string{
	"2026-01-12-kickoff.md → 2026-01-15-schema-review.md gap=3 shared=[Mara Quinn migration]",
	"2026-03-02-budget-review.md → 2026-03-05-vendor-call.md gap=3 shared=[Tomás Reyes]",
	"2026-03-05-vendor-call.md → invoice-kestrel-0309.txt gap=4 shared=[Sam Patel]",
}

// temporalFixtures copies the fixtures into a folder of the test's own, so a test may change
// or delete them.
func temporalFixtures(t testing.TB) (dir string, names []string) {
	t.Helper()
	src := filepath.Join("testdata", "enrich", "temporal")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for _, en := range entries {
		b, err := os.ReadFile(filepath.Join(src, en.Name()))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, en.Name()), string(b))
		names = append(names, en.Name())
	}
	return dir, names
}

// nearInTime lists the NEAR_IN_TIME links as "earlier → later gap=N shared=[…]" by file name,
// checking on the way what every link must hold: the gap and days in its metadata agree, the
// score falls with the gap, and its evidence quotes where each day was read.
func nearInTime(t testing.TB, e *engine.Engine) []string {
	t.Helper()
	rows, err := e.DB().Reader().QueryContext(context.Background(), `SELECT
			(SELECT path FROM documents WHERE entity_id = l.source_entity_id), (SELECT path FROM documents WHERE entity_id = l.target_entity_id),
			l.score, l.metadata, l.evidence FROM derived_links l WHERE relationship_type = 'NEAR_IN_TIME' ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var src, dst, meta, ev string
		var score float64
		if err := rows.Scan(&src, &dst, &score, &meta, &ev); err != nil {
			t.Fatal(err)
		}
		var m struct {
			Gap    int      `json:"gap_days"`
			DayA   string   `json:"day_a"`
			DayB   string   `json:"day_b"`
			Shared []string `json:"shared"`
		}
		if err := json.Unmarshal([]byte(meta), &m); err != nil {
			t.Fatal(err)
		}
		var evidence []struct {
			Path, Value, Quote string
		}
		if err := json.Unmarshal([]byte(ev), &evidence); err != nil {
			t.Fatal(err)
		}
		if m.DayA > m.DayB || len(evidence) < 4 || evidence[0].Value != m.DayA || evidence[1].Value != m.DayB ||
			evidence[0].Path != src || evidence[1].Path != dst || evidence[0].Quote == "" || evidence[1].Quote == "" {
			t.Errorf("%s → %s: metadata %s does not match its evidence %s", src, dst, meta, ev)
		}
		if want := 1 - float64(m.Gap)/8; score < want-1e-4 || score > want+1e-4 {
			t.Errorf("%s → %s: score %.4f for a gap of %d days, want %.4f", src, dst, score, m.Gap, want)
		}
		for _, x := range evidence[2:] { // where each end names the shared entity
			if !strings.Contains(strings.ToLower(x.Quote), strings.ToLower(x.Value)) {
				t.Errorf("%s → %s: evidence quote %q does not show %q", src, dst, x.Quote, x.Value)
			}
		}
		out = append(out, filepath.Base(src)+" → "+filepath.Base(dst)+" gap="+strconv.Itoa(m.Gap)+" shared=["+strings.Join(m.Shared, " ")+"]")
	}
	return out
}

func TestTemporalProximityKnownAnswers(t *testing.T) {
	e := open(t)
	dir, _ := temporalFixtures(t)
	ingestEnriched(t, e, dir)
	got := nearInTime(t, e)
	if !slices.Equal(got, temporalWant) {
		t.Fatalf("NEAR_IN_TIME:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(temporalWant, "\n  "))
	}
	// The dates were read where the research says (front matter; an invoice's first lines,
	// named or ISO), each with the passage that shows it.
	ev := map[string]string{}
	rows, err := e.DB().Reader().QueryContext(context.Background(), `SELECT d.path, i.day, json_extract(i.evidence, '$.field'), json_extract(i.evidence, '$.quote')
		FROM dated_items i JOIN documents d USING (document_id)`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p, day, field, quote string
		if err := rows.Scan(&p, &day, &field, &quote); err != nil {
			t.Fatal(err)
		}
		ev[filepath.Base(p)] = day + " | " + field + " | " + quote
	}
	rows.Close()
	for name, want := range map[string]string{
		"2026-01-12-kickoff.md":       "2026-01-12 | front matter date | date: 2026-01-12",
		"invoice-kestrel-0309.txt":    "2026-03-09 | date in the first lines | Invoice date: March 9, 2026",
		"invoice-papercraft-2231.txt": "2026-01-14 | date in the first lines | Date: 14 January 2026",
	} {
		if ev[name] != want {
			t.Errorf("%s dated %q, want %q", name, ev[name], want)
		}
	}
	if len(ev) != 10 {
		t.Errorf("%d dated documents, want 10: %v", len(ev), ev)
	}

	// Idempotent: deriving again changes nothing.
	before := derivedRows(t, e)
	res, err := e.RunEnrichment(context.Background(), "TemporalProximity")
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed != 0 || !slices.Equal(before, derivedRows(t, e)) {
		t.Fatalf("a second run changed %d rows", res.Changed)
	}
}

// Two stores built from the same files in opposite orders, one file at a time (each enriched
// before the next arrives), hold the same links.
func TestTemporalProximityOrderIndependent(t *testing.T) {
	dir, names := temporalFixtures(t)
	build := func(order []string) []string {
		e := open(t)
		for _, n := range order {
			ingestEnriched(t, e, filepath.Join(dir, n))
		}
		if got := nearInTime(t, e); !slices.Equal(got, temporalWant) {
			t.Fatalf("order %v: NEAR_IN_TIME %v", order, got)
		}
		return derivedRows(t, e)
	}
	rev := slices.Clone(names)
	slices.Reverse(rev)
	a, b := build(names), build(rev)
	if !slices.Equal(a, b) {
		t.Fatalf("two build orders differ:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// A removed or changed document leaves no NEAR_IN_TIME link and no dated item behind; a file
// changed back restores exactly what was there.
func TestTemporalProximityRetracts(t *testing.T) {
	ctx := context.Background()
	e := open(t)
	dir, _ := temporalFixtures(t)
	ingestEnriched(t, e, dir)
	full := derivedRows(t, e)

	vendor := filepath.Join(dir, "2026-03-05-vendor-call.md")
	text, err := os.ReadFile(vendor)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(vendor); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Reconcile(ctx, local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, e)
	if got := nearInTime(t, e); !slices.Equal(got, temporalWant[:1]) {
		t.Fatalf("after removing the vendor call: %v", got)
	}
	var n int
	if err := e.DB().Reader().QueryRowContext(ctx, `SELECT count(*) FROM dated_items i JOIN documents d USING (document_id) WHERE d.path = ?`, vendor).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the removed note still has %d dated items (%v)", n, err)
	}

	// Changed: the kickoff moves to February, away from the schema review.
	kick := filepath.Join(dir, "2026-01-12-kickoff.md")
	orig, err := os.ReadFile(kick)
	if err != nil {
		t.Fatal(err)
	}
	write(t, kick, strings.Replace(string(orig), "date: 2026-01-12", "date: 2026-02-20", 1))
	if _, _, err := e.Reconcile(ctx, local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, e)
	if got := nearInTime(t, e); len(got) != 0 {
		t.Fatalf("after moving the kickoff: %v", got)
	}

	// Both back as they were: the same rows as the first build.
	write(t, kick, string(orig))
	write(t, vendor, string(text))
	if _, _, err := e.Reconcile(ctx, local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, e)
	if got := derivedRows(t, e); !slices.Equal(got, full) {
		t.Fatalf("restored files, different links:\n%s\n---\n%s", strings.Join(got, "\n"), strings.Join(full, "\n"))
	}
}

// An entity more dated items refer to than max_fanout is no evidence; when a new document
// makes it too common, the links resting on it go, and they come back when it leaves.
func TestTemporalProximityFanout(t *testing.T) {
	ctx := context.Background()
	e := open(t, withSpecs(fstest.MapFS{"enrichments.yaml": {Data: []byte("enrichments:\n  TemporalProximity:\n    max_fanout: 2\n")}}))
	dir, _ := temporalFixtures(t)
	budget, vendor, kick := filepath.Join(dir, "2026-03-02-budget-review.md"), filepath.Join(dir, "2026-03-05-vendor-call.md"),
		filepath.Join(dir, "2026-01-12-kickoff.md")
	ingestEnriched(t, e, budget, vendor) // tomas.reyes: 2 dated items
	if got := nearInTime(t, e); !slices.Equal(got, temporalWant[1:2]) {
		t.Fatalf("two notes sharing tomas.reyes: %v", got)
	}
	ingestEnriched(t, e, kick) // tomas.reyes: 3 dated items > max_fanout
	if got := nearInTime(t, e); len(got) != 0 {
		t.Fatalf("tomas.reyes in 3 dated items (max_fanout 2) still links: %v", got)
	}
	if err := os.Remove(kick); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Reconcile(ctx, local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, e)
	if got := nearInTime(t, e); !slices.Equal(got, temporalWant[1:2]) {
		t.Fatalf("back to 2 dated items: %v", got)
	}
}

// Entities the semantic phase reads with a date (a meeting) are dated items too: two meetings
// four days apart that share an attendee are NEAR_IN_TIME, the evidence citing each
// meeting's observation; a note is never linked to the meeting read from itself.
func TestTemporalProximitySemanticMeetings(t *testing.T) {
	ollama := &fakeOllama{}
	ollama.up.Store(true)
	srv := httptest.NewServer(ollama)
	defer srv.Close()
	e := open(t, func(c *engine.Config) { c.OllamaHost = srv.URL })
	dir := t.TempDir()
	notes := []struct{ file, text, answer string }{
		{"sync.md", meetingNotes, `{"title": "Weekly sync", "date": "2025-03-14", "attendees": ["Ada Lovelace", "Bob Stone"],
			"action_items": [{"owner": "Ada Lovelace", "task": "send the report"}], "_evidence": {"title": 0, "date": 1}}`},
		{"review.md", "# Design review\n\nAttendees: Ada Lovelace, Carol Diaz\n\n## Decisions\n\nKeep the old API one more release.\n\n## Action items\n\n- Carol drafts the deprecation notice\n",
			`{"title": "Design review", "date": "2025-03-18", "attendees": ["Ada Lovelace", "Carol Diaz"],
			"action_items": [{"owner": "Carol Diaz", "task": "draft the deprecation notice"}], "_evidence": {"title": 0}}`},
	}
	for _, n := range notes {
		ollama.answer.Store(n.answer)
		id := ingestEnriched(t, e, write(t, filepath.Join(dir, n.file), n.text))
		if d := settle(t, e, id...)[0]; d.PhaseSemantic != "done" {
			t.Fatalf("%s: semantic phase %s", n.file, d.PhaseSemantic)
		}
		waitEnriched(t, e)
	}
	got := linksOfType(t, e, "NEAR_IN_TIME")
	if len(got) != 1 || got[0] != "Weekly sync → Design review (0.500)" {
		t.Fatalf("NEAR_IN_TIME: %v", got)
	}
	var meta, ev string
	if err := e.DB().Reader().QueryRowContext(context.Background(), `SELECT metadata, evidence FROM derived_links WHERE relationship_type = 'NEAR_IN_TIME'`).Scan(&meta, &ev); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(meta, `{"day_a":"2025-03-14","day_b":"2025-03-18","gap_days":4,"shared":["Ada Lovelace"],"shared_ids":["ent_`) ||
		!strings.Contains(ev, `"quote":"date: 2025-03-14"`) || !strings.Contains(ev, "sync.md") || !strings.Contains(ev, "review.md") {
		t.Fatalf("metadata %s evidence %s", meta, ev)
	}
}
