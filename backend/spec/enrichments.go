package spec

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
)

// EnrichmentsFile is where enrichment settings live in a spec source: specs/enrichments.yaml
// ships in the binary, and the same file in a data folder's specs/ overrides it key by key.
const EnrichmentsFile = "enrichments.yaml"

// EnrichmentSettings are one enrichment's settings after every source is merged: whether it
// runs, and its own parameters (thresholds, aliases …), which the enrichment decodes and
// validates itself. File and Line say where the last override came from, for errors.
type EnrichmentSettings struct {
	Enabled bool
	Params  map[string]any
	File    string
	Line    int
	text    []byte
}

// enrichmentsDoc is the file's shape: enrichments: {Name: {enabled: bool, <param>: value}}.
type enrichmentsDoc struct {
	Enrichments map[string]map[string]any `yaml:"enrichments"`
}

// loadEnrichments merges src's enrichments.yaml into r.Enrichments: a later source's keys
// replace an earlier one's, one key at a time, so an override file names only what it changes.
func (r *Registry) loadEnrichments(src Source) error {
	data, err := fs.ReadFile(src.FS, EnrichmentsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s/%s: %w", src.Label, EnrichmentsFile, err)
	}
	file := path.Join(src.Label, EnrichmentsFile)
	var doc enrichmentsDoc
	if err := decode(file, data, &doc); err != nil {
		return err
	}
	for _, name := range sortedKeys(doc.Enrichments) {
		cur, ok := r.Enrichments[name]
		if !ok {
			cur = &EnrichmentSettings{Enabled: true, Params: map[string]any{}}
			r.Enrichments[name] = cur
		}
		cur.File, cur.text = file, data
		cur.Line = fieldLine(data, "enrichments."+name)
		for k, v := range doc.Enrichments[name] {
			if k == "enabled" {
				b, ok := v.(bool)
				if !ok {
					return &Error{File: file, Line: fieldLine(data, "enrichments."+name+".enabled"), Field: "enrichments." + name + ".enabled",
						Problem: "must be true or false"}
				}
				cur.Enabled = b
				continue
			}
			cur.Params[k] = v
		}
	}
	return nil
}

// EnrichmentError is a spec error about one enrichment's parameter, located at the line of the
// file that last set it, for an enrichment that refuses its settings.
func (r *Registry) EnrichmentError(name, param, problem string) error {
	s := r.Enrichments[name]
	field := "enrichments." + name
	if param != "" {
		field += "." + param
	}
	if s == nil || s.File == "" {
		return &Error{File: EnrichmentsFile, Line: 1, Field: field, Problem: problem}
	}
	return &Error{File: s.File, Line: fieldLine(s.text, field), Field: field, Problem: problem}
}

// EnrichmentNames lists the enrichments any source configured, sorted.
func (r *Registry) EnrichmentNames() []string {
	out := make([]string, 0, len(r.Enrichments))
	for n := range r.Enrichments {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
