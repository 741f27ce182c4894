package engine_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// The lint fixtures: a folder of real files with problems planted on purpose (each kind once),
// the payloads agents would send, and a local model (an httptest Ollama) that reads the two
// invoice documents, as the semantic phase does with a real one.

const lintInvoiceA = `# Invoice INV-2025-031

Invoice number: INV-2025-031
Vendor: Acme Corp
Date: 2025-03-04

Amount due: EUR 1,540.00
`

// The same invoice as a second document (a scan someone typed up) with another amount.
const lintInvoiceB = `# Invoice INV-2025-031 (scan)

Invoice number: INV-2025-031
Vendor: Acme Corp
Date: 2025-03-04

Amount due: EUR 1,450.00
`

// A note that names the vendor the invoices made known, linked to nothing.
const lintCall = `# Call with the supplier

We phoned Acme Corp about the late delivery of the pallets.
They promised a credit note before the end of the month.
`

// A document nothing reaches: no tag, no heading, no name Strata knows, nothing like it.
const lintLonely = `Zebras graze quietly beside the shallow river while herons wait motionless in the reeds,
and the afternoon heat settles over the savanna like a heavy woollen blanket.
`

// Three notes use a concept (their tag) that no document explains.
var lintTagged = []string{
	"Confirm the bank details by telephone before the first payment run.",
	"Collect the signed framework agreement and the certificate of insurance.",
	"Create the supplier in the purchasing system with its tax number and terms.",
}

func lintTaggedNote(i int) string {
	return "---\ntags: [vendor onboarding]\n---\n\n" + lintTagged[i] + "\n"
}

// Two versions of one plan: the second, three months newer, rewrites one paragraph.
const lintPlanBody = `## Goals

Migrate the billing service to the new cluster, retire the old message queue, and move every
nightly report to the warehouse so that finance reads one source of numbers.

## Milestones

The first milestone moves the read replicas and the reporting jobs; the second moves the
write path behind a feature flag; the third removes the old cluster once a full month of
invoices has been reconciled without a difference.

## Risks

The largest risk is the month-end close, when the load triples and every delay is visible to
customers; the migration must pause for the last three days of each month. A second risk is
the reconciliation itself, which today depends on a spreadsheet only one person maintains.

## Staffing

Two engineers from the platform team and one from finance work on it full time; the data
team reviews every schema change before it ships.
`

func lintPlan(date, risks string) string {
	body := lintPlanBody
	if risks != "" {
		body = strings.Replace(body, "A second risk is\nthe reconciliation itself, which today depends on a spreadsheet only one person maintains.", risks, 1)
	}
	return "---\ntitle: Billing migration plan\ndate: " + date + "\n---\n\n# Billing migration plan\n\n" + body
}

// lintOllama reads invoices the way a local model would: the answer depends on the document.
func lintOllama(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/tags":
			io.WriteString(w, `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":1}]}`)
		case "/api/chat":
			var req struct {
				Model    string                     `json:"model"`
				Messages []struct{ Content string } `json:"messages"`
			}
			json.NewDecoder(r.Body).Decode(&req)
			doc := req.Messages[len(req.Messages)-1].Content
			answer := `{}`
			switch {
			case strings.Contains(doc, "1,540.00"):
				answer = `{"invoice_number": "INV-2025-031", "vendor_name": "Acme Corp", "amount": 1540, "currency": "EUR", "date": "2025-03-04", "_evidence": {"amount": 0}}`
			case strings.Contains(doc, "1,450.00"):
				answer = `{"invoice_number": "INV-2025-031", "vendor_name": "Acme Corp", "amount": 1450, "currency": "EUR", "date": "2025-03-04", "_evidence": {"amount": 0}}`
			}
			reply, _ := json.Marshal(map[string]any{"model": req.Model, "created_at": "2025-01-01T00:00:00Z",
				"message": map[string]any{"role": "assistant", "content": answer}, "done": true})
			w.Write(reply)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// lintFolder writes the planted files under dir and returns their paths in a fixed order.
func lintFolder(t testing.TB, dir string) []string {
	t.Helper()
	files := map[string]string{
		"invoices/acme-march.md":      lintInvoiceA,
		"invoices/acme-march-scan.md": lintInvoiceB,
		"notes/call.md":               lintCall,
		"misc/lonely.txt":             lintLonely,
		"onboarding/one.md":           lintTaggedNote(0),
		"onboarding/two.md":           lintTaggedNote(1),
		"onboarding/three.md":         lintTaggedNote(2),
		"plans/plan.md":               lintPlan("2025-01-05", ""),
		"plans/plan-v2.md": lintPlan("2025-04-01", "A second risk is the reconciliation itself, which moves to the "+
			"warehouse in April and no longer depends on a spreadsheet."),
	}
	var paths []string
	for name, body := range files {
		paths = append(paths, write(t, filepath.Join(dir, name), body))
	}
	slices.Sort(paths)
	return paths
}

// lintPayloads sends what agents would: two invoices of one vendor five months apart (the
// newer without the vendor's address) and a bank transaction nothing links.
func lintPayloads(t testing.TB, e *engine.Engine) {
	t.Helper()
	prov := func(agent, at string) map[string]any {
		return map[string]any{"source_refs": []string{}, "extracted_at": at, "extractor_version": agent + ":v1", "agent_id": agent}
	}
	ingest(t, e, "", map[string]any{"capability_id": "strata:store_invoice:v1", "provenance": prov("claude", "2025-01-10T09:00:00Z"),
		"body": map[string]any{"invoice_number": "G-1", "vendor_name": "Globex Ltd", "vendor_address": "12 Old Road, Springfield", "amount": 300}})
	ingest(t, e, "", map[string]any{"capability_id": "strata:store_invoice:v1", "provenance": prov("claude", "2025-06-20T09:00:00Z"),
		"body": map[string]any{"invoice_number": "G-2", "vendor_name": "Globex Ltd", "amount": 320}})
	ingest(t, e, "", map[string]any{"capability_id": "strata:store_transaction:v1", "provenance": prov("bank-sync", "2025-02-01T09:00:00Z"),
		"body": map[string]any{"transaction_id": "T-778", "amount": 42.5, "date": "2025-02-01", "description": "Card payment, bakery"}})
}

// lintStore builds the planted store in a fresh data folder over the files in dir.
func lintStore(t testing.TB, dir string, reverse bool) *engine.Engine {
	t.Helper()
	srv := lintOllama(t)
	e := open(t, func(c *engine.Config) { c.OllamaHost = srv.URL })
	paths := lintFolder(t, dir)
	if reverse {
		slices.Reverse(paths)
		lintPayloads(t, e)
		ingestEnriched(t, e, paths...)
	} else {
		ingestEnriched(t, e, paths...)
		lintPayloads(t, e)
	}
	waitEnriched(t, e)
	return e
}

func runLint(t testing.TB, e *engine.Engine, r engine.LintRequest) *engine.LintReport {
	t.Helper()
	if r.Limit == 0 {
		r.Limit = 1000
	}
	rep, err := e.Lint(context.Background(), r)
	if err != nil {
		t.Fatalf("lint: %v", err)
	}
	return rep
}

// byKind picks the findings of one kind.
func byKind(rep *engine.LintReport, kind string) []engine.Finding {
	var out []engine.Finding
	for _, f := range rep.Findings {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

// fileLine is line n (1-based) of a file.
func fileLine(t testing.TB, path string, n int) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", path, n)
	}
	return lines[n-1]
}

// checkEvidence holds every cited line to the file: the quote is on that line of the file.
func checkEvidence(t testing.TB, f engine.Finding) {
	t.Helper()
	for _, ev := range f.Evidence {
		if ev.Path == "" || ev.Quote == "" {
			continue
		}
		got := strings.Join(strings.Fields(fileLine(t, ev.Path, ev.LineStart)), " ")
		q := strings.Trim(ev.Quote, "…")
		if !strings.Contains(got, q) && !strings.Contains(q, got) {
			t.Errorf("%s: evidence %s:%d quotes %q, the file's line says %q", f.Kind, ev.Path, ev.LineStart, ev.Quote, got)
		}
	}
}

func TestLintFindsWhatWasPlanted(t *testing.T) {
	dir := t.TempDir()
	e := lintStore(t, dir, false)
	rep := runLint(t, e, engine.LintRequest{})
	if !rep.Checked.Full || rep.Checked.Rechecked != rep.Checked.Subjects {
		t.Errorf("the first run checks everything: %+v", rep.Checked)
	}
	for _, f := range rep.Findings {
		t.Logf("%s %s: %s", f.Severity, f.Kind, f.Title)
		checkEvidence(t, f)
	}

	// contradiction: the invoice's amount from the two documents, both cited at their lines.
	cs := byKind(rep, "contradiction")
	if len(cs) != 1 {
		t.Fatalf("want 1 contradiction, got %d", len(cs))
	}
	c := cs[0]
	if c.Field != "amount" || c.EntityName != "INV-2025-031" || c.Severity != "high" || len(c.Values) != 2 {
		t.Fatalf("contradiction: %+v", c)
	}
	shown := 0
	for _, v := range c.Values {
		want := map[string]string{"1540": "acme-march.md", "1450": "acme-march-scan.md"}[string(v.Value)]
		if want == "" || filepath.Base(v.Source.Path) != want {
			t.Errorf("value %s cites %s", v.Value, v.Source.Path)
		}
		if !strings.Contains(fileLine(t, v.Source.Path, v.Source.LineStart), "Amount due") {
			t.Errorf("value %s cites line %d of %s, which does not state it", v.Value, v.Source.LineStart, v.Source.Path)
		}
		if v.Shown {
			shown++
		}
	}
	if shown != 1 {
		t.Errorf("exactly one value is the one the snapshot shows: %+v", c.Values)
	}
	snap, err := e.GetEntity(context.Background(), c.EntityID, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range c.Values {
		if v.Shown != (string(snap.Snapshot["amount"]) == string(v.Value)) {
			t.Errorf("the snapshot shows %s, the finding marks %s shown=%v", snap.Snapshot["amount"], v.Value, v.Shown)
		}
	}
	if !hasFix(c, "create_relationship", "CORRECTS") || !hasFix(c, "open", "") {
		t.Errorf("contradiction fixes: %+v", c.Fixes)
	}

	// stale: Globex's address, stated in January, not restated by June's invoice; and the plan
	// that has a newer version.
	st := byKind(rep, "stale")
	var staleValue, staleDoc *engine.Finding
	for i := range st {
		switch {
		case st[i].Field == "address":
			staleValue = &st[i]
		case st[i].Scope == "documents":
			staleDoc = &st[i]
		}
	}
	if len(st) != 2 || staleValue == nil || staleDoc == nil {
		t.Fatalf("want a stale address and a stale plan, got %+v", st)
	}
	if staleValue.EntityName != "Globex Ltd" || !strings.Contains(staleValue.Title, "161 days newer") {
		t.Errorf("stale value: %s", staleValue.Title)
	}
	if !strings.Contains(staleDoc.Title, "plans/plan.md has a newer version: plans/plan-v2.md") || !hasFix(*staleDoc, "create_relationship", "SUPERSEDES") {
		t.Errorf("stale document: %s %+v", staleDoc.Title, staleDoc.Fixes)
	}

	// missing_link: the call note names Acme Corp.
	ml := byKind(rep, "missing_link")
	if len(ml) != 1 || ml[0].EntityName != "Acme Corp" || filepath.Base(ml[0].Evidence[0].Path) != "call.md" || ml[0].Evidence[0].LineStart != 3 {
		t.Fatalf("missing link: %+v", ml)
	}

	// undocumented_concept: vendor onboarding, used by three notes.
	un := byKind(rep, "undocumented_concept")
	if len(un) != 1 || un[0].EntityName != "vendor onboarding" || len(un[0].DocumentIDs) != 3 {
		t.Fatalf("undocumented concept: %+v", un)
	}

	// orphan: the lonely text and the bank transaction.
	var orphans []string
	for _, f := range byKind(rep, "orphan") {
		orphans = append(orphans, f.EntityName)
	}
	slices.Sort(orphans)
	if !slices.Equal(orphans, []string{"Card payment, bakery", "misc/lonely.txt"}) {
		t.Fatalf("orphans: %v", orphans)
	}

	// Report order: severity, kind, ID; counts per kind.
	want := map[string]int{"contradiction": 1, "stale": 2, "missing_link": 1, "undocumented_concept": 1, "orphan": 2}
	for k, n := range want {
		if rep.Counts[k] != n {
			t.Errorf("count %s = %d, want %d", k, rep.Counts[k], n)
		}
	}
	if rep.Total != 7 || len(rep.Findings) != 7 {
		t.Errorf("total %d, findings %d", rep.Total, len(rep.Findings))
	}
	order := []string{}
	for _, f := range rep.Findings {
		order = append(order, f.Kind)
	}
	if !slices.Equal(order, []string{"contradiction", "stale", "stale", "missing_link", "undocumented_concept", "orphan", "orphan"}) {
		t.Errorf("order: %v", order)
	}

	// A second run with nothing changed checks nothing again and says the same.
	again := runLint(t, e, engine.LintRequest{})
	if again.Checked.Full || again.Checked.Rechecked != 0 {
		t.Errorf("second run: %+v", again.Checked)
	}
	if a, b := mustJSON(t, rep.Findings), mustJSON(t, again.Findings); string(a) != string(b) {
		t.Errorf("a second run changed the findings")
	}
}

func hasFix(f engine.Finding, action, typ string) bool {
	for _, x := range f.Fixes {
		if x.Action == action && (typ == "" || x.RelationshipType == typ) {
			return true
		}
	}
	return false
}

func TestLintReadsWithoutRerunning(t *testing.T) {
	e := lintStore(t, t.TempDir(), false)
	all := runLint(t, e, engine.LintRequest{})

	// staleness_days filters stale values by their age gap (161 days here), not the version.
	longer := runLint(t, e, engine.LintRequest{StalenessDays: 200})
	if longer.Counts["stale"] != 1 || longer.Checked.Rechecked != 0 {
		t.Errorf("staleness 200: %d stale, %+v", longer.Counts["stale"], longer.Checked)
	}
	if shorter := runLint(t, e, engine.LintRequest{StalenessDays: 30}); shorter.Counts["stale"] != 2 {
		t.Errorf("staleness 30: %d stale", shorter.Counts["stale"])
	}

	// Scope and kind narrow the page; counts stay per kind within the scope.
	docs := runLint(t, e, engine.LintRequest{Scope: "documents"})
	for _, f := range docs.Findings {
		if f.Scope != "documents" {
			t.Errorf("scope documents gave %s (%s)", f.Scope, f.Title)
		}
	}
	if docs.Total >= all.Total || docs.Total == 0 {
		t.Errorf("documents scope: %d of %d", docs.Total, all.Total)
	}
	orph := runLint(t, e, engine.LintRequest{Kind: "orphan"})
	if orph.Total != 2 || len(orph.Findings) != 2 || orph.Counts["contradiction"] != 1 {
		t.Errorf("kind orphan: total %d, counts %v", orph.Total, orph.Counts)
	}

	// Paging: limit and offset walk the same order.
	var paged []string
	for off := 0; off < all.Total; off += 2 {
		p := runLint(t, e, engine.LintRequest{Limit: 2, Offset: off})
		for _, f := range p.Findings {
			paged = append(paged, f.ID)
		}
	}
	var ids []string
	for _, f := range all.Findings {
		ids = append(ids, f.ID)
	}
	if !slices.Equal(paged, ids) {
		t.Errorf("paging gave %v, want %v", paged, ids)
	}
}

func TestLintBadInput(t *testing.T) {
	e := open(t)
	for _, r := range []engine.LintRequest{{Scope: "everything"}, {StalenessDays: -1}, {StalenessDays: 4000}, {Limit: -1}, {Limit: 1001},
		{Offset: -3}, {Kind: "typo"}} {
		_, err := e.Lint(context.Background(), r)
		ee := wantCode(t, err, errs.Validation)
		if ee.Details["field"] == nil {
			t.Errorf("%+v: no field named", r)
		}
	}
}

// fixFinding applies a finding's one-click fix of the given type, as the app does.
func fixFinding(t testing.TB, e *engine.Engine, f engine.Finding, typ string) {
	t.Helper()
	for _, x := range f.Fixes {
		if x.Action == "create_relationship" && x.RelationshipType == typ {
			if _, err := e.CreateRelationship(context.Background(), x.RelationshipType, x.SourceEntityID, x.TargetEntityID, nil); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("%s has no %s fix", f.Title, typ)
}

// forceFull makes the next run check everything, as if it were the first.
func forceFull(t testing.TB, e *engine.Engine) {
	t.Helper()
	if err := e.DB().WriteTx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.ExecContext(context.Background(), `DELETE FROM settings WHERE key = ?`, store.LintVersionKey)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func findingIDs(rep *engine.LintReport) []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.Kind+" "+f.ID+" "+f.Title)
	}
	return out
}

// TestLintFixesResolveIncrementally applies each kind of fix, and a new document, and checks
// that the next run rechecks only what changed and agrees with a full run.
func TestLintFixesResolveIncrementally(t *testing.T) {
	dir := t.TempDir()
	e := lintStore(t, dir, false)
	rep := runLint(t, e, engine.LintRequest{})
	fixFinding(t, e, byKind(rep, "contradiction")[0], "CORRECTS")
	fixFinding(t, e, byKind(rep, "missing_link")[0], "REFERS_TO")
	for _, f := range byKind(rep, "stale") {
		if f.Scope == "documents" {
			fixFinding(t, e, f, "SUPERSEDES")
		}
	}
	// A note that explains the concept, titled by it.
	ingestEnriched(t, e, write(t, filepath.Join(dir, "onboarding/vendor-onboarding.md"),
		"# Vendor onboarding\n\nVendor onboarding is how a new supplier gets into the books: the contract, the bank details, the first order.\n"))

	after := runLint(t, e, engine.LintRequest{})
	if after.Checked.Full || after.Checked.Rechecked == 0 || after.Checked.Rechecked >= after.Checked.Subjects {
		t.Errorf("the run after the fixes should recheck a few subjects: %+v", after.Checked)
	}
	for k, n := range map[string]int{"contradiction": 0, "missing_link": 0, "undocumented_concept": 0, "stale": 1, "orphan": 2} {
		if after.Counts[k] != n {
			t.Errorf("after the fixes %s = %d, want %d: %v", k, after.Counts[k], n, findingIDs(after))
		}
	}
	forceFull(t, e)
	full := runLint(t, e, engine.LintRequest{})
	if !full.Checked.Full {
		t.Fatal("forceFull did not force a full run")
	}
	if a, b := findingIDs(after), findingIDs(full); !slices.Equal(a, b) {
		t.Errorf("incremental run:\n%v\nfull run:\n%v", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}

	// Removing a source takes its findings with it: the lonely text deleted, its orphan goes.
	if err := os.Remove(filepath.Join(dir, "misc/lonely.txt")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Reconcile(context.Background(), local, dir); err != nil {
		t.Fatal(err)
	}
	waitEnriched(t, e)
	gone := runLint(t, e, engine.LintRequest{})
	for _, f := range gone.Findings {
		if f.EntityName == "misc/lonely.txt" {
			t.Errorf("a removed document still has a finding: %s", f.Title)
		}
	}
	forceFull(t, e)
	if a, b := findingIDs(gone), findingIDs(runLint(t, e, engine.LintRequest{})); !slices.Equal(a, b) {
		t.Errorf("after a removal, incremental:\n%v\nfull:\n%v", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// TestLintDeterministic builds the planted store twice, from the same files in opposite
// orders, and lints each twice: the same findings, in the same order, with the same IDs.
func TestLintDeterministic(t *testing.T) {
	dir := t.TempDir()
	a := lintStore(t, dir, false)
	b := lintStore(t, dir, true)
	ra, rb := runLint(t, a, engine.LintRequest{}), runLint(t, b, engine.LintRequest{})
	// Observation times differ between stores (each has its clock), and with them which of two
	// equally trusted values a merge policy shows (a tie is broken by the time of reading):
	// what else a person reads, the IDs of findings and the documents they cite must not.
	strip := regexp.MustCompile(`"(observation_id|observed_at|hint)":"[^"]*"|"shown":(true|false)`)
	ja, jb := strip.ReplaceAllString(string(mustJSON(t, ra.Findings)), ""), strip.ReplaceAllString(string(mustJSON(t, rb.Findings)), "")
	if ja != jb {
		os.WriteFile("/tmp/lint-a.json", []byte(ja), 0o644)
		os.WriteFile("/tmp/lint-b.json", []byte(jb), 0o644)
		t.Errorf("two stores from the same files disagree:\n%s\n%s", ja, jb)
	}
	if ra.Total != 7 {
		t.Errorf("total %d", ra.Total)
	}
}

// TestLintCleanStore: notes that are tagged, explained and linked give no finding at all.
func TestLintCleanStore(t *testing.T) {
	dir := t.TempDir()
	e := open(t)
	var paths []string
	paths = append(paths, write(t, filepath.Join(dir, "gardening.md"),
		"---\ntags: [gardening]\n---\n\n# Gardening\n\nGardening is growing plants for food or pleasure, on a balcony or in a field.\n"))
	for i, topic := range []string{"tomatoes need full sun and deep watering twice a week", "compost turns kitchen scraps into soil in about six months",
		"seedlings should harden off outdoors for ten days before planting"} {
		paths = append(paths, write(t, filepath.Join(dir, "notes", string(rune('a'+i))+".md"),
			"---\ntags: [gardening]\n---\n\nIn the garden this week: "+topic+".\n"))
	}
	ingestEnriched(t, e, paths...)
	rep := runLint(t, e, engine.LintRequest{})
	if rep.Total != 0 {
		for _, f := range rep.Findings {
			t.Logf("%s: %s", f.Kind, f.Title)
		}
		t.Fatalf("a clean store has %d findings", rep.Total)
	}
	for _, k := range []string{"contradiction", "stale", "missing_link", "undocumented_concept", "orphan"} {
		if n, ok := rep.Counts[k]; !ok || n != 0 {
			t.Errorf("counts must name every kind, zero here: %v", rep.Counts)
		}
	}
}

// TestLintPublish writes the report into the store as a document: searchable, one document
// across runs (a new version when the findings change), never a source of findings itself.
func TestLintPublish(t *testing.T) {
	dir := t.TempDir()
	e := lintStore(t, dir, false)
	rep := runLint(t, e, engine.LintRequest{Publish: true})
	if rep.DocumentID == "" {
		t.Fatal("publish gave no document")
	}
	d := settle(t, e, rep.DocumentID)[0]
	if d.Status != "analyzed" || !strings.HasPrefix(d.Path, e.GeneratedDir()) || d.DocType != "generated" {
		t.Fatalf("the report's document: %+v", d)
	}
	// The report quotes the invoices' amounts; they are not facts of the report.
	snap, err := e.GetEntity(context.Background(), d.EntityID, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"amounts", "dates", "emails"} {
		if v, ok := snap.Snapshot[k]; ok {
			t.Errorf("the published report has %s of its own: %s", k, v)
		}
	}
	waitEnriched(t, e)
	res, err := e.Search(context.Background(), engine.SearchRequest{Query: "INV-2025-031 amount contradiction report"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range res.Results {
		found = found || r.DocumentID == rep.DocumentID
	}
	if !found {
		t.Errorf("the published report is not found by search")
	}
	again := runLint(t, e, engine.LintRequest{Publish: true})
	if again.DocumentID != rep.DocumentID || again.Total != rep.Total {
		t.Errorf("publishing again: %s (%d findings), first %s (%d)", again.DocumentID, again.Total, rep.DocumentID, rep.Total)
	}
}

// TestLintConceptDeclaredLater: a document that names a concept in passing gets no missing
// link while only a heading made the concept known; once a note declares it (a tag), the
// document is missing its link, although nothing about the document itself changed.
func TestLintConceptDeclaredLater(t *testing.T) {
	dir := t.TempDir()
	e := open(t)
	ingestEnriched(t, e,
		write(t, filepath.Join(dir, "agenda.md"), "# Agenda\n\n## Supplier review\n\nWe go through the open orders one by one.\n"),
		write(t, filepath.Join(dir, "minutes.md"), "# Minutes of Tuesday\n\nThe supplier review went well; the next supplier review is in May.\n"))
	before := runLint(t, e, engine.LintRequest{Kind: "missing_link"})
	if before.Total != 0 {
		t.Fatalf("a concept only a heading made known is not a missing link: %v", findingIDs(before))
	}
	ingestEnriched(t, e, write(t, filepath.Join(dir, "tagged.md"), "---\ntags: [supplier review]\n---\n\nChecklist for the quarterly meeting with each vendor.\n"))
	after := runLint(t, e, engine.LintRequest{Kind: "missing_link"})
	if after.Checked.Full {
		t.Fatalf("one new note made a full run: %+v", after.Checked)
	}
	var names []string
	for _, f := range after.Findings {
		names = append(names, f.Title)
	}
	if len(after.Findings) != 1 || !strings.Contains(after.Findings[0].Title, "minutes.md names supplier review") {
		t.Fatalf("after the tag: %v", names)
	}
	forceFull(t, e)
	if full := runLint(t, e, engine.LintRequest{Kind: "missing_link"}); !slices.Equal(findingIDs(full), findingIDs(after)) {
		t.Errorf("incremental %v, full %v", findingIDs(after), findingIDs(full))
	}
}

// TestLintWaitsForEnrichments: a document whose enrichments have not run is not yet "connected
// to nothing" (its links are not there yet); the report counts it as pending, and the run
// after its enrichments finish checks it, whether or not they linked it to anything.
func TestLintWaitsForEnrichments(t *testing.T) {
	dir := t.TempDir()
	e := open(t)
	ctx := context.Background()
	res, err := e.IngestPaths(ctx, local, []string{write(t, filepath.Join(dir, "lonely.txt"), lintLonely)})
	if err != nil || len(res) != 1 || res[0].Result == nil {
		t.Fatalf("register: %v %+v", err, res)
	}
	holdEnrichJobs(t, e, true) // registered: its enrich job is queued; read it, but do not enrich it
	settle(t, e, res[0].Result.DocumentID)
	before := runLint(t, e, engine.LintRequest{})
	if before.Total != 0 || before.Pending != 1 {
		t.Fatalf("before its enrichments: %d findings, %d pending: %v", before.Total, before.Pending, findingIDs(before))
	}
	holdEnrichJobs(t, e, false)
	waitEnriched(t, e)
	after := runLint(t, e, engine.LintRequest{})
	if after.Checked.Full || after.Pending != 0 || after.Counts["orphan"] != 1 {
		t.Fatalf("after its enrichments: %+v pending %d: %v", after.Checked, after.Pending, findingIDs(after))
	}
}

// holdEnrichJobs keeps the queued enrich jobs from being claimed (their not_before far ahead),
// or lets them go.
func holdEnrichJobs(t testing.TB, e *engine.Engine, hold bool) {
	t.Helper()
	at := "2000-01-01T00:00:00Z"
	if hold {
		at = "9999-12-31T00:00:00Z"
	}
	err := e.DB().WriteTx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.ExecContext(context.Background(), `UPDATE jobs SET not_before = ? WHERE phase = 'enrich' AND state = 'queued'`, at)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
