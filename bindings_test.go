package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updateBindings = flag.Bool("update-bindings", false, "rewrite frontend/wailsjs from the Go types (what `make bindings` runs)")

// TestBindingsAreFresh regenerates the UI's TypeScript models and JavaScript bindings into a
// temporary folder and compares them with the committed frontend/wailsjs, so a Go type or App
// method that changed without `make bindings` fails here instead of in the window.
//
// It needs only the Go toolchain: the generator is this program built with the bindings tag
// (main_bindings.go), which is what `wails generate module` runs; Wails' CLI, GTK and a display
// are not involved. It reads wails.json for the output folder and the TypeScript output type
// (the CLI passes the latter to the generator as the tsoutputtype variable, so this does too).
func TestBindingsAreFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bindings generator")
	}
	var project struct {
		FrontendDir string `json:"frontend:dir"`
		WailsJSDir  string `json:"wailsjsdir"`
		Bindings    struct {
			TSGeneration struct {
				Prefix     string `json:"prefix"`
				Suffix     string `json:"suffix"`
				OutputType string `json:"outputType"`
			} `json:"ts_generation"`
		} `json:"bindings"`
	}
	raw, err := os.ReadFile("wails.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &project); err != nil {
		t.Fatalf("wails.json: %v", err)
	}
	committed := project.WailsJSDir
	if committed == "" {
		committed = project.FrontendDir
	}
	committed = filepath.Join(committed, "wailsjs")

	tmp := t.TempDir()
	gen := filepath.Join(tmp, "strata-bindings")
	build := exec.Command("go", "build", "-tags", "bindings", "-o", gen, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the generator (go build -tags bindings .): %v\n%s", err, out)
	}

	// The generator writes <wailsjsdir>/wailsjs from the wails.json in its working folder:
	// point that at a temporary folder unless we are updating the committed one.
	out := filepath.Dir(committed)
	dir := "."
	if !*updateBindings {
		out, dir = filepath.Join(tmp, "out"), filepath.Join(tmp, "project")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cfg := map[string]any{}
		json.Unmarshal(raw, &cfg) // parsed above
		cfg["wailsjsdir"] = out
		b, _ := json.Marshal(cfg) // a map from JSON: cannot fail
		if err := os.WriteFile(filepath.Join(dir, "wails.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command(gen)
	run.Dir = dir
	ts := project.Bindings.TSGeneration
	run.Env = append(os.Environ(), "STRATA_HOME="+filepath.Join(tmp, "data"), // the CLI needs a data folder; nothing is written there
		"tsprefix="+ts.Prefix, "tssuffix="+ts.Suffix, "tsoutputtype="+ts.OutputType)
	if b, err := run.CombinedOutput(); err != nil {
		t.Fatalf("run the generator: %v\n%s", err, b)
	}
	// Wails writes the enums of one Go package in map order (two runs of the same binary
	// differed 5 times in 25), so the models are put in one order before they are kept or
	// compared.
	models := filepath.Join(out, "wailsjs", "go", "models.ts")
	if b, err := os.ReadFile(models); err == nil {
		if err := os.WriteFile(models, canonicalModels(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if *updateBindings {
		t.Logf("wrote %s", committed)
		return
	}

	want, got := readTree(t, committed), readTree(t, filepath.Join(out, "wailsjs"))
	for _, name := range union(want, got) {
		w, inW := want[name]
		g, inG := got[name]
		switch {
		case !inW:
			t.Errorf("%s is generated but not committed", name)
		case !inG:
			t.Errorf("%s is committed but no longer generated", name)
		case !bytes.Equal(w, g):
			t.Errorf("%s is stale: the Go types or App methods changed", name)
		}
	}
	if t.Failed() {
		t.Log("run `make bindings` and commit frontend/wailsjs")
	}
}

// readTree is every file under root, by slash path relative to it.
func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p) // p is under root
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatalf("read %s: %v", root, err)
	}
	return files
}

// canonicalModels sorts the declarations inside each `export namespace` of a generated
// models.ts by name, keeping every line as generated.
func canonicalModels(src []byte) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	var out strings.Builder
	for i := 0; i < len(lines); {
		line := lines[i]
		if !strings.HasPrefix(line, "export namespace ") {
			out.WriteString(line)
			i++
			continue
		}
		out.WriteString(line)
		i++
		// The namespace's body: declarations from "\texport …" to their closing "\t}", and
		// the blank lines around them, up to the namespace's closing "}".
		type decl struct{ name, text string }
		var decls []decl
		var head, tail strings.Builder
		for i < len(lines) && strings.TrimRight(lines[i], "\r\n") != "}" {
			l := lines[i]
			if !strings.HasPrefix(l, "\texport ") {
				if len(decls) == 0 {
					head.WriteString(l)
				} else {
					tail.WriteString(l)
				}
				i++
				continue
			}
			var b strings.Builder
			for i < len(lines) {
				b.WriteString(lines[i])
				done := strings.TrimRight(lines[i], "\r\n") == "\t}"
				i++
				if done {
					break
				}
			}
			f := strings.Fields(l) // export enum|interface|class Name {
			name := ""
			if len(f) > 2 {
				name = f[2]
			}
			decls = append(decls, decl{name, b.String()})
			tail.Reset()
		}
		sort.SliceStable(decls, func(a, b int) bool { return decls[a].name < decls[b].name })
		out.WriteString(head.String())
		for _, d := range decls {
			out.WriteString(d.text)
		}
		out.WriteString(tail.String())
	}
	return []byte(out.String())
}

func union(a, b map[string][]byte) []string {
	var names []string
	for k := range a {
		names = append(names, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names
}
