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
	const mod = "github.com/strata-app/strata/"
	// The transports that live under backend/ (DESIGN.md's layout): they sit above the engine.
	transports := map[string]bool{mod + "backend/mcpserver": true, mod + "backend/httpapi": true}
	pkgs := goList(t, "", "./backend/...")
	if len(pkgs) < 8 {
		t.Fatalf("go list found only %d backend packages", len(pkgs))
	}
	for _, p := range pkgs {
		pkg, imports, deps := p.pkg, p.imports, p.deps
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

// listed is one package as `go list` sees it under some build tags.
type listed struct {
	pkg           string
	imports, deps []string
}

func goList(t *testing.T, tags string, patterns ...string) []listed {
	t.Helper()
	args := append([]string{"list", "-tags", tags, "-f", "{{.ImportPath}}|{{join .Imports \",\"}}|{{join .Deps \",\"}}"}, patterns...)
	// Only stdout is parsed: on a fresh machine, go prints "go: downloading …" on stderr the
	// first time a build tag needs more modules, which once made the parse panic.
	cmd := exec.Command("go", args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var pkgs []listed
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		if len(parts) != 3 {
			t.Fatalf("go %s printed an unexpected line %q", strings.Join(args, " "), line)
		}
		pkgs = append(pkgs, listed{pkg: parts[0], imports: strings.Split(parts[1], ","), deps: strings.Split(parts[2], ",")})
	}
	return pkgs
}

// TestTransportsStayThin enforces the composition rules (README, architecture): transports
// reach the store only through the engine (which exposes what they need as its own types), so
// none imports backend/store; the CLI reaches the UI service only through the runtime (host),
// so it does not import app; and nothing under backend/ imports the runtime, which sits above
// every transport. The main package is checked under each build tag it has, because the
// desktop and bindings entry points are separate files.
func TestTransportsStayThin(t *testing.T) {
	const mod = "github.com/strata-app/strata"
	transports := map[string]bool{mod: true, mod + "/cli": true, mod + "/app": true, mod + "/host": true,
		mod + "/backend/mcpserver": true, mod + "/backend/httpapi": true}
	checked := map[string]bool{}
	for _, tags := range []string{"", "desktop", "bindings"} {
		for _, p := range goList(t, tags, "./...") {
			checked[p.pkg] = true
			for _, imp := range p.imports {
				if transports[p.pkg] && imp == mod+"/backend/store" {
					t.Errorf("-tags %q: the transport %s imports backend/store: use engine's types", tags, p.pkg)
				}
				if p.pkg == mod+"/cli" && imp == mod+"/app" {
					t.Errorf("-tags %q: cli imports app: reach it through host", tags)
				}
			}
			if strings.HasPrefix(p.pkg, mod+"/backend/") {
				for _, d := range p.deps {
					if d == mod+"/host" {
						t.Errorf("-tags %q: %s depends on the runtime (host): backend/ sits below it", tags, p.pkg)
					}
				}
			}
		}
	}
	for p := range transports {
		if !checked[p] {
			t.Errorf("%s was not listed: the rule checks nothing for it", p)
		}
	}
}
