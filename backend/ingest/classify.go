package ingest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/spec"
)

// Route is where the classifier sends an input.
type Route struct {
	Kind       string           // content | extract-file | payload
	Capability *spec.Capability // for payloads routed by spec shape or explicit capability kind
	// Semantic is the semantic spec whose shape the bare JSON matched (or that input_kind
	// named); its capability maps the JSON. nil when the route did not come from a spec.
	Semantic *spec.Semantic
}

// Classify decides the input kind. With kind empty or "auto" it applies DESIGN.md's precedence:
// {text}/{annotation} → content; {file_path} → extract-file; {capability_id, body, provenance}
// → payload; bare JSON matching a registered capability's or semantic spec's shape → that
// capability (seed 000: "JSON matching a registered spec → that spec"). The most specific shape
// (most required keys) wins; a tie between different capabilities is a VALIDATION_ERROR naming
// the candidates, never a guess.
func Classify(reg *spec.Registry, kind string, obj map[string]any) (Route, error) {
	switch kind {
	case "", KindAuto:
	case KindContent, KindExtractFile, KindPayload:
		return Route{Kind: kind}, nil
	default:
		if c, ok := reg.Capabilities[kind]; ok {
			return Route{Kind: KindPayload, Capability: c}, nil
		}
		if m, ok := reg.Semantics[kind]; ok {
			if c, ok := reg.Capabilities[m.Capability]; ok {
				return Route{Kind: KindPayload, Capability: c, Semantic: m}, nil
			}
		}
		return Route{}, errs.New(errs.UnsupportedInputKind, "unknown input kind %q", kind).
			With("accepted_kinds", acceptedKinds(reg)).
			WithHint("omit input_kind to let Strata detect it, or use one of the accepted kinds")
	}
	has := func(k string) bool { _, ok := obj[k]; return ok }
	switch {
	case has("text") || has("annotation"):
		return Route{Kind: KindContent}, nil
	case has("file_path"):
		return Route{Kind: KindExtractFile}, nil
	case has("capability_id") && has("body"):
		return Route{Kind: KindPayload}, nil
	}
	best := shapeCandidates(reg, obj)
	switch len(best) {
	case 0:
		return Route{}, errs.New(errs.Validation, "cannot tell what kind of input this is; accepted shapes: %s", strings.Join(acceptedShapes(reg), "; ")).
			With("accepted_shapes", acceptedShapes(reg)).
			WithHint("send {\"text\": …} for notes, {\"capability_id\", \"body\", \"provenance\"} for structured data, or pass input_kind")
	case 1:
		return best[0].route, nil
	}
	// Several shapes fit equally well. Candidates that lead to the same capability (a
	// capability's match and the semantic spec that feeds it) agree; different ones do not.
	names := make([]string, len(best))
	for i, c := range best {
		names[i] = c.name
	}
	for _, c := range best[1:] {
		if c.route.Capability != best[0].route.Capability {
			return Route{}, errs.New(errs.Validation, "input matches several specs: %s", strings.Join(names, ", ")).
				With("candidates", names).WithHint("pass input_kind with the capability or semantic spec you mean")
		}
	}
	r := best[0].route
	for _, c := range best {
		if c.route.Semantic != nil {
			r.Semantic = c.route.Semantic
			break
		}
	}
	return r, nil
}

// candidate is one registered shape that bare JSON fits.
type candidate struct {
	name     string // capability or semantic spec ID, for the ambiguity error
	required int    // how many keys the shape requires: more is more specific
	route    Route
}

// shapeCandidates returns the most specific shapes obj fits, capabilities first, each group
// in ID order, so the answer (and an ambiguity error's list) is deterministic.
//
// A capability's shape is its match.required keys. A semantic spec's shape is its
// capability's body: every required field present and non-null, and no key the body does not
// declare — even when the body accepts additional fields (every shipped one does), because
// that tolerance is for callers who name the spec; without the second rule a spec with one
// required field (meeting notes: title) would claim any object that happens to have a title.
func shapeCandidates(reg *spec.Registry, obj map[string]any) []candidate {
	present := func(keys []string) bool {
		for _, f := range keys {
			if v, ok := obj[f]; !ok || v == nil {
				return false
			}
		}
		return true
	}
	var all []candidate
	for _, id := range reg.CapabilityIDs() {
		c := reg.Capabilities[id]
		if c.Match != nil && present(c.Match.Required) {
			all = append(all, candidate{name: id, required: len(c.Match.Required), route: Route{Kind: KindPayload, Capability: c}})
		}
	}
	for _, id := range semanticIDs(reg) {
		m := reg.Semantics[id]
		c, ok := reg.Capabilities[m.Capability]
		if !ok || len(c.Body.Required) == 0 || !present(c.Body.Required) {
			continue
		}
		if !onlyDeclared(c, obj) {
			continue
		}
		all = append(all, candidate{name: id, required: len(c.Body.Required), route: Route{Kind: KindPayload, Capability: c, Semantic: m}})
	}
	var best []candidate
	for _, c := range all {
		switch {
		case len(best) == 0 || c.required > best[0].required:
			best = []candidate{c}
		case c.required == best[0].required:
			best = append(best, c)
		}
	}
	return best
}

// semanticIDs lists semantic specs in sorted order.
func semanticIDs(reg *spec.Registry) []string {
	out := make([]string, 0, len(reg.Semantics))
	for id := range reg.Semantics {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// onlyDeclared reports whether every key of obj is a field the capability's body declares.
func onlyDeclared(c *spec.Capability, obj map[string]any) bool {
	for k := range obj {
		if _, ok := c.Body.Fields[k]; !ok {
			return false
		}
	}
	return true
}

func acceptedKinds(reg *spec.Registry) []string {
	out := append([]string{KindAuto, KindContent, KindExtractFile, KindPayload}, reg.CapabilityIDs()...)
	return append(out, semanticIDs(reg)...)
}

func acceptedShapes(reg *spec.Registry) []string {
	out := []string{
		`{"text": string, "tags"?, "title"?, "source"?, "agent_id"?, "file"?, "line_start"?, "line_end"?, "chain_name"?} (content)`,
		`{"annotation": string, …} (content)`,
		`{"file_path": string} (extract-file)`,
		`{"capability_id": string, "body": object, "provenance": {"source_refs", "extracted_at", "extractor_version", "agent_id"?}} (payload)`,
	}
	for _, id := range reg.CapabilityIDs() {
		if c := reg.Capabilities[id]; c.Match != nil {
			out = append(out, fmt.Sprintf("{%s, …} (%s)", quoteAll(c.Match.Required), id))
		}
	}
	for _, id := range semanticIDs(reg) {
		if c, ok := reg.Capabilities[reg.Semantics[id].Capability]; ok && len(c.Body.Required) > 0 {
			out = append(out, fmt.Sprintf("{%s, …} (%s → %s)", quoteAll(c.Body.Required), id, c.ID))
		}
	}
	return out
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = `"` + x + `"`
	}
	return strings.Join(q, ", ")
}
