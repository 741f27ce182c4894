package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBackendReadsNoEnvironment: the environment is read at the edge (cli.ConfigFromEnv, the
// desktop main) into engine.Config, never under backend/, so a test's engine does not change
// with what the developer has exported. Calls are found by syntax (whatever name "os" or
// "syscall" is imported under), in every non-test Go file of every build tag.
func TestBackendReadsNoEnvironment(t *testing.T) {
	banned := map[string]map[string]bool{
		"os":      {"Getenv": true, "LookupEnv": true, "Environ": true, "ExpandEnv": true, "UserHomeDir": true, "UserConfigDir": true, "UserCacheDir": true},
		"syscall": {"Getenv": true, "Environ": true},
	}
	files := 0
	err := filepath.WalkDir("backend", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		files++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		names := map[string]string{} // local name → banned package
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if banned[p] == nil {
				continue
			}
			name := p
			if im.Name != nil {
				name = im.Name.Name
			}
			names[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && banned[names[id.Name]][sel.Sel.Name] {
				t.Errorf("%s: %s.%s: backend/ does not read the environment; take the value in engine.Config (or a getenv parameter) and read it in cli/env.go",
					fset.Position(sel.Pos()), names[id.Name], sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 30 {
		t.Fatalf("found only %d Go files under backend/", files)
	}
}
