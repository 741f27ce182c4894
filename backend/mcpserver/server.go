// Package mcpserver serves the engine to AI tools over MCP (github.com/mark3labs/mcp-go): six
// tools (ingest, search, entity, relationships, index_status, knowledge) and two resource templates
// (documents, entities). It holds no logic of its own: every handler decodes its arguments,
// calls one engine method and renders the answer (DESIGN.md invariant 2). Transports (stdio
// here, streamable HTTP in httpapi) wrap the *server.MCPServer that New returns.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"golang.org/x/time/rate"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
)

// Limit is a token bucket: Rate calls per second on average, bursts of Burst.
type Limit struct {
	Rate  float64
	Burst int
}

// DefaultLimits bound each tool per server (one per stdio process; one shared by all HTTP
// sessions). They are far above what an agent needs and far below what would starve the
// desktop app of the database: a runaway loop is told to slow down instead.
var DefaultLimits = map[string]Limit{
	"ingest":        {Rate: 50, Burst: 100},
	"search":        {Rate: 200, Burst: 400},
	"entity":        {Rate: 500, Burst: 1000},
	"relationships": {Rate: 200, Burst: 400},
	"index_status":  {Rate: 100, Burst: 200},
	// An answer reads a few passages (and may wait for the local chat model); a lint run checks
	// what changed since the last one. Either is far heavier than a search.
	"knowledge": {Rate: 20, Burst: 40},
}

// Options configures a server.
type Options struct {
	Logger *slog.Logger
	// Limits overrides DefaultLimits per tool (tests use tiny ones).
	Limits map[string]Limit
	// NoLimits turns rate limiting off (benchmarks; STRATA_MCP_RATE_LIMITS=off).
	NoLimits bool
	// Now is the rate limiters' clock; nil is time.Now. Tests pass a clock they move, so a
	// bucket refills without the test sleeping.
	Now func() time.Time
}

// New builds the MCP server over e.
func New(e *engine.Engine, opts Options) *server.MCPServer {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &handlers{e: e, log: log, limits: map[string]*rate.Limiter{}, now: opts.Now}
	if h.now == nil {
		h.now = time.Now
	}
	for name, l := range DefaultLimits {
		if opts.NoLimits {
			break
		}
		if o, ok := opts.Limits[name]; ok {
			l = o
		}
		h.limits[name] = rate.NewLimiter(rate.Limit(l.Rate), l.Burst)
	}
	s := server.NewMCPServer("strata", engine.Version,
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithInstructions(instructions),
		server.WithToolHandlerMiddleware(h.guard),
	)
	tool := func(name, desc, schema string, ro bool, fn server.ToolHandlerFunc) {
		t := mcp.NewToolWithRawSchema(name, desc, json.RawMessage(schema))
		t.Annotations.ReadOnlyHint = &ro
		destructive := false
		t.Annotations.DestructiveHint = &destructive
		s.AddTool(t, fn)
	}
	tool("ingest", ingestDesc, ingestSchema, false, h.ingest)
	tool("search", searchDesc, searchSchema, true, h.search)
	tool("entity", entityDesc, entitySchema, true, h.entity)
	tool("relationships", relationshipsDesc, relationshipsSchema, false, h.relationships)
	tool("index_status", indexStatusDesc, indexStatusSchema, true, h.indexStatus)
	// Not read-only: ask with persist and lint with publish file a document into the store.
	tool("knowledge", knowledgeDesc, knowledgeSchema, false, h.knowledge)
	s.AddResourceTemplate(mcp.NewResourceTemplate("strata://documents/{id}", "document",
		mcp.WithTemplateDescription("A document's extracted text, chunk by chunk, with line numbers (the lines search results cite)."),
		mcp.WithTemplateMIMEType("text/plain")), h.document)
	s.AddResourceTemplate(mcp.NewResourceTemplate("strata://entities/{id}", "entity",
		mcp.WithTemplateDescription("An entity's snapshot with each field's provenance (observation, payload, document)."),
		mcp.WithTemplateMIMEType("application/json")), h.entityResource)
	return s
}

const instructions = `Strata is the user's local knowledge store: documents, notes and files they added, with entities and relationships extracted from them. Use knowledge (action ask) for a direct answer to a question with its sources, search to find and explore passages (cite path:line), entity to read what is known and why (provenance), knowledge (action lint) to find contradictions, stale values and missing links, ingest to store new notes or files, and index_status to see what is there and which embedder answers searches.`

type handlers struct {
	e      *engine.Engine
	log    *slog.Logger
	mu     sync.Mutex
	limits map[string]*rate.Limiter
	now    func() time.Time
}

// guard wraps every tool: rate limit, then the handler, with a panic turned into an
// INTERNAL_ERROR envelope instead of a dead session.
func (h *handlers) guard(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		name := req.Params.Name
		if l := h.limits[name]; l != nil {
			now := h.now()
			r := l.ReserveN(now, 1)
			if d := r.DelayFrom(now); d > 0 {
				r.CancelAt(now)
				retry := max(1, int(d.Seconds()+0.999))
				return failure(errs.New(errs.RateLimitExceeded, "too many %s calls", name).With("retry_after_seconds", retry).
					WithHint("wait %d s before calling %s again", retry, name)), nil
			}
		}
		defer func() {
			if p := recover(); p != nil {
				h.log.Error("tool panicked", "tool", name, "panic", p, "stack", string(debug.Stack()))
				res, err = failure(errs.New(errs.Internal, "the %s tool failed unexpectedly", name).WithHint("this is a bug worth reporting; other tools still work")), nil
			}
		}()
		start := time.Now()
		res, err = next(ctx, req)
		h.log.Debug("tool", "name", name, "ms", time.Since(start).Milliseconds(), "error", res != nil && res.IsError)
		return res, err
	}
}

// failure is a tool error whose text is the seed's envelope {"error": {code, message, details}}
// (with hint); the structured content carries the same object.
func failure(err error) *mcp.CallToolResult {
	env := errs.EnvelopeJSON(err)
	var v any
	_ = json.Unmarshal(env, &v) // our own JSON
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(env))}, StructuredContent: v, IsError: true}
}

// success renders a result as structured content plus a JSON text rendering (clients that do
// not read structured content see the same data).
func success(v any) *mcp.CallToolResult {
	b, err := json.Marshal(v)
	if err != nil {
		return failure(errs.Wrap(errs.Internal, err, "could not encode the result"))
	}
	var sc any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	_ = dec.Decode(&sc) // just encoded
	return mcp.NewToolResultStructured(sc, string(b))
}

// answer turns an engine call's result into a tool result.
func answer(v any, err error) (*mcp.CallToolResult, error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return failure(errs.Wrap(errs.Cancelled, err, "the call was cancelled before it finished").WithHint("nothing was half-written; call again")), nil
	}
	if err != nil {
		return failure(err), nil
	}
	return success(v), nil
}

// decode reads the arguments strictly into v: an unknown field or a wrong type is a
// VALIDATION_ERROR naming it, never a protocol error.
func decode(req mcp.CallToolRequest, v any) error {
	raw, err := json.Marshal(req.GetRawArguments())
	if err != nil {
		return errs.New(errs.Validation, "arguments are not JSON")
	}
	if string(raw) == "null" {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if ee := (*errs.Error)(nil); errors.As(err, &ee) {
			return ee // a field's own check (engine.Limit) already names the field
		}
		ee := errs.Wrap(errs.Validation, err, "invalid arguments")
		var te *json.UnmarshalTypeError
		if asType(err, &te) {
			ee.With("field", te.Field)
		} else if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			ee.With("field", strings.Trim(f, `"`))
		}
		return ee.WithHint("see the tool's input schema")
	}
	return nil
}

func asType(err error, te **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*te = t
	}
	return ok
}

func need(field, value, action string) error {
	if strings.TrimSpace(value) == "" {
		return errs.New(errs.Validation, "%s is required for action %s", field, action).With("field", field)
	}
	return nil
}

func (h *handlers) ingest(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Data      json.RawMessage `json:"data"`
		InputKind string          `json:"input_kind"`
	}
	if err := decode(req, &a); err != nil {
		return failure(err), nil
	}
	if len(a.Data) == 0 || string(a.Data) == "null" {
		return failure(errs.New(errs.Validation, "data is required").With("field", "data").WithHint("pass one JSON object, e.g. {\"text\": \"...\"}")), nil
	}
	return answer(h.e.Ingest(ctx, caller(ctx), a.InputKind, a.Data))
}

// caller is who an MCP request comes from: always a remote client, whatever the transport
// (stdio or HTTP), named by what it said in initialize so the logs can tell Claude from Cursor.
func caller(ctx context.Context) engine.Caller {
	// The client's own name: Caller.Via puts the "mcp:" in front (it once said "mcp:mcp:cursor").
	name := ""
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		name = s.GetClientInfo().Name
	}
	return engine.RemoteClient(name)
}

func (h *handlers) search(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Query   string       `json:"query"`
		Mode    string       `json:"mode"`
		Limit   engine.Limit `json:"limit"`
		Filters struct {
			Type        string `json:"type"`
			Path        string `json:"path"`
			Tag         string `json:"tag"`
			Mime        string `json:"mime"`
			From        string `json:"from"`
			To          string `json:"to"`
			PerDocument bool   `json:"per_document"`
		} `json:"filters"`
	}
	if err := decode(req, &a); err != nil {
		return failure(err), nil
	}
	f := a.Filters
	return answer(h.e.Search(ctx, engine.SearchRequest{Query: a.Query, Mode: a.Mode, Limit: a.Limit, Type: f.Type, Path: f.Path,
		Tag: f.Tag, Mime: f.Mime, From: f.From, To: f.To, PerDocument: f.PerDocument}))
}

func (h *handlers) entity(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Action   string       `json:"action"`
		EntityID string       `json:"entity_id"`
		At       string       `json:"at"`
		Field    string       `json:"field"`
		Type     string       `json:"type"`
		Query    string       `json:"query"`
		Limit    engine.Limit `json:"limit"`
		Offset   int          `json:"offset"`
	}
	if err := decode(req, &a); err != nil {
		return failure(err), nil
	}
	if a.Action == "list" {
		if a.Type == "" { // documented: without a type, entities of every type (documents included)
			a.Type = engine.AllTypes
		}
		return answer(h.e.ListEntities(ctx, a.Type, a.Query, int(a.Limit), a.Offset))
	}
	if a.Action != "get" && a.Action != "observations" && a.Action != "provenance" {
		return failure(badAction(a.Action, "get, observations, provenance, list")), nil
	}
	if err := need("entity_id", a.EntityID, a.Action); err != nil {
		return failure(err), nil
	}
	switch a.Action {
	case "get":
		return answer(h.e.GetEntity(ctx, a.EntityID, a.At))
	case "observations":
		return answer(h.e.ListObservations(ctx, a.EntityID, int(a.Limit), a.Offset))
	}
	if err := need("field", a.Field, a.Action); err != nil {
		return failure(err), nil
	}
	return answer(h.e.FieldProvenance(ctx, a.EntityID, a.Field))
}

func badAction(action, accepted string) error {
	return errs.New(errs.Validation, "action %q is not one of %s", action, accepted).With("field", "action").
		WithHint("set action to one of %s", accepted)
}

// relationshipFields are the arguments each relationships action takes; any other is refused,
// so a filter given to the wrong action (min_score on create) is not silently ignored.
var relationshipFields = map[string][]string{
	"create":      {"relationship_type", "source_entity_id", "target_entity_id", "metadata"},
	"list":        {"entity_id", "direction", "relationship_type", "derived", "enrichment", "min_score", "limit", "offset"},
	"suggestions": {"limit", "offset"},
	"accept":      {"suggestion_id", "relationship_type"},
	"dismiss":     {"suggestion_id"},
}

// onlyFields refuses the arguments (other than action, and nulls: "not given") that action does
// not take, naming the first in sorted order.
func onlyFields(req mcp.CallToolRequest, action string, allowed []string) error {
	var args map[string]json.RawMessage
	raw, _ := json.Marshal(req.GetRawArguments()) // decode has read them already
	_ = json.Unmarshal(raw, &args)
	var extra []string
	for k, v := range args {
		if k != "action" && string(v) != "null" && !slices.Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	slices.Sort(extra)
	return errs.New(errs.Validation, "%s does not apply to action %s", strings.Join(extra, ", "), action).With("field", extra[0]).
		WithHint("action %s takes %s", action, strings.Join(allowed, ", "))
}

func (h *handlers) relationships(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Action           string          `json:"action"`
		RelationshipType string          `json:"relationship_type"`
		SourceEntityID   string          `json:"source_entity_id"`
		TargetEntityID   string          `json:"target_entity_id"`
		Metadata         json.RawMessage `json:"metadata"`
		EntityID         string          `json:"entity_id"`
		Direction        string          `json:"direction"`
		Derived          *bool           `json:"derived"`
		Enrichment       string          `json:"enrichment"`
		MinScore         float64         `json:"min_score"`
		SuggestionID     string          `json:"suggestion_id"`
		Limit            engine.Limit    `json:"limit"`
		Offset           int             `json:"offset"`
	}
	if err := decode(req, &a); err != nil {
		return failure(err), nil
	}
	allowed, ok := relationshipFields[a.Action]
	if !ok {
		return failure(badAction(a.Action, "create, list, suggestions, accept, dismiss")), nil
	}
	if err := onlyFields(req, a.Action, allowed); err != nil {
		return failure(err), nil
	}
	switch a.Action {
	case "create":
		for _, f := range [][2]string{{"relationship_type", a.RelationshipType}, {"source_entity_id", a.SourceEntityID}, {"target_entity_id", a.TargetEntityID}} {
			if err := need(f[0], f[1], a.Action); err != nil {
				return failure(err), nil
			}
		}
		return answer(h.e.CreateRelationship(ctx, a.RelationshipType, a.SourceEntityID, a.TargetEntityID, a.Metadata))
	case "list":
		if err := need("entity_id", a.EntityID, a.Action); err != nil {
			return failure(err), nil
		}
		return answer(h.e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: a.EntityID, Direction: a.Direction,
			Type: a.RelationshipType, Derived: a.Derived, Enrichment: a.Enrichment, MinScore: a.MinScore, Limit: int(a.Limit), Offset: a.Offset}))
	case "suggestions":
		return answer(h.e.Suggestions(ctx, "", int(a.Limit), a.Offset))
	}
	if err := need("suggestion_id", a.SuggestionID, a.Action); err != nil {
		return failure(err), nil
	}
	return answer(h.e.DecideSuggestion(ctx, a.SuggestionID, a.Action == "accept", a.RelationshipType, caller(ctx).Via()))
}

// knowledgeFields are the arguments each knowledge action takes; any other is refused by name.
var knowledgeFields = map[string][]string{
	"ask":  {"question", "max_passages", "format", "filters", "persist"},
	"lint": {"scope", "staleness_days", "kind", "limit", "offset", "publish"},
}

func (h *handlers) knowledge(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Action        string               `json:"action"`
		Question      string               `json:"question"`
		MaxPassages   *int                 `json:"max_passages"`
		Format        string               `json:"format"`
		Filters       engine.SearchFilters `json:"filters"`
		Persist       bool                 `json:"persist"`
		Scope         string               `json:"scope"`
		StalenessDays *int                 `json:"staleness_days"`
		Kind          string               `json:"kind"`
		Limit         engine.Limit         `json:"limit"`
		Offset        int                  `json:"offset"`
		Publish       bool                 `json:"publish"`
	}
	if err := decode(req, &a); err != nil {
		return failure(err), nil
	}
	allowed, ok := knowledgeFields[a.Action]
	if !ok {
		return failure(badAction(a.Action, "ask, lint")), nil
	}
	if err := onlyFields(req, a.Action, allowed); err != nil {
		return failure(err), nil
	}
	if a.Action == "ask" {
		if err := need("question", a.Question, a.Action); err != nil {
			return failure(err), nil
		}
		n, err := given("max_passages", a.MaxPassages, engine.MaxAskPassages)
		if err != nil {
			return failure(err), nil
		}
		return answer(h.e.Ask(ctx, engine.AskRequest{Question: a.Question, MaxPassages: n, Format: a.Format, Filters: a.Filters, Persist: a.Persist}))
	}
	days, err := given("staleness_days", a.StalenessDays, engine.MaxStalenessDays)
	if err != nil {
		return failure(err), nil
	}
	return answer(h.e.Lint(ctx, engine.LintRequest{Scope: a.Scope, StalenessDays: days, Kind: a.Kind, Limit: int(a.Limit), Offset: a.Offset, Publish: a.Publish}))
}

// given is an optional count argument: nil (omitted) is 0, the engine's "default"; an explicit
// value must be 1…max, so a client sending 0 is told rather than silently given the default.
func given(field string, v *int, maxN int) (int, error) {
	if v == nil {
		return 0, nil
	}
	if *v < 1 || *v > maxN {
		return 0, errs.New(errs.Validation, "%s %d is not between 1 and %d", field, *v, maxN).With("field", field).
			WithHint("omit %s for the default", field)
	}
	return *v, nil
}

func (h *handlers) indexStatus(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct{}
	if err := decode(req, &a); err != nil {
		return failure(err), nil
	}
	return answer(h.e.Status(ctx))
}

// resourceID is the {id} of a resource URI.
func resourceID(req mcp.ReadResourceRequest) string {
	if v, ok := req.Params.Arguments["id"]; ok {
		switch id := v.(type) {
		case string:
			return id
		case []string:
			if len(id) > 0 {
				return id[0]
			}
		}
	}
	return req.Params.URI[strings.LastIndex(req.Params.URI, "/")+1:]
}

// resourceErr is a resource read failure as a JSON-RPC error whose message is the envelope.
func resourceErr(err error) error {
	return fmt.Errorf("%s", errs.EnvelopeJSON(err))
}

func (h *handlers) document(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	d, err := h.e.GetDocument(ctx, resourceID(req))
	if err != nil {
		return nil, resourceErr(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", d.Title)
	if d.Path != "" {
		fmt.Fprintf(&b, "path: %s\n", d.Path)
	}
	fmt.Fprintf(&b, "document_id: %s\nstatus: %s\n", d.DocumentID, d.Status)
	for _, c := range d.Chunks {
		fmt.Fprintf(&b, "\n--- chunk %d (%s", c.Ordinal, c.ChunkID)
		if c.Heading != "" {
			fmt.Fprintf(&b, ", %s", c.Heading)
		}
		if c.Page > 0 {
			fmt.Fprintf(&b, ", page %d", c.Page)
		}
		b.WriteString(") ---\n")
		// Each line is numbered with the file's line search cites, which for a rewritten file
		// (HTML) is not the count of extracted lines.
		for i, line := range strings.Split(strings.TrimRight(c.Text, "\n"), "\n") {
			n := c.LineStart + i
			if i < len(c.Lines) {
				n = c.Lines[i]
			}
			fmt.Fprintf(&b, "%6d  %s\n", n, line)
		}
	}
	if len(d.Chunks) == 0 {
		b.WriteString("\n(no extracted text yet: the document is " + d.Status + ")\n")
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: b.String()}}, nil
}

func (h *handlers) entityResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	ep, err := h.e.EntityWithProvenance(ctx, resourceID(req))
	if err != nil {
		return nil, resourceErr(err)
	}
	b, err := json.MarshalIndent(ep, "", "  ")
	if err != nil {
		return nil, resourceErr(errs.Wrap(errs.Internal, err, "could not encode the entity"))
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}, nil
}
