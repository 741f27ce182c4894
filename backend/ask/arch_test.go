package ask

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAskStandsOnItsInterfaces: the pipeline reaches the search, the store, the files, the chat
// model and the facts only through the interfaces this package declares (issue 24, item 6). It
// may use the store's and search's types (and search's tokenizer), but calls none of their
// functions (no query runs here that the engine did not hand it), and imports none of the
// packages behind the other interfaces.
func TestAskStandsOnItsInterfaces(t *testing.T) {
	const mod = "github.com/strata-app/strata/backend/"
	forbidden := map[string]bool{mod + "engine": true, mod + "llm": true, mod + "lint": true, mod + "ingest": true,
		mod + "enrich": true, mod + "jobs": true, mod + "embed": true, mod + "storage": true}
	typesOnly := map[string]bool{"store": true, "search": true, "extract": true}
	// search's tokenizer reads text, not the index: ask splits titles into words as search does.
	textOnly := map[string]bool{"search.Words": true, "search.Stems": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if forbidden[path] {
				t.Errorf("%s imports %s: ask reaches it through an interface", name, path)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && typesOnly[pkg.Name] && ast.IsExported(sel.Sel.Name) && !textOnly[pkg.Name+"."+sel.Sel.Name] {
					t.Errorf("%s: %s calls %s.%s: ask uses only the types of %s", fset.Position(call.Pos()), name, pkg.Name, sel.Sel.Name, pkg.Name)
				}
			}
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("read only %d files", checked)
	}
}
