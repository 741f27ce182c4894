// Package spec loads the YAML that defines Strata's domains: entity types with per-field merge
// policies (specs/entities) and payload capabilities that map a JSON body onto entities,
// observations and relationships (specs/capabilities). A new domain is YAML, not Go code
// (ADR-028); a broken spec is rejected at load with its file, line and field named.
package spec

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Merge policies: how the reducer picks a field's value among observations.
const (
	MergeLatest          = "latest"           // latest observed_at wins
	MergeHighestPriority = "highest_priority" // highest source_priority wins
	MergeMostSpecific    = "most_specific"    // highest specificity_score wins
	MergeUnion           = "union"            // lists: every distinct element of every observation
)

var mergePolicies = map[string]bool{MergeLatest: true, MergeHighestPriority: true, MergeMostSpecific: true, MergeUnion: true}

// Field value types a capability body may declare.
const (
	TypeString   = "string"
	TypeNumber   = "number"
	TypeInteger  = "integer"
	TypeBoolean  = "boolean"
	TypeDate     = "date"     // normalised to YYYY-MM-DD
	TypeDateTime = "datetime" // normalised to RFC 3339 UTC
	TypeArray    = "array"
	TypeSet      = "set" // array whose order is meaningless: sorted and de-duplicated
	TypeObject   = "object"
	TypeAny      = "any"
)

var fieldTypes = map[string]bool{TypeString: true, TypeNumber: true, TypeInteger: true, TypeBoolean: true, TypeDate: true,
	TypeDateTime: true, TypeArray: true, TypeSet: true, TypeObject: true, TypeAny: true}

// RelationshipTypes are the typed edges of seed 001 §3.10.
// RELATED_TO is additive (seed §8): what accepting an enrichment's suggestion asserts.
var RelationshipTypes = []string{"CORRECTS", "DEPENDS_ON", "DUPLICATE_OF", "PART_OF", "REFERS_TO", "RELATED_TO", "SETTLES", "SUPERSEDES"}

// Acyclic lists the relationship types that may not form a cycle.
var Acyclic = map[string]bool{"PART_OF": true, "DEPENDS_ON": true, "SUPERSEDES": true}

// ValidRelationshipType reports whether t is one of RelationshipTypes.
func ValidRelationshipType(t string) bool {
	i := sort.SearchStrings(RelationshipTypes, t)
	return i < len(RelationshipTypes) && RelationshipTypes[i] == t
}

// FieldPolicy is how one field of an entity type merges.
type FieldPolicy struct {
	Merge       string `yaml:"merge"`
	Description string `yaml:"description"`
}

// EntityType declares an entity type and its merge policies.
type EntityType struct {
	Type          string                 `yaml:"type"`
	SchemaVersion string                 `yaml:"schema_version"`
	Description   string                 `yaml:"description"`
	DefaultMerge  string                 `yaml:"default_merge"`
	Fields        map[string]FieldPolicy `yaml:"fields"`
	File          string                 `yaml:"-"`
}

// Policy returns the merge policy of field (the default for undeclared fields).
func (t *EntityType) Policy(field string) string {
	if p, ok := t.Fields[field]; ok && p.Merge != "" {
		return p.Merge
	}
	return t.DefaultMerge
}

// Body declares the JSON body a capability accepts.
type Body struct {
	Required   []string          `yaml:"required"`
	Fields     map[string]string `yaml:"fields"` // field → type
	Additional bool              `yaml:"additional"`
}

// Match lets bare JSON (no envelope) route to a capability when it has all these keys.
type Match struct {
	Required []string `yaml:"required"`
}

// EntityRule maps the body (or each item of a body array) onto one entity.
type EntityRule struct {
	Name     string            `yaml:"name"`     // local name, used by relationships
	Type     string            `yaml:"type"`     // entity type
	Each     string            `yaml:"each"`     // body array: one entity per item
	Key      []string          `yaml:"key"`      // references forming the identity key
	Label    string            `yaml:"label"`    // reference for the canonical name (default: key values)
	Optional bool              `yaml:"optional"` // skip when the key is absent instead of failing
	Fields   map[string]string `yaml:"fields"`   // entity field → reference
	Rest     bool              `yaml:"rest"`     // also copy body fields no rule maps (primary only)
}

// RelationshipRule links two rules' entities.
type RelationshipRule struct {
	Type string `yaml:"type"`
	From string `yaml:"from"`
	To   string `yaml:"to"`
}

// Capability is one payload capability (seed 001 §3.1), e.g. strata:store_invoice:v1.
type Capability struct {
	ID             string             `yaml:"capability"`
	Description    string             `yaml:"description"`
	SourcePriority int                `yaml:"source_priority"`
	Body           Body               `yaml:"body"`
	Match          *Match             `yaml:"match"`
	Entities       []EntityRule       `yaml:"entities"`
	Relationships  []RelationshipRule `yaml:"relationships"`
	File           string             `yaml:"-"`
}

// Semantic is a semantic-extraction spec (ADR-028's SemanticAdapter): for documents it
// matches, its prompt asks a local chat model for JSON, which the named capability maps onto
// entities, observations and relationships — the same engine as payloads.
type Semantic struct {
	ID          string `yaml:"semantic"`
	Description string `yaml:"description"`
	Match       struct {
		DocTypes []string `yaml:"doc_types"` // heuristic document types (invoice, meeting-notes, …)
	} `yaml:"match"`
	Capability string `yaml:"capability"` // the capability whose body the answer is
	Prompt     string `yaml:"prompt"`
	MaxChars   int    `yaml:"max_chars"` // how much of the document is sent (default 12000)
	File       string `yaml:"-"`
}

// Registry is the loaded, validated set of specs.
type Registry struct {
	EntityTypes  map[string]*EntityType
	Capabilities map[string]*Capability
	Semantics    map[string]*Semantic
	// Enrichments are the merged enrichments.yaml settings by enrichment name (enrichments.go).
	Enrichments map[string]*EnrichmentSettings
}

// SemanticFor returns the semantic spec matching a document type (the first by ID), or nil.
func (r *Registry) SemanticFor(docType string) *Semantic {
	ids := make([]string, 0, len(r.Semantics))
	for id := range r.Semantics {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		for _, t := range r.Semantics[id].Match.DocTypes {
			if t == docType {
				return r.Semantics[id]
			}
		}
	}
	return nil
}

// CapabilityIDs lists capabilities in sorted order.
func (r *Registry) CapabilityIDs() []string {
	out := make([]string, 0, len(r.Capabilities))
	for id := range r.Capabilities {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Source is one folder of specs; Label is how its files are named in errors.
type Source struct {
	Label string
	FS    fs.FS
}

// Error names the spec file, line (1-based) and field at fault. A field that is missing is
// reported at the line of the mapping that should hold it, so an editor's "go to file:line"
// always lands somewhere useful.
type Error struct {
	File    string
	Line    int
	Field   string
	Problem string
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field == "" {
		return loc + ": " + e.Problem
	}
	return loc + ": " + e.Field + ": " + e.Problem
}

// Load reads every source in order; a later source's spec replaces an earlier one with the same
// type or capability ID (so a user's data folder can override what ships in the binary).
func Load(sources ...Source) (*Registry, error) {
	r := &Registry{EntityTypes: map[string]*EntityType{}, Capabilities: map[string]*Capability{}, Semantics: map[string]*Semantic{},
		Enrichments: map[string]*EnrichmentSettings{}}
	// Validation names a field; the line comes from the file's text, kept until Load returns.
	texts := map[string][]byte{}
	located := func(err error) error {
		var se *Error
		if errors.As(err, &se) && se.Line == 0 {
			se.Line = fieldLine(texts[se.File], se.Field)
		}
		return err
	}
	for _, src := range sources {
		if err := each(src, "entities", func(file string, data []byte) error {
			texts[file] = data
			var t EntityType
			if err := decode(file, data, &t); err != nil {
				return err
			}
			t.File = file
			r.EntityTypes[t.Type] = &t
			return located(validateEntityType(&t))
		}); err != nil {
			return nil, err
		}
		if err := each(src, "capabilities", func(file string, data []byte) error {
			texts[file] = data
			var c Capability
			if err := decode(file, data, &c); err != nil {
				return err
			}
			c.File = file
			r.Capabilities[c.ID] = &c
			return nil
		}); err != nil {
			return nil, err
		}
		if err := r.loadEnrichments(src); err != nil {
			return nil, err
		}
		if err := each(src, "semantic", func(file string, data []byte) error {
			texts[file] = data
			var m Semantic
			if err := decode(file, data, &m); err != nil {
				return err
			}
			m.File = file
			r.Semantics[m.ID] = &m
			return nil
		}); err != nil {
			return nil, err
		}
	}
	sem := make([]string, 0, len(r.Semantics))
	for id := range r.Semantics {
		sem = append(sem, id)
	}
	sort.Strings(sem) // with two broken specs, the same one is reported every time
	for _, id := range sem {
		if err := r.validateSemantic(r.Semantics[id]); err != nil {
			return nil, located(err)
		}
	}
	for _, id := range r.CapabilityIDs() {
		if err := r.validateCapability(r.Capabilities[id]); err != nil {
			return nil, located(err)
		}
	}
	return r, nil
}

func each(src Source, dir string, fn func(file string, data []byte) error) error {
	entries, err := fs.ReadDir(src.FS, dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("read %s/%s: %w", src.Label, dir, err)
	}
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
			continue
		}
		p := path.Join(dir, e.Name())
		data, err := fs.ReadFile(src.FS, p)
		if err != nil {
			return fmt.Errorf("read %s/%s: %w", src.Label, p, err)
		}
		if err := fn(path.Join(src.Label, p), data); err != nil {
			return err
		}
	}
	return nil
}

func decode(file string, data []byte, v any) error {
	if err := yaml.UnmarshalWithOptions(data, v, yaml.Strict()); err != nil {
		e := &Error{File: file, Line: 1, Problem: "invalid YAML: " + strings.ReplaceAll(yaml.FormatError(err, false, false), "\n", " ")}
		var ye yaml.Error
		if errors.As(err, &ye) {
			if tok := ye.GetToken(); tok != nil && tok.Position != nil && tok.Position.Line > 0 {
				e.Line, e.Problem = tok.Position.Line, "invalid YAML: "+strings.ReplaceAll(ye.GetMessage(), "\n", " ")
			}
		}
		return e
	}
	return nil
}

func validateEntityType(t *EntityType) error {
	bad := func(field, format string, args ...any) error {
		return &Error{File: t.File, Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	if !identRe(t.Type) {
		return bad("type", "must be a lower-case identifier (letters, digits, _), got %q", t.Type)
	}
	if t.SchemaVersion == "" {
		t.SchemaVersion = "1.0"
	}
	if t.DefaultMerge == "" {
		t.DefaultMerge = MergeLatest
	}
	if !mergePolicies[t.DefaultMerge] {
		return bad("default_merge", "unknown merge policy %q (want one of latest, highest_priority, most_specific, union)", t.DefaultMerge)
	}
	for _, name := range sortedKeys(t.Fields) {
		p := t.Fields[name]
		if p.Merge != "" && !mergePolicies[p.Merge] {
			return bad("fields."+name+".merge", "unknown merge policy %q (want one of latest, highest_priority, most_specific, union)", p.Merge)
		}
	}
	return nil
}

func (r *Registry) validateCapability(c *Capability) error {
	bad := func(field, format string, args ...any) error {
		return &Error{File: c.File, Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	parts := strings.Split(c.ID, ":")
	if len(parts) != 3 || parts[0] == "" || !identRe(parts[1]) || !strings.HasPrefix(parts[2], "v") {
		return bad("capability", "must look like namespace:name:vN, got %q", c.ID)
	}
	for _, f := range sortedKeys(c.Body.Fields) {
		if !fieldTypes[c.Body.Fields[f]] {
			return bad("body.fields."+f, "unknown type %q", c.Body.Fields[f])
		}
	}
	for i, f := range c.Body.Required {
		if _, ok := c.Body.Fields[f]; !ok {
			return bad(fmt.Sprintf("body.required[%d]", i), "%q is not declared in body.fields", f)
		}
	}
	if c.Match != nil {
		if len(c.Match.Required) == 0 {
			return bad("match.required", "must list at least one field")
		}
		for i, f := range c.Match.Required {
			if _, ok := c.Body.Fields[f]; !ok {
				return bad(fmt.Sprintf("match.required[%d]", i), "%q is not declared in body.fields", f)
			}
		}
	}
	if len(c.Entities) == 0 {
		return bad("entities", "must declare at least one entity (the first is the payload's own entity)")
	}
	names := map[string]bool{}
	for i, e := range c.Entities {
		at := fmt.Sprintf("entities[%d]", i)
		if !identRe(e.Name) {
			return bad(at+".name", "must be an identifier, got %q", e.Name)
		}
		if names[e.Name] {
			return bad(at+".name", "duplicate rule name %q", e.Name)
		}
		names[e.Name] = true
		if _, ok := r.EntityTypes[e.Type]; !ok {
			return bad(at+".type", "unknown entity type %q (declare it in specs/entities)", e.Type)
		}
		if i == 0 && (e.Optional || e.Each != "") {
			return bad(at, "the first entity is the payload's own entity: it cannot be optional or per-item")
		}
		if e.Each != "" {
			if t := c.Body.Fields[e.Each]; t != TypeArray && t != TypeSet {
				return bad(at+".each", "%q must be a body field of type array", e.Each)
			}
		}
		if len(e.Key) == 0 {
			return bad(at+".key", "must list at least one reference")
		}
		refs := append([]string{}, e.Key...)
		if e.Label != "" {
			refs = append(refs, e.Label)
		}
		for _, f := range sortedKeys(e.Fields) {
			refs = append(refs, e.Fields[f])
		}
		for _, ref := range refs {
			if err := c.checkRef(ref, e.Each != ""); err != "" {
				return bad(at, "reference %q: %s", ref, err)
			}
		}
		if e.Rest && i != 0 {
			return bad(at+".rest", "only the first entity may take the rest of the body")
		}
	}
	for i, rel := range c.Relationships {
		at := fmt.Sprintf("relationships[%d]", i)
		if !ValidRelationshipType(rel.Type) {
			return bad(at+".type", "unknown relationship type %q (want one of %s)", rel.Type, strings.Join(RelationshipTypes, ", "))
		}
		if !names[rel.From] {
			return bad(at+".from", "no entity rule named %q", rel.From)
		}
		if !names[rel.To] {
			return bad(at+".to", "no entity rule named %q", rel.To)
		}
	}
	return nil
}

func (r *Registry) validateSemantic(m *Semantic) error {
	bad := func(field, format string, args ...any) error {
		return &Error{File: m.File, Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	if parts := strings.Split(m.ID, ":"); len(parts) != 4 || parts[1] != "semantic" || !strings.HasPrefix(parts[3], "v") {
		return bad("semantic", "must look like namespace:semantic:name:vN, got %q", m.ID)
	}
	if len(m.Match.DocTypes) == 0 {
		return bad("match.doc_types", "must list at least one document type")
	}
	if _, ok := r.Capabilities[m.Capability]; !ok {
		return bad("capability", "unknown capability %q", m.Capability)
	}
	if strings.TrimSpace(m.Prompt) == "" {
		return bad("prompt", "must not be empty")
	}
	if m.MaxChars == 0 {
		m.MaxChars = 12000
	}
	if m.MaxChars < 500 {
		return bad("max_chars", "must be at least 500")
	}
	return nil
}

// checkRef validates a reference: a body field, item.<field> inside `each`, $index or $payload.
func (c *Capability) checkRef(ref string, inEach bool) string {
	switch {
	case ref == "$payload":
		return ""
	case ref == "$index":
		if !inEach {
			return "$index is only meaningful with each"
		}
		return ""
	case ref == "item" || strings.HasPrefix(ref, "item."):
		if !inEach {
			return "item.* is only meaningful with each"
		}
		return ""
	}
	if _, ok := c.Body.Fields[ref]; !ok {
		return "not a field declared in body.fields"
	}
	return ""
}

func identRe(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		ok := c == '_' || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9')
		if !ok {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// fieldLine is the 1-based line of a validation field path ("fields.a.merge",
// "entities[0].type") in a spec's YAML text: the line of the deepest key or item of the path
// that exists, so a missing field points at the mapping that should hold it (1 for the top).
func fieldLine(data []byte, field string) int {
	f, err := parser.ParseBytes(data, 0)
	if err != nil || len(f.Docs) == 0 || f.Docs[0] == nil || f.Docs[0].Body == nil {
		return 1
	}
	node, line := f.Docs[0].Body, 1
	if tok := node.GetToken(); tok != nil && tok.Position != nil {
		line = tok.Position.Line
	}
	for _, seg := range pathSegments(field) {
		next, at := child(node, seg)
		if next == nil {
			break
		}
		node, line = next, at
	}
	return line
}

// pathSegments splits "entities[0].type" into "entities", "[0]", "type".
func pathSegments(field string) []string {
	var out []string
	for _, part := range strings.Split(field, ".") {
		for part != "" {
			i := strings.IndexByte(part[1:], '[') + 1
			if i == 0 {
				out = append(out, part)
				break
			}
			out = append(out, part[:i])
			part = part[i:]
		}
	}
	return out
}

// child steps one path segment into node: a mapping key or a sequence index "[n]". It returns
// the child and the line the segment starts on (the key's line, or the item's).
func child(node ast.Node, seg string) (ast.Node, int) {
	for {
		switch n := node.(type) {
		case *ast.TagNode:
			node = n.Value
			continue
		case *ast.AnchorNode:
			node = n.Value
			continue
		}
		break
	}
	if strings.HasPrefix(seg, "[") && strings.HasSuffix(seg, "]") {
		i, err := strconv.Atoi(seg[1 : len(seg)-1])
		seq, ok := node.(*ast.SequenceNode)
		if err != nil || !ok || i < 0 || i >= len(seq.Values) {
			return nil, 0
		}
		v := seq.Values[i]
		return v, v.GetToken().Position.Line
	}
	var pairs []*ast.MappingValueNode
	switch n := node.(type) {
	case *ast.MappingNode:
		pairs = n.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{n}
	}
	for _, mv := range pairs {
		if k := mv.Key.GetToken(); k != nil && k.Value == seg {
			return mv.Value, k.Position.Line
		}
	}
	return nil, 0
}
