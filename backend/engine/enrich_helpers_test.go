package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
)

// ingestEnriched registers paths (files or folders), waits for their analysis and then for
// every enrich job, and returns the registered documents' IDs in path order.
func ingestEnriched(t testing.TB, e *engine.Engine, paths ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := e.IngestPaths(ctx, local, paths)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range res {
		if r.Result == nil {
			t.Fatalf("%s: %v", r.Path, r.Error)
		}
		ids = append(ids, r.Result.DocumentID)
	}
	if _, err := e.WaitDocuments(ctx, ids, nil); err != nil {
		t.Fatalf("wait for analysis: %v", err)
	}
	waitEnriched(t, e)
	return ids
}

// waitEnriched waits until no enrich (or analyze) job is left.
func waitEnriched(t testing.TB, e *engine.Engine) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := e.WaitEnriched(ctx); err != nil {
		t.Fatalf("wait for enrichments: %v", err)
	}
	st, err := e.EnrichStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 {
		var why []string
		rows, err := e.DB().Reader().QueryContext(ctx, `SELECT document_id || ': ' || coalesce(error, '') FROM jobs
			WHERE phase = 'enrich' AND state = 'failed' ORDER BY job_id LIMIT 3`)
		if err == nil {
			for rows.Next() {
				var s string
				_ = rows.Scan(&s)
				why = append(why, s)
			}
			rows.Close()
		}
		t.Fatalf("%d enrich jobs failed: %s", st.Failed, strings.Join(why, "\n"))
	}
}

// derivedRows is every derived link and suggestion as one comparable line each, in ID order,
// without timestamps: two stores that derived the same things give the same rows.
func derivedRows(t testing.TB, e *engine.Engine) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for _, q := range []string{
		`SELECT link_id || ' ' || relationship_type || ' ' || source_entity_id || ' ' || target_entity_id || ' ' || enrichment || '@' || version
			|| ' ' || printf('%.4f', score) || ' ' || evidence || ' ' || coalesce(metadata, '') || ' docs=' ||
			coalesce((SELECT group_concat(document_id, ',') FROM (SELECT document_id FROM derived_evidence WHERE item_id = link_id ORDER BY document_id)), '')
			FROM derived_links ORDER BY link_id`,
		`SELECT suggestion_id || ' ' || source_entity_id || ' ' || target_entity_id || ' ' || kind || ' ' || printf('%.4f', score) || ' '
			|| reason || ' ' || evidence || ' ' || state FROM suggestions ORDER BY suggestion_id`,
	} {
		rows, err := e.DB().Reader().QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		rows.Close()
	}
	return out
}

// linksOfType lists the derived links of one type as "source → target (score)" with the
// documents' paths in place of their entity IDs where the ends are documents.
func linksOfType(t testing.TB, e *engine.Engine, typ string) []string {
	t.Helper()
	rows, err := e.DB().Reader().QueryContext(context.Background(), `SELECT
			coalesce((SELECT path FROM documents WHERE entity_id = l.source_entity_id), (SELECT canonical_name FROM entities WHERE entity_id = l.source_entity_id), l.source_entity_id),
			coalesce((SELECT path FROM documents WHERE entity_id = l.target_entity_id), (SELECT canonical_name FROM entities WHERE entity_id = l.target_entity_id), l.target_entity_id),
			l.score FROM derived_links l WHERE relationship_type = ? ORDER BY l.score DESC, l.link_id`, typ)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s, d string
		var score float64
		if err := rows.Scan(&s, &d, &score); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s → %s (%.3f)", s, d, score))
	}
	return out
}
