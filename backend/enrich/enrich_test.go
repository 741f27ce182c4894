package enrich

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/specs"
)

// pairs is a test enrichment: it links every live document to every other live document whose
// title shares its first letter, with the two documents as evidence. It is the smallest thing
// with the shape of the real ones (pairwise, symmetric, retracted with its evidence).
type pairs struct {
	version  string
	settings struct {
		Letter bool `json:"same_letter"`
	}
	runs int
	fail bool
}

func (p *pairs) Name() string         { return "Pairs" }
func (p *pairs) Version() string      { return p.version }
func (p *pairs) ReactsTo() []Emission { return []Emission{DocumentAnalyzed, DocumentRemoved} }
func (p *pairs) Configure(params map[string]any) error {
	p.settings.Letter = true
	return DecodeParams(params, &p.settings)
}

func (p *pairs) Enrich(ctx context.Context, run *Run) error {
	p.runs++
	if p.fail {
		return errors.New("boom")
	}
	me := run.Doc.EntityID
	var links []store.DerivedLink
	if run.Live {
		rows, err := run.Tx.QueryContext(ctx, `SELECT entity_id, document_id, title FROM documents
			WHERE status = 'analyzed' AND document_id != ? ORDER BY document_id`, run.Doc.DocumentID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var ent, doc, title string
			if err := rows.Scan(&ent, &doc, &title); err != nil {
				return err
			}
			if title[:1] != run.Doc.Title[:1] {
				continue
			}
			// The evidence must not depend on which end's job found the pair: both documents,
			// in ID order.
			a, b := min(me, ent), max(me, ent)
			da, db := min(doc, run.Doc.DocumentID), max(doc, run.Doc.DocumentID)
			links = append(links, run.Link("SIMILAR_TO", a, b, 0.5, []Evidence{{Kind: "document", ID: da}, {Kind: "document", ID: db}}, []string{da, db}, nil))
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return run.Replace(ctx, store.LinkScope{Touching: []string{me}}, links)
}

func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

const t0 = "2025-01-01T00:00:00.000000000Z"

func addDoc(t *testing.T, db *store.DB, id, title, status string) store.Document {
	t.Helper()
	d := store.Document{DocumentID: id, EntityID: ids.Entity("document", id), Kind: "file", Path: "/" + id, Title: title, ContentHash: id,
		Status: status, PhaseRegister: "done", PhaseAnalyze: "done", PhaseSemantic: "skipped", CreatedAt: t0, UpdatedAt: t0}
	err := db.WriteTx(context.Background(), func(tx *store.Tx) error {
		_, err := store.InsertDocument(context.Background(), tx, d)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func setStatus(t *testing.T, db *store.DB, id, status, at string) {
	t.Helper()
	err := db.WriteTx(context.Background(), func(tx *store.Tx) error {
		d, err := store.GetDocument(context.Background(), tx, id)
		if err != nil {
			return err
		}
		d.Status, d.UpdatedAt = status, at
		return store.UpdateDocument(context.Background(), tx, d)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// syncState runs svc.Sync in a write transaction.
func syncState(t *testing.T, db *store.DB, svc *Service) int {
	t.Helper()
	var n int
	err := db.WriteTx(context.Background(), func(tx *store.Tx) error {
		var err error
		n, err = svc.Sync(context.Background(), tx, t0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// drain runs every queued enrich job through svc, in job order, one transaction each (as the
// runner does), and returns how many ran.
func drain(t *testing.T, db *store.DB, svc *Service) int {
	t.Helper()
	ctx := context.Background()
	n := 0
	for {
		var job store.Job
		err := db.Reader().QueryRowContext(ctx, `SELECT job_id, document_id, payload_id FROM jobs WHERE phase = 'enrich' AND state = 'queued'
			ORDER BY job_id LIMIT 1`).Scan(&job.JobID, &job.DocumentID, &job.PayloadID)
		if err != nil {
			return n
		}
		err = db.WriteTx(ctx, func(tx *store.Tx) error {
			if err := svc.Enrich(ctx, tx, job, t0); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'done' WHERE job_id = ?`, job.JobID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
}

func links(t *testing.T, db *store.DB) []string {
	t.Helper()
	rows, err := db.Reader().QueryContext(context.Background(), `SELECT link_id || ' ' || source_entity_id || ' ' || target_entity_id || ' ' || evidence || ' ' || enrichment || '@' || version
		FROM derived_links ORDER BY link_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func service(t *testing.T, p *pairs, extra fstest.MapFS) *Service {
	t.Helper()
	reg, err := spec.Load(spec.Source{Label: "test", FS: extra})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := newService(reg, []Enrichment{p}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// TestEveryDocumentChangeQueuesItsEnrichJob: migration 0008's triggers queue an enrich job in
// the transaction that adds a document or changes what it is, and only then.
func TestEveryDocumentChangeQueuesItsEnrichJob(t *testing.T) {
	db := openStore(t)
	count := func() int {
		var n int
		if err := db.Reader().QueryRowContext(context.Background(), `SELECT count(*) FROM jobs WHERE phase = 'enrich' AND state = 'queued'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	addDoc(t, db, "a", "alpha", "analyzed")
	if count() != 1 {
		t.Fatalf("a new document queued %d enrich jobs, want 1", count())
	}
	setStatus(t, db, "a", "analyzed", "2025-01-01T00:00:01.000000000Z") // no change of status
	if count() != 1 {
		t.Fatalf("an update that changes nothing queued another job: %d", count())
	}
	svc := service(t, &pairs{version: "1"}, fstest.MapFS{})
	drain(t, db, svc)
	setStatus(t, db, "a", "removed", "2025-01-01T00:00:02.000000000Z")
	if count() != 1 {
		t.Fatalf("removing the document queued %d enrich jobs, want 1", count())
	}
	// Cancelling a document's other versions' jobs leaves its enrich job alone.
	err := db.WriteTx(context.Background(), func(tx *store.Tx) error {
		return store.CancelJobs(context.Background(), tx, "a", "another-version", []byte(`{}`), t0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if count() != 1 {
		t.Fatal("CancelJobs cancelled the enrich job")
	}
}

// TestRunsAreIdempotentDeterministicAndRetracted: the same documents added in two orders give
// the same links; enriching everything again changes nothing; a removed document takes its
// links with it.
func TestRunsAreIdempotentDeterministicAndRetracted(t *testing.T) {
	build := func(order []string) (*store.DB, *Service, *pairs) {
		db := openStore(t)
		p := &pairs{version: "1"}
		svc := service(t, p, fstest.MapFS{})
		for _, id := range order {
			addDoc(t, db, id, map[string]string{"a": "apple", "b": "avocado", "c": "cherry", "d": "apricot"}[id], "analyzed")
			drain(t, db, svc)
		}
		return db, svc, p
	}
	db1, svc1, _ := build([]string{"a", "b", "c", "d"})
	db2, _, _ := build([]string{"d", "c", "b", "a"})
	l1, l2 := links(t, db1), links(t, db2)
	if len(l1) != 3 || strings.Join(l1, "\n") != strings.Join(l2, "\n") {
		t.Fatalf("two orders, different links:\n%v\n%v", l1, l2)
	}
	// Everything again: nothing is written.
	err := db1.WriteTx(context.Background(), func(tx *store.Tx) error {
		for _, id := range []string{"a", "b", "c", "d"} {
			n, err := svc1.RunOne(context.Background(), tx, "Pairs", id, "2026-01-01T00:00:00.000000000Z")
			if err != nil {
				return err
			}
			if n != 0 {
				t.Errorf("second run over %s changed %d rows", id, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var created string
	if err := db1.Reader().QueryRowContext(context.Background(), `SELECT min(updated_at) FROM derived_links`).Scan(&created); err != nil || created != t0 {
		t.Fatalf("a second run rewrote links: updated_at %q (%v)", created, err)
	}
	// Remove b: no link that rests on b is left.
	setStatus(t, db1, "b", "removed", "2025-01-02T00:00:00.000000000Z")
	drain(t, db1, svc1)
	for _, l := range links(t, db1) {
		if strings.Contains(l, ids.Entity("document", "b")) {
			t.Fatalf("the removed document still has a link: %s", l)
		}
	}
	var ev int
	if err := db1.Reader().QueryRowContext(context.Background(), `SELECT count(*) FROM derived_evidence WHERE document_id = 'b'`).Scan(&ev); err != nil || ev != 0 {
		t.Fatalf("%d evidence rows name the removed document (%v)", ev, err)
	}
	if got := len(links(t, db1)); got != 1 {
		t.Fatalf("after removing b: %d links, want 1 (a–d)", got)
	}
}

// TestSettingsAndSync: enrichments.yaml switches an enrichment off (its links go), a new
// version or new settings queue every document again, and a parameter or enrichment nobody
// knows stops the store from opening with its file and line.
func TestSettingsAndSync(t *testing.T) {
	db := openStore(t)
	p := &pairs{version: "1"}
	svc := service(t, p, fstest.MapFS{})
	syncState(t, db, svc)
	for _, id := range []string{"a", "b"} {
		addDoc(t, db, id, "a"+id, "analyzed")
	}
	drain(t, db, svc)
	if len(links(t, db)) != 1 {
		t.Fatalf("links: %v", links(t, db))
	}
	// Same version and settings: nothing is queued.
	if n := syncState(t, db, svc); n != 0 {
		t.Fatalf("sync without changes queued %d", n)
	}
	// A new version: every document is enriched again.
	p2 := &pairs{version: "2"}
	svc2 := service(t, p2, fstest.MapFS{})
	if n := syncState(t, db, svc2); n != 2 {
		t.Fatalf("a new version queued %d documents, want 2", n)
	}
	drain(t, db, svc2)
	if l := links(t, db); len(l) != 1 || !strings.HasSuffix(l[0], "Pairs@2") {
		t.Fatalf("after the new version: %v", l)
	}
	// Switched off: its links go, and its jobs do not run it.
	off := fstest.MapFS{spec.EnrichmentsFile: {Data: []byte("enrichments:\n  Pairs:\n    enabled: false\n")}}
	p3 := &pairs{version: "2"}
	svc3 := service(t, p3, off)
	syncState(t, db, svc3)
	if l := links(t, db); len(l) != 0 {
		t.Fatalf("switched off, its links stay: %v", l)
	}
	addDoc(t, db, "c", "ac", "analyzed")
	drain(t, db, svc3)
	if p3.runs != 0 || len(links(t, db)) != 0 {
		t.Fatalf("a switched-off enrichment ran %d times", p3.runs)
	}

	// Settings that do not load name their file and line.
	for _, c := range []struct{ yaml, want string }{
		{"enrichments:\n  Pairs:\n    same_leter: true\n", "test/enrichments.yaml:3"},
		{"enrichments:\n  Pairs:\n    enabled: yes please\n", "test/enrichments.yaml:3"},
		{"# x\nenrichments:\n  Nope:\n    enabled: false\n", "test/enrichments.yaml:3"},
	} {
		reg, err := spec.Load(spec.Source{Label: "test", FS: fstest.MapFS{spec.EnrichmentsFile: {Data: []byte(c.yaml)}}})
		if err == nil {
			_, err = newService(reg, []Enrichment{&pairs{version: "1"}}, nil, nil)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error at %s", c.yaml, err, c.want)
		}
	}
	// An override names only what it changes: the shipped file's other keys stay.
	reg, err := spec.Load(spec.Source{Label: "specs", FS: specs.FS},
		spec.Source{Label: "data", FS: fstest.MapFS{spec.EnrichmentsFile: {Data: []byte("enrichments:\n  TemporalProximity:\n    enabled: false\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	if s := reg.Enrichments["TemporalProximity"]; s == nil || s.Enabled {
		t.Fatal("the data folder's override did not switch TemporalProximity off")
	}
	if s := reg.Enrichments["EmbeddingSimilarity"]; s == nil || !s.Enabled {
		t.Fatal("an override of one enrichment changed another")
	}
	if _, err := New(reg, nil, nil); err != nil {
		t.Fatalf("the shipped settings do not load: %v", err)
	}
}
