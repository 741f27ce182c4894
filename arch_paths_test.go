package main

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestPathsCompareInOnePlace: whether a path lies in a folder is decided by backend/paths,
// which knows drive letters, UNC shares, long-path prefixes and case-insensitive file systems;
// a string-prefix test against a separator, or filepath.Rel used as a containment check, was
// right on Linux only (on macOS it let ~/.SSH past the remote guard's ".ssh" rule). Found by
// syntax in every non-test Go file of every build tag.
func TestPathsCompareInOnePlace(t *testing.T) {
	prefixFuncs := map[string]bool{"HasPrefix": true, "TrimPrefix": true, "CutPrefix": true}
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch path {
			case "frontend", "tests", "node_modules", "bin", filepath.FromSlash("backend/paths"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		src := func(e ast.Expr) string {
			var b strings.Builder
			_ = printer.Fprint(&b, fset, e)
			return b.String()
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case pkg.Name == "strings" && prefixFuncs[sel.Sel.Name]:
				for _, a := range call.Args {
					if strings.Contains(src(a), "filepath.Separator") {
						t.Errorf("%s: strings.%s against filepath.Separator: use paths.Host (Within, Inside, Rel), which compares as the OS does",
							fset.Position(call.Pos()), sel.Sel.Name)
					}
				}
			case pkg.Name == "filepath" && sel.Sel.Name == "Rel":
				t.Errorf("%s: filepath.Rel: use paths.Host.Rel, which also says whether the path is inside the folder", fset.Position(call.Pos()))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("found only %d Go files", files)
	}
}
