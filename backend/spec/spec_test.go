package spec_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/specs"
)

// TestBrokenSpecNamesFileAndLine: every way a spec can be wrong — YAML that does not parse, a
// key the schema does not know, a value that fails validation, a field that is missing — is
// refused at load as file:line, the line of the key at fault (or of the mapping that lacks it).
func TestBrokenSpecNamesFileAndLine(t *testing.T) {
	const note = "type: note\n"
	cases := []struct {
		name  string
		files fstest.MapFS
		file  string
		line  int
		field string // "" for YAML errors
		says  string
	}{
		{"broken YAML", fstest.MapFS{"entities/x.yaml": {Data: []byte("type: x\nfields:\n  a: {merge: latest\n  b: 1\n")}},
			"test/entities/x.yaml", 4, "", "invalid YAML"}, // the unclosed { on line 3 is noticed on line 4
		{"unknown key", fstest.MapFS{"entities/x.yaml": {Data: []byte("type: x\n\nmerge_default: latest\n")}},
			"test/entities/x.yaml", 3, "", "merge_default"},
		{"wrong type", fstest.MapFS{"entities/x.yaml": {Data: []byte("type: x\nfields:\n  a: [1, 2]\n")}},
			"test/entities/x.yaml", 3, "", "invalid YAML"},
		{"unknown merge policy", fstest.MapFS{"entities/x.yaml": {Data: []byte("# a gadget\ntype: x\nfields:\n  a:\n    merge: latest\n  b:\n    description: b\n    merge: newest\n")}},
			"test/entities/x.yaml", 8, "fields.b.merge", `unknown merge policy "newest"`},
		{"unknown entity type in a sequence", fstest.MapFS{"capabilities/c.yaml": {Data: []byte(
			"capability: t:c:v1\nbody:\n  fields: {a: string}\nentities:\n  - name: e\n    type: note\n    key: [a]\n  - name: f\n    key: [a]\n    type: compnay\n")}},
			"test/capabilities/c.yaml", 10, "entities[1].type", "compnay"},
		{"missing semantic prompt", fstest.MapFS{"semantic/s.yaml": {Data: []byte(
			"semantic: t:semantic:s:v1\nmatch: {doc_types: [invoice]}\ncapability: strata:store_invoice:v1\n")}},
			"test/semantic/s.yaml", 1, "prompt", "must not be empty"},
		{"missing body field named by required", fstest.MapFS{"capabilities/c.yaml": {Data: []byte(
			"capability: t:c:v1\nbody:\n  fields: {a: string}\n  required:\n    - a\n    - b\nentities: [{name: e, type: note, key: [a]}]\n")}},
			"test/capabilities/c.yaml", 6, "body.required[1]", `"b" is not declared`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.files["entities/note.yaml"] = &fstest.MapFile{Data: []byte(note)}
			_, err := spec.Load(spec.Source{Label: "specs", FS: specs.FS}, spec.Source{Label: "test", FS: c.files})
			var se *spec.Error
			if !errors.As(err, &se) {
				t.Fatalf("want *spec.Error, got %v", err)
			}
			if se.File != c.file || se.Line != c.line || se.Field != c.field || !strings.Contains(se.Problem, c.says) {
				t.Fatalf("got %s:%d field %q: %s\nwant %s:%d field %q saying %q", se.File, se.Line, se.Field, se.Problem, c.file, c.line, c.field, c.says)
			}
			if prefix := c.file + ":" + strconv.Itoa(c.line) + ": "; !strings.HasPrefix(se.Error(), prefix) {
				t.Fatalf("message %q does not start with %q", se.Error(), prefix)
			}
		})
	}
}

// TestShippedSpecsLoad: the specs in the binary are valid.
func TestShippedSpecsLoad(t *testing.T) {
	r, err := spec.Load(spec.Source{Label: "specs", FS: specs.FS})
	if err != nil || len(r.Capabilities) == 0 || len(r.Semantics) == 0 {
		t.Fatalf("shipped specs: %v", err)
	}
}
