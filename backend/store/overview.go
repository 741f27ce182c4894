package store

import (
	"context"
	"fmt"
)

// Overview is what the library's chart shows: documents by type, by status, and by the day
// they arrived.
type Overview struct {
	ByType   map[string]int `json:"by_type"`
	ByStatus map[string]int `json:"by_status"`
	ByDay    []DayCount     `json:"by_day"` // oldest first, at most the last 60 days with documents
}

// The type names of documents without a type: not analysed yet, or analysed without one.
const (
	TypePending = "pending"
	TypeOther   = "other"
)

// DayCount is the number of documents created on one day (YYYY-MM-DD).
type DayCount struct {
	Day   string `json:"day"`
	Count int    `json:"count"`
}

// DocumentOverview counts documents for the overview chart.
func DocumentOverview(ctx context.Context, q Q) (*Overview, error) {
	o := &Overview{ByType: map[string]int{}, ByStatus: map[string]int{}, ByDay: []DayCount{}}
	count := func(query string, into func(k string, n int)) error {
		rows, err := q.QueryContext(ctx, query)
		if err != nil {
			return fmt.Errorf("document overview: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				return fmt.Errorf("document overview: %w", err)
			}
			into(k, n)
		}
		return rows.Err()
	}
	// A document is typed by its analysis: until then it is "pending", not "other" (a type the
	// analysis could not name). TypePending and TypeOther are what DocumentFilter.DocType takes.
	if err := count(`SELECT CASE WHEN doc_type != '' THEN doc_type WHEN status = 'registered' THEN '`+TypePending+`' ELSE '`+TypeOther+`' END, count(*)
		FROM documents WHERE status != 'removed' GROUP BY 1`,
		func(k string, n int) { o.ByType[k] = n }); err != nil {
		return nil, err
	}
	if err := count(`SELECT status, count(*) FROM documents GROUP BY 1`, func(k string, n int) { o.ByStatus[k] = n }); err != nil {
		return nil, err
	}
	if err := count(`SELECT * FROM (SELECT substr(created_at, 1, 10) AS day, count(*) FROM documents GROUP BY 1 ORDER BY 1 DESC LIMIT 60) ORDER BY 1`,
		func(k string, n int) { o.ByDay = append(o.ByDay, DayCount{k, n}) }); err != nil {
		return nil, err
	}
	return o, nil
}

// DocumentObservations lists the observations made from a document (analysis and semantic
// phases), by entity type then observation time, at most limit.
func DocumentObservations(ctx context.Context, q Q, documentID string, limit int) ([]Observation, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+obsCols+` FROM observations WHERE document_id = ?
		ORDER BY entity_type, observed_at, observation_id LIMIT ?`, documentID, limit)
	if err != nil {
		return nil, fmt.Errorf("document observations: %w", err)
	}
	return collectObservations(rows)
}
