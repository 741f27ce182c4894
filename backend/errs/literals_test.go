package errs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// codeLike is a string shaped like an error code even if nobody registered it: ALL_CAPS words
// joined by underscores, ending the way codes end. Relationship types (PART_OF, REFERS_TO) and
// environment variables (STRATA_HOME) do not end this way.
var codeLike = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*_(ERROR|FAILED|NOT_FOUND|INVALID|EXCEEDED|UNAVAILABLE|DENIED|FORBIDDEN|UNAUTHORIZED|IN_USE|NOT_RUNNING|TOO_LARGE|UNREADABLE|UNSUPPORTED|DETECTED|CANCELLED|TIMEOUT|CONFLICT|ONLY)$`)

// finding is one place that breaks the registry's rules.
type finding struct {
	pos  token.Position
	what string
}

// scanModule parses every non-test .go file under root (whatever its build tags) except those
// of the errs package itself, and reports string literals that spell a code and errs.Wrap
// calls that interpolate their cause into the message.
func scanModule(t *testing.T, root string) []finding {
	t.Helper()
	errsDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	var out []finding
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			if abs, _ := filepath.Abs(path); abs == errsDir {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		out = append(out, scanFile(fset, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func scanFile(fset *token.FileSet, f *ast.File) []finding {
	var out []finding
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false // import paths are not codes
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err != nil {
				return true
			}
			if what := codeInLiteral(s); what != "" {
				out = append(out, finding{fset.Position(n.Pos()), what})
			}
		case *ast.CallExpr:
			if what := causeInMessage(n); what != "" {
				out = append(out, finding{fset.Position(n.Pos()), what})
			}
		}
		return true
	})
	return out
}

// codeInLiteral says why s spells a code: it is one, looks like one, or quotes one inside a
// longer text (a JSON envelope or a SQL pattern written by hand).
func codeInLiteral(s string) string {
	if _, ok := registry[s]; ok {
		return "the literal " + strconv.Quote(s) + ": use the errs constant"
	}
	if codeLike.MatchString(s) {
		return "the literal " + strconv.Quote(s) + " looks like an error code: register it in errs and use the constant"
	}
	for name := range registry {
		for _, q := range []string{`"`, `'`} {
			if strings.Contains(s, q+name+q) {
				return "a literal quoting " + name + ": build it from the errs constant"
			}
		}
	}
	return ""
}

// causeInMessage reports an errs.Wrap(code, cause, format, args...) whose args repeat the cause,
// and an errs.New whose args include an error (by the names errors go by), since Wrap is the
// way to attach one.
func causeInMessage(call *ast.CallExpr) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "errs" {
		return ""
	}
	switch sel.Sel.Name {
	case "Wrap":
		if len(call.Args) < 4 {
			return ""
		}
		cause := types.ExprString(call.Args[1])
		for _, a := range call.Args[3:] {
			if s := types.ExprString(a); s == cause || s == cause+".Error()" || strings.Contains(s, "("+cause+")") {
				return "errs.Wrap interpolates its cause " + cause + " into the message: it is in details already"
			}
		}
	case "New":
		for _, a := range call.Args[1:] {
			if s := types.ExprString(a); looksLikeError(s) {
				return "errs.New interpolates the error " + s + " into the message: use errs.Wrap(code, " + s + ", …)"
			}
		}
	}
	return ""
}

func looksLikeError(expr string) bool {
	last := expr[strings.LastIndex(expr, ".")+1:]
	return slices.Contains([]string{"err", "cerr", "cause", "Err"}, last) || strings.HasSuffix(expr, ".Error()") ||
		strings.Contains(expr, "(err)")
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the errs package")
		}
		dir = parent
	}
}

// TestNoCodeOutsideErrs keeps the registry the one place codes are spelled, and messages free
// of interpolated causes, in every non-test file of the module.
func TestNoCodeOutsideErrs(t *testing.T) {
	root := moduleRoot(t)
	for _, f := range scanModule(t, root) {
		rel, _ := filepath.Rel(root, f.pos.Filename)
		t.Errorf("%s:%d: %s", rel, f.pos.Line, f.what)
	}
}

// The scanner itself must find what it is for; without this a scanner that skips every file
// would pass the test above.
func TestScannerFindsLiteralCodesAndCauses(t *testing.T) {
	dir := t.TempDir()
	src := `package x

import "github.com/strata-app/strata/backend/errs"

const c = "DOCUMENT_NOT_FOUND"

var rel = []string{"PART_OF", "REFERS_TO", "STRATA_HOME"}

func f(err error, path string) error {
	_ = "QUOTA_EXCEEDED"
	_ = ` + "`" + `error LIKE '%"NO_CHAT_MODEL"%'` + "`" + `
	_ = errs.Wrap(errs.Internal, err, "cannot open %s: %v", path, err)
	_ = errs.Wrap(errs.Internal, err, "cannot open %s", path)
	_ = errs.New(errs.Validation, "bad: %v", err)
	return errs.New(errs.Validation, "bad %s", path)
}
`
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(`package x
const wire = "VALIDATION_ERROR" // tests may pin the wire spelling
`), 0o600); err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, f := range scanModule(t, dir) {
		lines = append(lines, f.pos.Line)
	}
	if want := []int{5, 10, 11, 12, 14}; !slices.Equal(lines, want) {
		t.Fatalf("findings on lines %v, want %v", lines, want)
	}
}

// TestEveryConstantIsRegistered: a code declared as a constant in errs but missing from the
// registry would answer 500 and be retried as a bug; one registered without a constant could
// only be written as a literal.
func TestEveryConstantIsRegistered(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				for _, v := range s.(*ast.ValueSpec).Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if s, _ := strconv.Unquote(lit.Value); codeShape.MatchString(s) {
							consts[s] = true
						}
					}
				}
			}
		}
	}
	for name := range consts {
		if _, ok := Lookup(name); !ok {
			t.Errorf("the constant %s is not in the registry", name)
		}
	}
	for _, c := range All() {
		if !consts[c.Name] {
			t.Errorf("%s is registered but has no constant", c.Name)
		}
	}
}
