// Package ingest is Strata's one write path (ADR-028): ingest(data, input_kind?).
//
// An adapter turns the caller's JSON into a Plan — every row it will write, with every ID
// already derived from content — and Apply writes a plan in one transaction. Because a plan is
// a pure function of its input, a duplicate submission is answered from the plan (same IDs,
// created: false) without touching anything but the submissions log.
package ingest

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// Input kinds.
const (
	KindAuto        = "auto"
	KindContent     = "content"
	KindExtractFile = "extract-file"
	KindPayload     = "payload"
)

// Source priorities: how much a source is trusted when fields conflict (highest_priority merge).
const (
	PriorityContent    = 80 // text a person or agent wrote down on purpose
	PriorityCapability = 50 // default for structured payloads
)

// Result is what every ingest returns: the seed's submit_payload response plus the IDs of what
// was made, so no transport ever has to guess.
type Result struct {
	InputKind           string            `json:"input_kind"`
	CapabilityID        string            `json:"capability_id,omitempty"`
	PayloadID           string            `json:"payload_id"`
	PayloadContentID    string            `json:"payload_content_id"`
	PayloadSubmissionID string            `json:"payload_submission_id"`
	Created             bool              `json:"created"`
	Moved               bool              `json:"moved,omitempty"` // a known file at a new path: its document follows it, not read again
	Message             string            `json:"message"`
	EntityIDs           []string          `json:"entity_ids"`
	Entities            []EntityRef       `json:"entities"`
	RelationshipIDs     []string          `json:"relationship_ids"`
	DocumentID          string            `json:"document_id,omitempty"`
	Phases              map[string]string `json:"phases,omitempty"`
}

// EntityRef names an entity an ingest observed, so a reader need not look each ID up.
type EntityRef struct {
	EntityID   string `json:"entity_id"`
	EntityType string `json:"entity_type"`
	Name       string `json:"name"`
}

// PathCheck vets a file path on behalf of whoever asked for it and returns the path to read
// (for a remote caller: cleaned, with symlinks resolved), or an error envelope. The engine
// builds one per call from the caller it is given; Ingest refuses a file_path without one, so
// no route reads a file that nobody vetted.
type PathCheck func(ctx context.Context, path string) (string, error)

// Ingester writes plans into the store.
type Ingester struct {
	DB           *store.DB
	Specs        *spec.Registry
	Now          func() time.Time
	MaxFileBytes int64         // 0 = DefaultMaxFileBytes
	ReadTimeout  time.Duration // one file's reader; 0 = DefaultReadTimeout
	Chat         ChatModel     // the semantic phase's model; nil: the phase is skipped
	Embedder     ChunkEmbedder // vectors written with every chunk; nil: none
	// Reembedder builds the semantic vector space in the background (embed jobs); nil: no
	// semantic space is configured.
	Reembedder ChunkEmbedder
	// Generated reports a file Strata wrote itself (store.DocTypeGenerated); nil: none is.
	Generated func(path string) bool
}

// Ingest classifies data, builds its plan and applies it. A file_path is read only after check
// allows it; check is a parameter rather than a context value so that no caller can forget it.
func (in *Ingester) Ingest(ctx context.Context, kind string, data json.RawMessage, check PathCheck) (*Result, error) {
	obj, err := decodeObject(data)
	if err != nil {
		return nil, err
	}
	route, err := Classify(in.Specs, kind, obj)
	if err != nil {
		return nil, err
	}
	now := in.Now().UTC()
	var plan *Plan
	switch route.Kind {
	case KindContent:
		plan, err = planContent(in.Specs, data, now)
	case KindPayload:
		plan, err = planPayload(in.Specs, data, route.Capability, now)
	case KindExtractFile:
		var fi fileInput
		if err := strictDecode(data, &fi, "file input"); err != nil {
			return nil, err
		}
		if strings.TrimSpace(fi.FilePath) == "" {
			return nil, errs.New(errs.Validation, "file_path is empty").With("field", "file_path")
		}
		if check == nil {
			return nil, errs.New(errs.Internal, "no path rule was given for %s", fi.FilePath).With("path", fi.FilePath)
		}
		real, err := check(ctx, fi.FilePath)
		if err != nil {
			return nil, err
		}
		fi.FilePath = real
		return in.RegisterFile(ctx, fi.FilePath, map[string]any{"source": fi.Source, "agent_id": fi.AgentID})
	}
	if err != nil {
		return nil, err
	}
	if plan.Vectors, err = in.embedChunks(ctx, plan.Chunks); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "could not embed the text")
	}
	return in.Apply(ctx, plan)
}

func decodeObject(data json.RawMessage) (map[string]any, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, errs.New(errs.Validation, "data is empty").WithHint("send one JSON object, e.g. {\"text\": \"…\"}")
	}
	v, err := ids.Decode(data)
	if err != nil {
		return nil, errs.Wrap(errs.Validation, err, "data is not valid JSON").WithHint("send one JSON object, e.g. {\"text\": \"…\"}")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errs.New(errs.Validation, "data must be a JSON object, got %s", jsonKind(v)).WithHint("wrap the value in an object, e.g. {\"text\": \"…\"}")
	}
	return obj, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "an object"
}
