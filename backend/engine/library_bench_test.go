package engine_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/store"
)

// fillLibrary writes n document rows the way a large library holds them: 20 folders, titles
// that repeat (so names tie), sizes from a few bytes to megabytes, mostly analysed with some
// failed, waiting, understood and removed, a tenth of them changed after they were added, 40
// added in each second (so "added" ties too), and a document type on half. Rows only (no
// chunks): the listing reads nothing else. Written with one statement, so 100k take seconds.
func fillLibrary(tb testing.TB, e *engine.Engine, n int) {
	tb.Helper()
	ctx := context.Background()
	err := e.DB().WriteTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
			INSERT INTO documents(document_id, kind, path, title, mime, size, content_hash, status, phase_register, phase_analyze, phase_semantic,
				created_at, updated_at, changed_at, doc_type)
			SELECT printf('doc_%08d', (i * 7919) % ?), 'file',
				printf('/library/folder-%02d/note-%06d.md', i % 20, i),
				printf('%s note %d', CASE (i * 31) % 7 WHEN 0 THEN 'Alpha' WHEN 1 THEN 'beta' WHEN 2 THEN 'Gamma' WHEN 3 THEN 'delta'
					WHEN 4 THEN 'Epsilon' WHEN 5 THEN 'zeta' ELSE 'Eta' END, (i * 13) % 500),
				'text/markdown', (i * 104729) % 3000000, printf('hash-%d', i),
				CASE WHEN i % 100 < 90 THEN 'analyzed' WHEN i % 100 < 94 THEN 'registered' WHEN i % 100 < 97 THEN 'failed'
					WHEN i % 100 < 99 THEN 'semantic' ELSE 'removed' END,
				'done', 'done', 'skipped',
				strftime('%Y-%m-%dT%H:%M:%S.000000000Z', 1735689600 + i / 40, 'unixepoch'),
				strftime('%Y-%m-%dT%H:%M:%S.000000000Z', 1735689600 + ? / 40 + i % 977, 'unixepoch'),
				CASE WHEN i % 10 = 3 THEN strftime('%Y-%m-%dT%H:%M:%S.000000000Z', 1735689600 + i / 40 + 86400 * (1 + i % 30), 'unixepoch') END,
				CASE WHEN i % 2 = 0 THEN '' WHEN i % 6 = 1 THEN 'invoice' WHEN i % 6 = 3 THEN 'meeting-notes' ELSE 'contract' END
			FROM n`, n, n, n)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkDocumentList: a page of 100 documents of the Library (QueryDocuments, with its count
// of matching documents) at 5,000 and 100,000 documents, for every order both ways and the
// filters a person uses, at the first page, the middle and the last. Reported as ms a page.
func BenchmarkDocumentList(b *testing.B) {
	ctx := context.Background()
	type pick struct {
		name string
		q    engine.DocumentQuery
	}
	var picks []pick
	for _, s := range []engine.DocumentSort{engine.SortAdded, engine.SortName, engine.SortSize, engine.SortStatus} {
		picks = append(picks, pick{string(s) + "-asc", engine.DocumentQuery{Sort: s}}, pick{string(s) + "-desc", engine.DocumentQuery{Sort: s, Desc: true}})
	}
	picks = append(picks,
		pick{"added-desc/status=analyzed", engine.DocumentQuery{Sort: engine.SortAdded, Desc: true, Status: "analyzed"}},
		pick{"added-desc/status=failed", engine.DocumentQuery{Sort: engine.SortAdded, Desc: true, Status: "failed"}},
		pick{"added-desc/type=invoice", engine.DocumentQuery{Sort: engine.SortAdded, Desc: true, Type: "invoice"}},
		pick{"added-desc/folder", engine.DocumentQuery{Sort: engine.SortAdded, Desc: true, Path: "/library/folder-07/"}},
		pick{"name-asc/status=analyzed", engine.DocumentQuery{Sort: engine.SortName, Status: "analyzed"}},
		pick{"size-desc/folder", engine.DocumentQuery{Sort: engine.SortSize, Desc: true, Path: "/library/folder-07/"}},
	)
	for _, n := range []int{5_000, 100_000} {
		e := open(b, withStaticEmbedder)
		fillLibrary(b, e, n)
		for _, p := range picks {
			for _, at := range []string{"first", "middle", "last"} {
				b.Run(fmt.Sprintf("%dk/%s/%s", n/1000, p.name, at), func(b *testing.B) {
					q := p.q
					q.Limit = 100
					first, err := e.QueryDocuments(ctx, q)
					if err != nil {
						b.Fatal(err)
					}
					switch at {
					case "middle":
						q.Offset = first.Total / 2
					case "last":
						q.Offset = max(0, first.Total-100)
					}
					var lat []time.Duration
					for b.Loop() {
						t0 := time.Now()
						if _, err := e.QueryDocuments(ctx, q); err != nil {
							b.Fatal(err)
						}
						lat = append(lat, time.Since(t0))
					}
					sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
					b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
					b.ReportMetric(float64(first.Total), "docs")
				})
			}
		}
	}
}
