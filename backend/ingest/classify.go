package ingest

import (
	"fmt"
	"strings"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/spec"
)

// Route is where the classifier sends an input.
type Route struct {
	Kind       string           // content | extract-file | payload
	Capability *spec.Capability // for payloads routed by spec shape or explicit capability kind
}

// Classify decides the input kind. With kind empty or "auto" it applies DESIGN.md's precedence:
// {text}/{annotation} → content; {file_path} → extract-file; {capability_id, body, provenance}
// → payload; bare JSON matching a registered capability's shape → that capability.
func Classify(reg *spec.Registry, kind string, obj map[string]any) (Route, error) {
	switch kind {
	case "", KindAuto:
	case KindContent, KindExtractFile, KindPayload:
		return Route{Kind: kind}, nil
	default:
		if c, ok := reg.Capabilities[kind]; ok {
			return Route{Kind: KindPayload, Capability: c}, nil
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
	var best []*spec.Capability
	bestN := 0
	for _, id := range reg.CapabilityIDs() {
		c := reg.Capabilities[id]
		if c.Match == nil {
			continue
		}
		ok := true
		for _, f := range c.Match.Required {
			if v, present := obj[f]; !present || v == nil {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		switch n := len(c.Match.Required); {
		case n > bestN:
			best, bestN = []*spec.Capability{c}, n
		case n == bestN:
			best = append(best, c)
		}
	}
	switch len(best) {
	case 1:
		return Route{Kind: KindPayload, Capability: best[0]}, nil
	case 0:
		return Route{}, errs.New(errs.Validation, "cannot tell what kind of input this is; accepted shapes: %s", strings.Join(acceptedShapes(reg), "; ")).
			With("accepted_shapes", acceptedShapes(reg)).
			WithHint("send {\"text\": …} for notes, {\"capability_id\", \"body\", \"provenance\"} for structured data, or pass input_kind")
	default:
		names := make([]string, len(best))
		for i, c := range best {
			names[i] = c.ID
		}
		return Route{}, errs.New(errs.Validation, "input matches several capabilities: %s", strings.Join(names, ", ")).
			With("candidates", names).WithHint("pass input_kind with the capability you mean")
	}
}

func acceptedKinds(reg *spec.Registry) []string {
	return append([]string{KindAuto, KindContent, KindExtractFile, KindPayload}, reg.CapabilityIDs()...)
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
	return out
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = `"` + x + `"`
	}
	return strings.Join(q, ", ")
}
