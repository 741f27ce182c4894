package store

import (
	"context"
	"fmt"
	"strings"
)

// CountDerived is DerivedCounts read from the counters migration 0010's triggers keep in
// census_counts: a lookup in a table of a few rows instead of a GROUP BY over every derived
// link (the status is polled every second; at 100k links the GROUP BY took 12–30 ms).
func CountDerived(ctx context.Context, q Q) (links, suggestions map[string]int, err error) {
	links, suggestions = map[string]int{}, map[string]int{}
	rows, err := q.QueryContext(ctx, `SELECT key, n FROM census_counts
		WHERE (key >= 'derived_links:' AND key < 'derived_links;') OR (key >= 'open_suggestions:' AND key < 'open_suggestions;')`)
	if err != nil {
		return nil, nil, fmt.Errorf("count derived: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, nil, fmt.Errorf("count derived: %w", err)
		}
		if name, ok := strings.CutPrefix(k, "derived_links:"); ok && n != 0 {
			links[name] = n
		} else if name, ok := strings.CutPrefix(k, "open_suggestions:"); ok && n != 0 {
			suggestions[name] = n
		}
	}
	return links, suggestions, rows.Err()
}
