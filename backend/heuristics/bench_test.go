package heuristics

import (
	"strings"
	"testing"
)

var sample = strings.Repeat("## Topic 3\n\nWe discussed the renewal due on 2025-04-13 for €4,500.00 with vendor 7. The team agreed to follow up next week and to review the contract terms before signing. Mail ada@example.com #project-3\n\n", 25)

func BenchmarkFind(b *testing.B) {
	b.SetBytes(int64(len(sample)))
	for i := 0; i < b.N; i++ {
		Find(sample, nil)
	}
}
