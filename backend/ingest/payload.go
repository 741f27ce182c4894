package ingest

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// envelope is seed 001's submit_payload request.
type envelope struct {
	CapabilityID    string          `json:"capability_id"`
	Body            json.RawMessage `json:"body"`
	Provenance      *provenanceIn   `json:"provenance"`
	ClientRequestID string          `json:"client_request_id"`
}

type provenanceIn struct {
	SourceRefs       *[]string `json:"source_refs"`
	ExtractedAt      string    `json:"extracted_at"`
	ExtractorVersion string    `json:"extractor_version"`
	AgentID          string    `json:"agent_id"`
}

// autoExtractor names the provenance Strata fills in for bare JSON routed by spec shape.
const autoExtractor = "strata-ingest/auto"

func planPayload(reg *spec.Registry, data json.RawMessage, capability *spec.Capability, now time.Time) (*Plan, error) {
	var env envelope
	if capability != nil {
		// Bare JSON routed by shape (or an explicit capability kind): the data is the body.
		env = envelope{CapabilityID: capability.ID, Body: data, Provenance: &provenanceIn{SourceRefs: &[]string{},
			ExtractedAt: now.Format(time.RFC3339Nano), ExtractorVersion: autoExtractor}}
	} else {
		if err := strictDecode(data, &env, "payload envelope"); err != nil {
			return nil, err
		}
	}
	c, ok := reg.Capabilities[env.CapabilityID]
	switch {
	case env.CapabilityID == "":
		return nil, errs.New(errs.Validation, "capability_id is required").With("field", "capability_id").
			WithHint("use one of %s", strings.Join(reg.CapabilityIDs(), ", "))
	case !ok:
		return nil, errs.New(errs.UnknownCapability, "capability %q is not registered", env.CapabilityID).
			With("capability_id", env.CapabilityID).With("available", reg.CapabilityIDs()).
			WithHint("use one of %s, or add a YAML spec under specs/capabilities", strings.Join(reg.CapabilityIDs(), ", "))
	}
	prov, observedAt, err := checkProvenance(env.Provenance)
	if err != nil {
		return nil, err
	}
	bodyAny, err := ids.Decode(env.Body)
	if err != nil || env.Body == nil {
		return nil, errs.New(errs.Validation, "body must be a JSON object").With("field", "body")
	}
	body, ok := bodyAny.(map[string]any)
	if !ok {
		return nil, errs.New(errs.Validation, "body must be a JSON object, got %s", jsonKind(bodyAny)).With("field", "body")
	}
	body, err = normalizeBody(c, body)
	if err != nil {
		return nil, err
	}
	p := &Plan{Kind: KindPayload, CapabilityID: c.ID, ClientRequestID: env.ClientRequestID,
		Canonical: ids.MustMarshal(map[string]any{"capability_id": c.ID, "body": body}), Origin: prov}
	if err := mapEntities(reg, c, body, p, store.FormatTime(observedAt)); err != nil {
		return nil, err
	}
	return p, nil
}

func checkProvenance(in *provenanceIn) (map[string]any, time.Time, error) {
	bad := func(field, format string, args ...any) error {
		return errs.New(errs.Validation, format, args...).With("field", "provenance."+field).
			WithHint(`provenance is {"source_refs": [...], "extracted_at": "2025-01-15T10:30:00Z", "extractor_version": "my-agent:v1", "agent_id"?: "..."}`)
	}
	if in == nil {
		return nil, time.Time{}, bad("", "provenance is required")
	}
	if in.SourceRefs == nil {
		return nil, time.Time{}, bad("source_refs", "provenance.source_refs is required (use [] when there are none)")
	}
	if in.ExtractedAt == "" {
		return nil, time.Time{}, bad("extracted_at", "provenance.extracted_at is required")
	}
	t, err := time.Parse(time.RFC3339Nano, in.ExtractedAt)
	if err != nil {
		return nil, time.Time{}, bad("extracted_at", "provenance.extracted_at %q is not an RFC 3339 time", in.ExtractedAt)
	}
	if strings.TrimSpace(in.ExtractorVersion) == "" {
		return nil, time.Time{}, bad("extractor_version", "provenance.extractor_version is required")
	}
	refs := append([]string{}, *in.SourceRefs...)
	return map[string]any{"source_refs": refs, "extracted_at": store.FormatTime(t), "extractor_version": in.ExtractorVersion,
		"agent_id": in.AgentID}, t, nil
}

// normalizeBody checks the body against the capability and gives every value its canonical
// form (dates, numbers, sets), which is what makes equal payloads hash equal.
func normalizeBody(c *spec.Capability, body map[string]any) (map[string]any, error) {
	out := map[string]any{}
	keys := make([]string, 0, len(body))
	for k := range body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := body[k]
		typ, declared := c.Body.Fields[k]
		if !declared {
			if !c.Body.Additional {
				return nil, errs.New(errs.Validation, "body field %q is not part of %s", k, c.ID).With("field", "body."+k).
					WithHint("accepted fields: %s", strings.Join(sortedKeys(c.Body.Fields), ", "))
			}
			typ = spec.TypeAny
		}
		if v == nil {
			continue
		}
		nv, err := normalizeValue(typ, v)
		if err != nil {
			return nil, errs.Wrap(errs.Validation, err, "body.%s does not have the expected type", k).With("field", "body."+k).With("expected_type", typ)
		}
		if s, ok := nv.(string); ok && s == "" {
			continue // an empty string says nothing
		}
		out[k] = nv
	}
	for _, f := range c.Body.Required {
		if _, ok := out[f]; !ok {
			return nil, errs.New(errs.Validation, "body.%s is required by %s", f, c.ID).With("field", "body."+f).
				WithHint("required fields: %s", strings.Join(c.Body.Required, ", "))
		}
	}
	return out, nil
}

func normalizeValue(typ string, v any) (any, error) {
	v = ids.Normalize(v)
	switch typ {
	case spec.TypeString:
		switch t := v.(type) {
		case string:
			return t, nil
		case json.Number:
			return string(t), nil
		}
		return nil, fmt.Errorf("want a string, got %s", jsonKind(v))
	case spec.TypeNumber, spec.TypeInteger:
		var n json.Number
		switch t := v.(type) {
		case json.Number:
			n = t
		case string:
			s := strings.NewReplacer(",", "", " ", "", "_", "").Replace(t)
			if _, err := strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("want a number, got %q", t)
			}
			n = ids.NormalizeNumber(json.Number(s))
		default:
			return nil, fmt.Errorf("want a number, got %s", jsonKind(v))
		}
		if typ == spec.TypeInteger {
			f, _ := strconv.ParseFloat(string(n), 64)
			if f != math.Trunc(f) {
				return nil, fmt.Errorf("want a whole number, got %s", n)
			}
		}
		return n, nil
	case spec.TypeBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, fmt.Errorf("want true or false, got %s", jsonKind(v))
	case spec.TypeDate:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a date string (YYYY-MM-DD), got %s", jsonKind(v))
		}
		if t, err := time.Parse("2006-01-02", s); err == nil {
			return t.Format("2006-01-02"), nil
		}
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.Format("2006-01-02"), nil
		}
		return nil, fmt.Errorf("want a date like 2025-01-15, got %q", s)
	case spec.TypeDateTime:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want an RFC 3339 time, got %s", jsonKind(v))
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, fmt.Errorf("want an RFC 3339 time like 2025-01-15T10:30:00Z, got %q", s)
		}
		return t.UTC().Format(time.RFC3339Nano), nil
	case spec.TypeArray, spec.TypeSet:
		a, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("want an array, got %s", jsonKind(v))
		}
		if typ == spec.TypeSet {
			var kept []any
			for _, x := range a {
				if s, ok := x.(string); x != nil && (!ok || s != "") {
					kept = append(kept, x)
				}
			}
			return ids.SortedSet(kept), nil
		}
		return a, nil
	case spec.TypeObject:
		if m, ok := v.(map[string]any); ok {
			return m, nil
		}
		return nil, fmt.Errorf("want an object, got %s", jsonKind(v))
	}
	return v, nil
}

// refScope resolves a capability's references for one entity (and one array item).
type refScope struct {
	body      map[string]any
	item      any
	index     int
	contentID string
}

func (s refScope) resolve(ref string) (any, bool) {
	switch {
	case ref == "$payload":
		return s.contentID, true
	case ref == "$index":
		return json.Number(strconv.Itoa(s.index)), true
	case ref == "item":
		return s.item, s.item != nil
	case strings.HasPrefix(ref, "item."):
		m, ok := s.item.(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok := m[strings.TrimPrefix(ref, "item.")]
		if s, isStr := v.(string); v == nil || (isStr && s == "") {
			return nil, false
		}
		return ids.Normalize(v), ok
	}
	v, ok := s.body[ref]
	return v, ok && v != nil
}

func keyPart(v any) string {
	switch t := v.(type) {
	case string:
		return ids.NormalizeKey(t)
	case json.Number:
		return string(t)
	}
	return string(ids.MustMarshal(v))
}

func labelOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(ids.MustMarshal(v))
}

func mapEntities(reg *spec.Registry, c *spec.Capability, body map[string]any, p *Plan, observedAt string) error {
	contentID := p.ContentID()
	byRule := map[string][]string{}
	mapped := map[string]bool{}
	for _, r := range c.Entities {
		if r.Each != "" {
			mapped[r.Each] = true
		}
	}
	for _, r := range c.Entities {
		t := reg.EntityTypes[r.Type]
		scopes := []refScope{{body: body, contentID: contentID}}
		where := []string{""}
		if r.Each != "" {
			scopes, where = nil, nil
			items, _ := body[r.Each].([]any)
			for i, it := range items {
				scopes = append(scopes, refScope{body: body, item: it, index: i, contentID: contentID})
				where = append(where, fmt.Sprintf("%s[%d]", r.Each, i))
			}
		}
		for si, sc := range scopes {
			var keyParts, labelParts []string
			missing := ""
			for _, ref := range r.Key {
				v, ok := sc.resolve(ref)
				if !ok {
					missing = ref
					break
				}
				keyParts = append(keyParts, keyPart(v))
				if ref != "$payload" && ref != "$index" {
					labelParts = append(labelParts, labelOf(v))
				}
			}
			if missing != "" {
				if r.Optional {
					continue
				}
				field := strings.TrimPrefix(missing, "item.")
				loc := "body." + field
				if r.Each != "" {
					loc = "body." + where[si] + "." + field
				}
				return errs.New(errs.Validation, "%s is needed to identify the %s", loc, r.Type).With("field", loc).
					WithHint("%s entities are identified by %s", r.Type, strings.Join(r.Key, " + "))
			}
			fields := map[string]any{}
			present := 0
			for _, f := range sortedKeys(r.Fields) {
				if v, ok := sc.resolve(r.Fields[f]); ok {
					fields[f] = v
					present++
				}
			}
			if r.Rest {
				for _, r2 := range c.Entities {
					for _, ref := range r2.Fields {
						mapped[ref] = true
					}
				}
				for k, v := range body {
					if _, taken := fields[k]; !taken && !mapped[k] {
						fields[k] = v
					}
				}
			}
			specificity := 1.0
			if len(r.Fields) > 0 {
				specificity = math.Round(float64(present)/float64(len(r.Fields))*1000) / 1000
			}
			label := strings.Join(labelParts, " ")
			if r.Label != "" {
				if v, ok := sc.resolve(r.Label); ok {
					label = labelOf(v)
				}
			}
			if label == "" {
				label = fmt.Sprintf("%s %s", r.Type, contentID[len("payload_"):len("payload_")+8])
			}
			priority := c.SourcePriority
			if priority == 0 {
				priority = PriorityCapability
			}
			var span any
			if where[si] != "" {
				span = map[string]any{"payload_field": where[si]}
			}
			rule := fmt.Sprintf("%s#%d", r.Name, si)
			pe := observation(t, strings.Join(keyParts, "|"), label, fields, specificity, priority, c.ID, rule, contentID, observedAt, "", span)
			p.Entities = append(p.Entities, pe)
			byRule[r.Name] = append(byRule[r.Name], pe.Entity.EntityID)

		}
	}
	seen := map[string]bool{}
	for _, rr := range c.Relationships {
		for _, from := range byRule[rr.From] {
			for _, to := range byRule[rr.To] {
				id := ids.Relationship(rr.Type, from, to)
				if from == to || seen[id] {
					continue
				}
				seen[id] = true
				p.Relationships = append(p.Relationships, store.Relationship{ID: id, RelationshipType: rr.Type, SourceEntityID: from, TargetEntityID: to})
			}
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
