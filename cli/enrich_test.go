package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/search/quality"
	"github.com/strata-app/strata/backend/store"
)

// TestEnrichAndSuggestionCommands: `strata enrich status|run`, `strata suggestions` with accept
// and dismiss, and `strata rel list` marking derived links, on real files. Every enrichment is
// switched off in the data folder's specs/enrichments.yaml (as the README says), so the derived
// link and suggestions are the ones this test writes.
func TestEnrichAndSuggestionCommands(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "specs"), 0o755); err != nil {
		t.Fatal(err)
	}
	off := "enrichments:\n"
	for _, n := range []string{"TagConceptBridger", "CoOccurrence", "EmbeddingSimilarity", "DiscoveryGap", "TemporalProximity"} {
		off += "  " + n + ":\n    enabled: false\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "specs", "enrichments.yaml"), []byte(off), 0o644); err != nil {
		t.Fatal(err)
	}
	dns, curl, bsd := filepath.Join(quality.CorpusDir(), "nodejs-dns.md"), filepath.Join(quality.CorpusDir(), "man-curl.txt"), filepath.Join(quality.CorpusDir(), "license-bsd.txt")
	if r := strata(t, dir, "", "ingest", "--wait", dns, curl, bsd); r.code != 0 {
		t.Fatalf("ingest: %+v", r)
	}
	var st struct {
		Database string `json:"database"`
	}
	if r := strata(t, dir, "", "status", "--json"); json.Unmarshal([]byte(r.out), &st) != nil || st.Database == "" {
		t.Fatalf("status: %+v", r)
	}

	// What the enrichments would derive, written through a connection of this test's own.
	ctx := context.Background()
	db, err := store.Open(ctx, st.Database)
	if err != nil {
		t.Fatal(err)
	}
	ent, doc := map[string]string{}, map[string]string{}
	for _, p := range []string{dns, curl, bsd} {
		var e, d string
		if err := db.Reader().QueryRowContext(ctx, `SELECT entity_id, document_id FROM documents WHERE path = ?`, p).Scan(&e, &d); err != nil {
			t.Fatal(err)
		}
		ent[p], doc[p] = e, d
	}
	now := "2025-02-01T00:00:00Z"
	err = db.WriteTx(ctx, func(tx *store.Tx) error {
		ev := `[{"kind":"chunk","id":"c1","document_id":"` + doc[dns] + `","path":"` + dns + `","line_start":12,"line_end":14},` +
			`{"kind":"chunk","id":"c2","document_id":"` + doc[curl] + `","path":"` + curl + `","line_start":40}]`
		if _, err := store.ReplaceDerived(ctx, tx, store.LinkScope{Enrichment: "EmbeddingSimilarity"}, []store.DerivedLink{{ID: "rel_sim",
			RelationshipType: "SIMILAR_TO", SourceEntityID: ent[dns], TargetEntityID: ent[curl], Enrichment: "EmbeddingSimilarity", Version: "1",
			Score: 0.71, Evidence: json.RawMessage(ev)}}, now); err != nil {
			return err
		}
		_, err := store.ReplaceSuggestions(ctx, tx, "DiscoveryGap", []string{ent[dns], ent[curl]}, []store.Suggestion{
			{ID: "sug_one", SourceEntityID: ent[dns], TargetEntityID: ent[curl], Kind: "similar", Score: 0.62, Reason: "similar in meaning; nothing links them",
				Version: "1", Evidence: json.RawMessage(ev)},
			{ID: "sug_two", SourceEntityID: ent[curl], TargetEntityID: ent[bsd], Kind: "co_occurs", Score: 0.4, Reason: "they share names; nothing links them",
				Version: "1", Evidence: json.RawMessage(`[]`)},
		}, now)
		return err
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if r := strata(t, dir, "", "rel", "create", "REFERS_TO", ent[dns], ent[bsd]); r.code != 0 {
		t.Fatalf("rel create: %+v", r)
	}

	r := strata(t, dir, "", "rel", "list", ent[dns])
	if r.code != 0 || !regexp.MustCompile(`rel_sim +`+regexp.QuoteMeta(dns)+` +SIMILAR_TO +`+regexp.QuoteMeta(curl)+` +derived EmbeddingSimilarity@1 0\.71`).MatchString(r.out) ||
		!regexp.MustCompile(`REFERS_TO +`+regexp.QuoteMeta(bsd)+` +asserted `).MatchString(r.out) || !strings.Contains(r.out, "(2)") {
		t.Fatalf("rel list:\n%s%s", r.out, r.err)
	}
	for _, c := range []struct {
		args      []string
		has, lack string
	}{
		{[]string{"--derived"}, "derived EmbeddingSimilarity@1", "asserted"},
		{[]string{"--asserted"}, "asserted", "derived"},
		{[]string{"--enrichment", "CoOccurrence"}, "(0)", "rel_"},
		{[]string{"--min-score", "0.8"}, "asserted", "SIMILAR_TO"},
		{[]string{"--type", "SIMILAR_TO"}, "rel_sim", "REFERS_TO"},
	} {
		r := strata(t, dir, "", append([]string{"rel", "list", ent[dns]}, c.args...)...)
		if r.code != 0 || !strings.Contains(r.out, c.has) || strings.Contains(r.out, c.lack) {
			t.Errorf("rel list %v:\n%s%s", c.args, r.out, r.err)
		}
	}
	if r := strata(t, dir, "", "rel", "list", ent[dns], "--derived", "--asserted"); r.code != 2 {
		t.Errorf("--derived --asserted: %+v", r)
	}
	if r := strata(t, dir, "", "rel", "list", ent[dns], "--min-score", "3"); r.code != 1 || !strings.Contains(r.err, "VALIDATION_ERROR") {
		t.Errorf("--min-score 3: %+v", r)
	}

	r = strata(t, dir, "", "enrich", "status")
	if r.code != 0 || !regexp.MustCompile(`EmbeddingSimilarity +\S+ +off +1 +0\n`).MatchString(r.out) ||
		!regexp.MustCompile(`DiscoveryGap +\S+ +off +0 +2\n`).MatchString(r.out) || !strings.Contains(r.out, "backlog: 0 document(s) waiting, 0 failed") {
		t.Fatalf("enrich status:\n%s%s", r.out, r.err)
	}
	var es struct {
		Enrichments []struct {
			Name        string `json:"name"`
			Links       int    `json:"links"`
			Suggestions int    `json:"suggestions"`
		} `json:"enrichments"`
	}
	if r := strata(t, dir, "", "enrich", "status", "--json"); json.Unmarshal([]byte(r.out), &es) != nil || len(es.Enrichments) != 5 {
		t.Fatalf("enrich status --json: %+v", r)
	}
	if r := strata(t, dir, "", "status"); !strings.Contains(r.out, "enrichments    0 of 5 on, 1 derived link(s), 2 open suggestion(s), 0 document(s) waiting") {
		t.Fatalf("status:\n%s", r.out)
	}

	r = strata(t, dir, "", "suggestions")
	want := "sug_one  0.62  similar  " + dns + " ↔ " + curl + "\n    similar in meaning; nothing links them\n    evidence: " + dns + ":12, " + curl + ":40\n"
	if r.code != 0 || !strings.Contains(r.out, want) || !strings.Contains(r.out, "sug_two  0.40  co_occurs  "+curl+" ↔ "+bsd) {
		t.Fatalf("suggestions:\n%s%s\nwant\n%s", r.out, r.err, want)
	}
	if r := strata(t, dir, "", "suggestions", "dismiss", "sug_one"); r.code != 0 || !strings.Contains(r.out, "sug_one dismissed") {
		t.Fatalf("dismiss: %+v", r)
	}
	if r := strata(t, dir, "", "suggestions", "accept", "sug_one"); r.code != 1 || !strings.Contains(r.err, "SUGGESTION_DECIDED") {
		t.Fatalf("accept a dismissed one: %+v", r)
	}
	if r := strata(t, dir, "", "suggestions", "accept", "sug_two", "--type", "REFERS_TO"); r.code != 0 || !strings.Contains(r.out, "sug_two accepted") ||
		!strings.Contains(r.out, "-REFERS_TO-> "+ent[bsd]) {
		t.Fatalf("accept: %+v", r)
	}
	var page struct {
		Total       int `json:"total"`
		Suggestions []struct {
			ID     string `json:"id"`
			State  string `json:"state"`
			Source struct {
				Path string `json:"path"`
			} `json:"source"`
		} `json:"suggestions"`
	}
	if r := strata(t, dir, "", "suggestions", "--json", "--state", "all"); json.Unmarshal([]byte(r.out), &page) != nil || page.Total != 2 ||
		page.Suggestions[0].State != "dismissed" || page.Suggestions[0].Source.Path != dns {
		t.Fatalf("suggestions --state all: %+v", r)
	}
	if r := strata(t, dir, "", "suggestions"); r.code != 0 || !strings.Contains(r.out, "(0)") {
		t.Fatalf("open suggestions after both decisions:\n%s", r.out)
	}
	if r := strata(t, dir, "", "suggestions", "--state", "maybe"); r.code != 1 || !strings.Contains(r.err, "VALIDATION_ERROR") {
		t.Fatalf("--state maybe: %+v", r)
	}

	if r := strata(t, dir, "", "enrich", "run", "Nope"); r.code != 1 || !strings.Contains(r.err, "VALIDATION_ERROR") || !strings.Contains(r.err, "EmbeddingSimilarity") {
		t.Fatalf("enrich run Nope: %+v", r)
	}
	if r := strata(t, dir, "", "enrich", "run", "a", "b"); r.code != 2 {
		t.Fatalf("enrich run a b: %+v", r)
	}
	if r := strata(t, dir, "", "enrich", "run", "TemporalProximity"); r.code != 0 || !regexp.MustCompile(`^TemporalProximity: 3 document\(s\), \d+ derived row\(s\) changed\n$`).MatchString(r.out) {
		t.Fatalf("enrich run TemporalProximity: %+v", r)
	}
	if r := strata(t, dir, "", "enrich", "run"); r.code != 0 || !strings.Contains(r.out, "every enabled enrichment: 3 document(s) enriched again") {
		t.Fatalf("enrich run: %+v", r)
	}
}
