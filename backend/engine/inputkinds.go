package engine

import (
	"sort"

	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/spec"
)

// InputKind is one shape ingest accepts (seed 000's discovery: "clients can enumerate available
// input kinds"). index_status and `strata status` list them all, built from the loaded spec
// registry, so that a spec dropped into specs/ is discoverable by an AI client without reading
// any documentation — the list cannot drift from what the classifier accepts.
type InputKind struct {
	// Kind is the route: content, extract-file, payload, or semantic.
	Kind string `json:"kind"`
	// ID names this entry uniquely: the kind itself, a capability ID or a semantic spec ID.
	ID string `json:"id"`
	// InputKind is the value of ingest's input_kind that forces this route.
	InputKind   string `json:"input_kind"`
	Description string `json:"description"`
	// RequiredFields are the top-level keys data must have; RequiredOneOf, when set, means at
	// least one of those keys.
	RequiredFields []string `json:"required_fields"`
	RequiredOneOf  []string `json:"required_one_of,omitempty"`
	OptionalFields []string `json:"optional_fields,omitempty"`
	// Body is the payload body a capability declares (payload and semantic kinds).
	Body *InputBody `json:"body,omitempty"`
	// MatchFields: bare JSON (no envelope) that has all these keys is routed here.
	MatchFields []string `json:"match_fields,omitempty"`
	// Capability is, for a semantic spec, the capability whose body its model answer is.
	Capability string `json:"capability,omitempty"`
	// DocTypes are, for a semantic spec, the document types it reads.
	DocTypes []string `json:"doc_types,omitempty"`
	// SpecFile is the YAML file that declared it.
	SpecFile string `json:"spec_file,omitempty"`
}

// InputBody is a capability's declared body: its required fields and every field's type.
type InputBody struct {
	Required   []string          `json:"required"`
	Fields     map[string]string `json:"fields"`
	Additional bool              `json:"additional"`
}

// InputKinds lists every input kind in a fixed order: content, extract-file, the generic
// payload envelope, then each capability and each semantic spec by ID.
func (e *Engine) InputKinds() []InputKind { return inputKinds(e.specs) }

func inputKinds(reg *spec.Registry) []InputKind {
	out := []InputKind{
		{Kind: ingest.KindContent, ID: ingest.KindContent, InputKind: ingest.KindContent,
			Description:    "A note or any text, stored as a document and searchable at once.",
			RequiredFields: []string{}, RequiredOneOf: []string{"text", "annotation"},
			OptionalFields: []string{"title", "tags", "source", "agent_id", "file", "line_start", "line_end", "chain_name", "observed_at", "client_request_id"}},
		{Kind: ingest.KindExtractFile, ID: ingest.KindExtractFile, InputKind: ingest.KindExtractFile,
			Description:    "A file (PDF, DOCX, Markdown, HTML, text, CSV, JSON, code) inside a watched folder or allowed root, read in phases in the background.",
			RequiredFields: []string{"file_path"}},
		{Kind: ingest.KindPayload, ID: ingest.KindPayload, InputKind: ingest.KindPayload,
			Description:    "A structured payload for one of the capabilities below.",
			RequiredFields: []string{"capability_id", "body", "provenance"}},
	}
	body := func(c *spec.Capability) *InputBody {
		fields := make(map[string]string, len(c.Body.Fields))
		for k, v := range c.Body.Fields {
			fields[k] = v
		}
		return &InputBody{Required: nonNil(c.Body.Required), Fields: fields, Additional: c.Body.Additional}
	}
	for _, id := range reg.CapabilityIDs() {
		c := reg.Capabilities[id]
		k := InputKind{Kind: ingest.KindPayload, ID: c.ID, InputKind: c.ID, Description: c.Description,
			RequiredFields: []string{"capability_id", "body", "provenance"}, Body: body(c), SpecFile: c.File}
		if c.Match != nil {
			k.MatchFields = c.Match.Required
		}
		out = append(out, k)
	}
	sem := make([]string, 0, len(reg.Semantics))
	for id := range reg.Semantics {
		sem = append(sem, id)
	}
	sort.Strings(sem)
	for _, id := range sem {
		m := reg.Semantics[id]
		k := InputKind{Kind: "semantic", ID: m.ID, InputKind: m.Capability, Description: m.Description,
			RequiredFields: []string{}, Capability: m.Capability, DocTypes: m.Match.DocTypes, SpecFile: m.File}
		if c := reg.Capabilities[m.Capability]; c != nil { // Load guarantees it; stay total anyway
			k.RequiredFields, k.Body = nonNil(c.Body.Required), body(c)
		}
		out = append(out, k)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
