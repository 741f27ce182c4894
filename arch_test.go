package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependenciesPointOneWay enforces DESIGN.md's rule: transports → engine → the rest.
// backend/mcpserver and backend/httpapi are transports: they may import the engine, and nothing
// below them may import them. No package under backend/ may import Wails, the app/ or cli/ transports, or (outside tests)
// the testing package; store imports nothing of ours.
func TestDependenciesPointOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps=false", "-f", "{{.ImportPath}}|{{join .Imports \",\"}}|{{join .Deps \",\"}}", "./backend/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/strata-app/strata/"
	// The transports that live under backend/ (DESIGN.md's layout): they sit above the engine.
	transports := map[string]bool{mod + "backend/mcpserver": true, mod + "backend/httpapi": true}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 8 {
		t.Fatalf("go list found only %d backend packages", len(lines))
	}
	for _, line := range lines {
		parts := strings.SplitN(line, "|", 3)
		pkg, imports, deps := parts[0], strings.Split(parts[1], ","), strings.Split(parts[2], ",")
		for _, d := range deps {
			switch {
			case strings.HasPrefix(d, "github.com/wailsapp/"):
				t.Errorf("%s depends on %s: backend/ never imports Wails", pkg, d)
			case strings.HasPrefix(d, mod+"app"), strings.HasPrefix(d, mod+"cli"):
				t.Errorf("%s depends on the transport %s", pkg, d)
			}
		}
		for _, imp := range imports {
			if imp == "testing" || strings.HasPrefix(imp, "testing/") {
				t.Errorf("%s imports %s outside its tests", pkg, imp)
			}
			if pkg == mod+"backend/store" && strings.HasPrefix(imp, mod) {
				t.Errorf("store imports %s: store imports nothing of ours", imp)
			}
			if strings.HasPrefix(imp, mod+"backend/engine") && pkg != mod+"backend/engine" && !transports[pkg] {
				t.Errorf("%s imports the engine: only transports do", pkg)
			}
			if transports[imp] && !transports[pkg] {
				t.Errorf("%s imports the transport %s", pkg, imp)
			}
		}
	}
}
