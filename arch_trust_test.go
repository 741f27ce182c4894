package main

import (
	"strings"
	"testing"
)

// TestOnlyTheEngineReadsFilesForCallers: backend/ingest can read any path (Ingester.RegisterFile
// takes no caller), so only the engine may import it; everything else reaches files through an
// engine call that names its Caller, and a new transport cannot skip the remote rule.
func TestOnlyTheEngineReadsFilesForCallers(t *testing.T) {
	const mod = "github.com/strata-app/strata/"
	for _, tags := range []string{"", "desktop", "bindings"} {
		n := 0
		for _, p := range goList(t, tags, "./...") {
			pkg, imports := p.pkg, p.imports
			n++
			if pkg == mod+"backend/engine" || strings.HasPrefix(pkg, mod+"backend/ingest") {
				continue
			}
			for _, imp := range imports {
				if imp == mod+"backend/ingest" {
					t.Errorf("%s (tags %q) imports backend/ingest: read files through the engine, naming the caller", pkg, tags)
				}
			}
		}
		if n < 10 {
			t.Fatalf("go list -tags %q found only %d packages", tags, n)
		}
	}
}
