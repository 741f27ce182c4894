package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/heuristics"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// MaxContentBytes bounds one content submission; larger texts belong in a file.
const MaxContentBytes = 10 << 20

// contentInput is the ContentAdapter's input (ADR-028): text plus origin and optional location.
type contentInput struct {
	Text            string   `json:"text"`
	Annotation      string   `json:"annotation"`
	Title           string   `json:"title"`
	Tags            []string `json:"tags"`
	Source          string   `json:"source"`
	AgentID         string   `json:"agent_id"`
	File            string   `json:"file"`
	LineStart       int      `json:"line_start"`
	LineEnd         int      `json:"line_end"`
	ChainName       string   `json:"chain_name"`
	ObservedAt      string   `json:"observed_at"`
	ClientRequestID string   `json:"client_request_id"`
}

// specs the content adapter relies on; they ship in specs/entities.
const (
	typeDocument = "document"
	typeConcept  = "concept"
	typeChain    = "chain"
)

func strictDecode(data []byte, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		msg := err.Error()
		msg = strings.TrimPrefix(msg, "json: ")
		return errs.New(errs.Validation, "invalid %s: %s", what, msg).WithHint("see the accepted fields with `strata ingest --help`")
	}
	return nil
}

func planContent(reg *spec.Registry, data json.RawMessage, now time.Time) (*Plan, error) {
	var in contentInput
	if err := strictDecode(data, &in, "content"); err != nil {
		return nil, err
	}
	text := strings.TrimSpace(in.Text)
	annotation := strings.TrimSpace(in.Annotation)
	body := text
	if annotation != "" {
		body = annotation
		if text != "" {
			body = annotation + "\n\n" + text
		}
	}
	switch {
	case body == "":
		return nil, errs.New(errs.Validation, "text is empty").With("field", "text").WithHint("send the text to store in \"text\" (or \"annotation\")")
	case len(body) > MaxContentBytes:
		return nil, errs.New(errs.Validation, "text is %d bytes; the limit is %d", len(body), MaxContentBytes).
			With("field", "text").WithHint("save it to a file and ingest {\"file_path\": …} instead")
	case !utf8.ValidString(body):
		return nil, errs.New(errs.Validation, "text is not valid UTF-8").With("field", "text")
	case in.LineStart < 0 || in.LineEnd < 0 || (in.LineEnd > 0 && in.LineStart > in.LineEnd):
		return nil, errs.New(errs.Validation, "line range %d–%d is invalid", in.LineStart, in.LineEnd).
			With("field", "line_start").WithHint("lines count from 1 and line_start ≤ line_end")
	case (in.LineStart > 0 || in.LineEnd > 0) && in.File == "":
		return nil, errs.New(errs.Validation, "line_start/line_end need file").With("field", "file").WithHint("say which file the lines are in")
	}
	observedAt := now
	if in.ObservedAt != "" {
		t, err := time.Parse(time.RFC3339Nano, in.ObservedAt)
		if err != nil {
			return nil, errs.New(errs.Validation, "observed_at %q is not an RFC 3339 time", in.ObservedAt).With("field", "observed_at").
				WithHint("use a time like 2025-01-15T10:30:00Z")
		}
		observedAt = t
	}
	var tags []any
	for _, t := range in.Tags {
		if t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "#")); t != "" {
			tags = append(tags, t)
		}
	}
	tags = ids.SortedSet(tags)
	title := strings.TrimSpace(in.Title)
	if title == "" {
		title = deriveTitle(body)
	}

	// What identifies the content: the text and what the caller says it is, not who sent it
	// or when (that is origin provenance, kept per submission).
	canon := map[string]any{"text": text, "annotation": annotation, "title": strings.TrimSpace(in.Title), "tags": tags,
		"file": in.File, "line_start": in.LineStart, "line_end": in.LineEnd, "chain_name": strings.TrimSpace(in.ChainName)}
	p := &Plan{Kind: KindContent, Canonical: ids.MustMarshal(canon), ClientRequestID: in.ClientRequestID,
		Phases: map[string]string{"register": "done", "analyze": "done", "semantic": "skipped"}}
	p.Origin = map[string]any{"source": in.Source, "agent_id": in.AgentID, "observed_at": store.FormatTime(observedAt)}
	if in.File != "" {
		p.Origin["location"] = map[string]any{"file": in.File, "line_start": in.LineStart, "line_end": in.LineEnd}
	}
	contentID := p.ContentID()
	docID := ids.Document(contentID)
	for i, s := range extract.Chunk(body, extract.ChunkOptions{}) {
		p.Chunks = append(p.Chunks, store.Chunk{ChunkID: ids.Chunk(docID, i, ids.Hash(s.Text)), DocumentID: docID, Ordinal: i,
			Text: s.Text, Heading: s.Heading, ByteStart: s.ByteStart, ByteEnd: s.ByteEnd, LineStart: s.LineStart, LineEnd: s.LineEnd,
			TextStart: s.TextStart, TextEnd: s.TextEnd})
	}

	types, err := requireTypes(reg, typeDocument, typeChain)
	if err != nil {
		return nil, err
	}
	at := store.FormatTime(observedAt)
	fields := map[string]any{"title": title, "kind": KindContent, "byte_size": len(body), "chunk_count": len(p.Chunks)}
	for k, v := range map[string]any{"source": in.Source, "agent_id": in.AgentID, "file": in.File, "chain_name": strings.TrimSpace(in.ChainName)} {
		if v != "" {
			fields[k] = v
		}
	}
	if len(tags) > 0 {
		fields["tags"] = tags
	}
	if in.LineStart > 0 {
		fields["line_start"], fields["line_end"] = in.LineStart, max(in.LineEnd, in.LineStart)
	}
	var span any
	if in.File != "" {
		span = map[string]any{"file": in.File, "line_start": in.LineStart, "line_end": max(in.LineEnd, in.LineStart)}
	}
	doc := observation(types[0], contentID, title, fields, 1, PriorityContent, "content", "document", contentID, at, docID, span)
	p.Entities = append(p.Entities, doc)
	var tagNames []string
	for _, t := range tags {
		tagNames = append(tagNames, strings.ToLower(t.(string)))
	}
	status, err := docstate.Next(docstate.None, docstate.ContentStored)
	if err != nil {
		return nil, err
	}
	p.Document = &store.Document{DocumentID: docID, EntityID: doc.Entity.EntityID, Kind: KindContent, Title: title, Mime: "text/plain",
		DocType: heuristics.DocType("text", title, body), Tags: tagNames,
		Size: int64(len(body)), ContentHash: ids.Hash(body), Status: string(status), PhaseRegister: "done", PhaseAnalyze: "done", PhaseSemantic: "skipped"}
	// The tags stay fields of the document (as written) and documents.tags; the
	// TagConceptBridger enrichment makes concepts of them once the document is stored.
	if chain := strings.TrimSpace(in.ChainName); chain != "" {
		c := observation(types[1], ids.NormalizeKey(chain), chain, map[string]any{"name": chain}, 1, PriorityContent, "content", "chain", contentID, at, docID, nil)
		p.Entities = append(p.Entities, c)
		p.Relationships = append(p.Relationships, store.Relationship{ID: ids.Relationship("PART_OF", doc.Entity.EntityID, c.Entity.EntityID),
			RelationshipType: "PART_OF", SourceEntityID: doc.Entity.EntityID, TargetEntityID: c.Entity.EntityID})
	}
	return p, nil
}

func requireTypes(reg *spec.Registry, names ...string) ([]*spec.EntityType, error) {
	out := make([]*spec.EntityType, len(names))
	for i, n := range names {
		t, ok := reg.EntityTypes[n]
		if !ok {
			return nil, errs.New(errs.SpecInvalid, "entity type %q is not declared", n).
				WithHint("the built-in specs/entities/%s.yaml is missing or was overridden badly", n)
		}
		out[i] = t
	}
	return out, nil
}

// deriveTitle takes the first non-empty line, without Markdown heading marks, cut to 80 runes.
func deriveTitle(text string) string {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
		if l == "" {
			continue
		}
		if r := []rune(l); len(r) > 80 {
			return string(r[:79]) + "…"
		}
		return l
	}
	return fmt.Sprintf("Untitled (%d bytes)", len(text))
}
