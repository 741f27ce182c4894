package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/enrich"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/mcpserver"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite testdata/tools_list.golden.json")

func openEngine(t *testing.T, dir string) *engine.Engine {
	t.Helper()
	e, err := engine.Open(context.Background(), testenv.EngineConfig(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// connect starts an in-process client on srv and initialises it.
func connect(t *testing.T, srv *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "strata-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	return c
}

type result struct {
	isError bool
	text    string
	data    map[string]any
}

// call calls a tool; the text rendering and the structured content must agree.
func call(t *testing.T, c *client.Client, name string, args map[string]any) result {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items", name, len(res.Content))
	}
	text := res.Content[0].(mcp.TextContent).Text
	var fromText, fromStruct map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil {
		t.Fatalf("%s: text is not JSON: %s", name, text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &fromStruct)
	if !reflect.DeepEqual(fromText, fromStruct) {
		t.Fatalf("%s: text and structured content differ:\n%s\n%s", name, text, b)
	}
	return result{res.IsError, text, fromText}
}

// wantErr checks a tool error carries the seed's envelope with code.
func wantErr(t *testing.T, r result, code string) map[string]any {
	t.Helper()
	env, _ := r.data["error"].(map[string]any)
	if !r.isError || env == nil || env["code"] != code || env["message"] == "" {
		t.Fatalf("want %s envelope, got %v %s", code, r.isError, r.text)
	}
	// Every envelope says what to do next: its own hint or its code's registered one.
	if h, _ := env["hint"].(string); h == "" {
		t.Fatalf("%s envelope without a hint: %s", code, r.text)
	}
	return env
}

func TestToolsListGolden(t *testing.T) {
	e := openEngine(t, t.TempDir())
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "tools_list.golden.json", list.Tools, "tools/list changed; if deliberate, run go test ./backend/mcpserver -run Golden -update")
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "entity,index_status,ingest,knowledge,relationships,search" {
		t.Fatalf("tools: %v", names)
	}
	// The relationships schema's enum is the engine's list of types.
	var tool struct {
		InputSchema struct {
			Properties map[string]struct {
				Enum        []string `json:"enum"`
				Description string   `json:"description"`
			} `json:"properties"`
		} `json:"inputSchema"`
	}
	for _, tl := range list.Tools {
		if tl.Name == "relationships" {
			b, _ := json.Marshal(tl)
			json.Unmarshal(b, &tool)
		}
	}
	// The relationships schema's enum is every type list accepts: the engine's asserted types and
	// the enrichments' derived ones.
	types := slices.Concat(spec.RelationshipTypes, enrich.DerivedTypes)
	slices.Sort(types)
	types = slices.Compact(types)
	if enum := tool.InputSchema.Properties["relationship_type"].Enum; !reflect.DeepEqual(enum, types) {
		t.Fatalf("relationship_type enum %v != %v", enum, types)
	}
	// The enrichment field names every registered enrichment.
	st, err := e.EnrichStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range st.Enrichments {
		if !strings.Contains(tool.InputSchema.Properties["enrichment"].Description, en.Name) {
			t.Errorf("the enrichment field does not name %s: %q", en.Name, tool.InputSchema.Properties["enrichment"].Description)
		}
	}
}

func TestEveryToolAndAction(t *testing.T) {
	dir := t.TempDir()
	e := openEngine(t, dir)
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))

	// ingest: content, then a payload, then the same again (dedup)
	r := call(t, c, "ingest", map[string]any{"data": map[string]any{"text": "Herons nest by the river in spring.\nThey eat fish.", "title": "Herons", "tags": []string{"birds"}}})
	if r.isError || r.data["created"] != true || r.data["document_id"] == "" {
		t.Fatalf("ingest text: %s", r.text)
	}
	docID := r.data["document_id"].(string)
	inv := map[string]any{"capability_id": "strata:store_invoice:v1", "body": map[string]any{"invoice_number": "INV-7", "vendor_name": "Acme GmbH",
		"amount": 120.5, "currency": "EUR", "invoice_date": "2025-03-01"}, "provenance": map[string]any{"source_refs": []string{}, "extracted_at": "2025-03-02T00:00:00Z", "extractor_version": "test:v1"}}
	r = call(t, c, "ingest", map[string]any{"data": inv})
	if r.isError || r.data["created"] != true {
		t.Fatalf("ingest payload: %s", r.text)
	}
	again := call(t, c, "ingest", map[string]any{"data": inv, "input_kind": "payload"})
	if again.isError || again.data["created"] != false || again.data["payload_id"] != r.data["payload_id"] {
		t.Fatalf("resubmission: %s", again.text)
	}
	ents := r.data["entities"].([]any)
	var invoice, company string
	for _, x := range ents {
		m := x.(map[string]any)
		switch m["entity_type"] {
		case "invoice":
			invoice = m["entity_id"].(string)
		case "company":
			company = m["entity_id"].(string)
		}
	}
	if invoice == "" || company == "" {
		t.Fatalf("entities: %v", ents)
	}

	// search, with filters, and the embedder block
	r = call(t, c, "search", map[string]any{"query": "heron river", "limit": 5, "filters": map[string]any{"tag": "birds", "per_document": true}})
	res := r.data["results"].([]any)
	if r.isError || len(res) != 1 || res[0].(map[string]any)["document_id"] != docID {
		t.Fatalf("search: %s", r.text)
	}
	// The snippet is plain text; highlights point at the matched words.
	hit := res[0].(map[string]any)
	snippet, hl := hit["snippet"].(string), hit["highlights"].([]any)
	if strings.ContainsAny(snippet, "«»") || len(hl) == 0 {
		t.Fatalf("snippet %q, highlights %v", snippet, hl)
	}
	for _, h := range hl {
		span := h.(map[string]any)
		if w := strings.ToLower(snippet[int(span["start"].(float64)):int(span["end"].(float64))]); !strings.HasPrefix(w, "heron") && w != "river" {
			t.Errorf("highlight %v is %q in %q", span, w, snippet)
		}
	}
	if emb := r.data["embedder"].(map[string]any); emb["actual_provider"] != "static" || emb["semantic_quality"] != "low" {
		t.Fatalf("embedder: %v", emb)
	}
	wantErr(t, call(t, c, "search", map[string]any{"query": "x", "mode": "psychic"}), "VALIDATION_ERROR")
	wantErr(t, call(t, c, "search", map[string]any{"query": "x", "filters": map[string]any{"from": "yesterday"}}), "VALIDATION_ERROR")

	// entity: every action
	if r = call(t, c, "entity", map[string]any{"action": "get", "entity_id": invoice}); r.isError || r.data["entity_id"] != invoice {
		t.Fatalf("get: %s", r.text)
	}
	if r = call(t, c, "entity", map[string]any{"action": "get", "entity_id": invoice, "at": "2000-01-01"}); r.isError {
		t.Fatalf("get at: %s", r.text)
	}
	if r = call(t, c, "entity", map[string]any{"action": "observations", "entity_id": invoice, "limit": 10}); r.isError || r.data["total"].(float64) < 1 {
		t.Fatalf("observations: %s", r.text)
	}
	if r = call(t, c, "entity", map[string]any{"action": "provenance", "entity_id": invoice, "field": "amount"}); r.isError || !strings.Contains(r.text, "observation") {
		t.Fatalf("provenance: %s", r.text)
	}
	if r = call(t, c, "entity", map[string]any{"action": "list", "type": "company", "query": "acme"}); r.isError || r.data["total"].(float64) != 1 {
		t.Fatalf("list: %s", r.text)
	}
	wantErr(t, call(t, c, "entity", map[string]any{"action": "get", "entity_id": "ent_000000000000000000000000"}), "ENTITY_NOT_FOUND")
	wantErr(t, call(t, c, "entity", map[string]any{"action": "provenance", "entity_id": invoice, "field": "colour"}), "FIELD_NOT_FOUND")
	env := wantErr(t, call(t, c, "entity", map[string]any{"action": "provenance", "entity_id": invoice}), "VALIDATION_ERROR")
	if env["details"].(map[string]any)["field"] != "field" {
		t.Fatalf("details: %v", env)
	}
	wantErr(t, call(t, c, "entity", map[string]any{"action": "explode"}), "VALIDATION_ERROR")
	wantErr(t, call(t, c, "entity", map[string]any{"action": "list", "limit": 5000}), "VALIDATION_ERROR")
	env = wantErr(t, call(t, c, "entity", map[string]any{"action": "list", "colour": "red"}), "VALIDATION_ERROR")
	if d := env["details"].(map[string]any); d["field"] != "colour" || d["cause"] == nil || !strings.Contains(d["cause"].(string), "colour") ||
		strings.Contains(env["message"].(string), "colour") {
		t.Fatalf("unknown field (named in details, not interpolated into the message): %v", env)
	}
	wantErr(t, call(t, c, "entity", map[string]any{"action": "list", "limit": "ten"}), "VALIDATION_ERROR")

	// relationships: create, same again, cycle, list
	r = call(t, c, "relationships", map[string]any{"action": "create", "relationship_type": "PART_OF", "source_entity_id": invoice, "target_entity_id": company,
		"metadata": map[string]any{"note": "x"}})
	if r.isError || r.data["created"] != true {
		t.Fatalf("create: %s", r.text)
	}
	if r2 := call(t, c, "relationships", map[string]any{"action": "create", "relationship_type": "PART_OF", "source_entity_id": invoice, "target_entity_id": company}); r2.data["created"] != false {
		t.Fatalf("same edge: %s", r2.text)
	}
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "create", "relationship_type": "PART_OF", "source_entity_id": company, "target_entity_id": invoice}), "CYCLE_DETECTED")
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "create", "relationship_type": "LIKES", "source_entity_id": company, "target_entity_id": invoice}), "INVALID_RELATIONSHIP_TYPE")
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "create", "relationship_type": "PART_OF", "source_entity_id": company}), "VALIDATION_ERROR")
	if r = call(t, c, "relationships", map[string]any{"action": "list", "entity_id": company, "direction": "inbound"}); r.isError || r.data["total"].(float64) < 1 {
		t.Fatalf("list: %s", r.text)
	}
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "list", "entity_id": company, "direction": "sideways"}), "VALIDATION_ERROR")
	wantErr(t, call(t, c, "relationships", map[string]any{"action": "list", "entity_id": "ent_000000000000000000000000"}), "ENTITY_NOT_FOUND")
	wantErr(t, call(t, c, "relationships", map[string]any{}), "VALIDATION_ERROR")

	// ingest errors
	wantErr(t, call(t, c, "ingest", map[string]any{}), "VALIDATION_ERROR")
	wantErr(t, call(t, c, "ingest", map[string]any{"data": map[string]any{"capability_id": "strata:nope:v1", "body": map[string]any{}, "provenance": map[string]any{"source_refs": []string{}, "extracted_at": "2025-03-02T00:00:00Z", "extractor_version": "t:v1"}}}), "UNKNOWN_CAPABILITY")
	wantErr(t, call(t, c, "ingest", map[string]any{"data": map[string]any{"shape": "unknown"}}), "VALIDATION_ERROR")
	wantErr(t, call(t, c, "ingest", map[string]any{"data": map[string]any{"file_path": "/etc/passwd"}}), errs.ForbiddenPath)

	// index_status is exactly `strata status --json`
	r = call(t, c, "index_status", map[string]any{})
	st, _ := e.Status(context.Background())
	var want map[string]any
	b, _ := json.Marshal(st)
	json.Unmarshal(b, &want)
	delete(want, "embeddings")
	got := r.data
	emb := got["embeddings"].(map[string]any)
	delete(got, "embeddings")
	// The free space is read at each call: any other writer on the disk moves it in between.
	for _, m := range []map[string]any{got, want} {
		if s, ok := m["storage"].(map[string]any); ok {
			delete(s, "free_bytes")
		}
	}
	if !reflect.DeepEqual(got, want) || emb["actual_provider"] != "static" || emb["is_fallback_active"] != false {
		t.Fatalf("index_status:\n%v\nwant\n%v\n%v", got, want, emb)
	}
	wantErr(t, call(t, c, "index_status", map[string]any{"verbose": true}), "VALIDATION_ERROR")

	// resources
	rr := mcp.ReadResourceRequest{}
	rr.Params.URI = "strata://documents/" + docID
	doc, err := c.ReadResource(context.Background(), rr)
	if err != nil {
		t.Fatal(err)
	}
	text := doc.Contents[0].(mcp.TextResourceContents).Text
	if !strings.Contains(text, "     1  Herons nest by the river") || !strings.Contains(text, "     2  They eat fish.") {
		t.Fatalf("document resource:\n%s", text)
	}
	rr.Params.URI = "strata://entities/" + invoice
	ent, err := c.ReadResource(context.Background(), rr)
	if err != nil {
		t.Fatal(err)
	}
	var er map[string]any
	if err := json.Unmarshal([]byte(ent.Contents[0].(mcp.TextResourceContents).Text), &er); err != nil || er["provenance"].(map[string]any)["amount"] == nil {
		t.Fatalf("entity resource: %v %v", err, er)
	}
	rr.Params.URI = "strata://documents/doc_missing"
	if _, err := c.ReadResource(context.Background(), rr); err == nil || !strings.Contains(err.Error(), "DOCUMENT_NOT_FOUND") {
		t.Fatalf("missing document: %v", err)
	}
}

func TestRateLimit(t *testing.T) {
	e := openEngine(t, t.TempDir())
	var mu sync.Mutex
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	c := connect(t, mcpserver.New(e, mcpserver.Options{Limits: map[string]mcpserver.Limit{"index_status": {Rate: 0.5, Burst: 2}}, Now: clock}))
	for i := 0; i < 2; i++ {
		if r := call(t, c, "index_status", nil); r.isError {
			t.Fatalf("call %d refused: %s", i, r.text)
		}
	}
	env := wantErr(t, call(t, c, "index_status", nil), errs.RateLimitExceeded)
	if d := env["details"].(map[string]any); d["retry_after_seconds"].(float64) < 1 || d["retry_after_seconds"].(float64) > 2 {
		t.Fatalf("retry_after_seconds: %v", d)
	}
	// Other tools have their own buckets.
	if r := call(t, c, "entity", map[string]any{"action": "list"}); r.isError {
		t.Fatalf("entity limited by index_status's bucket: %s", r.text)
	}
	// Half a token a second: 1.9 s is not enough for the next call, 2.1 s is.
	mu.Lock()
	now = now.Add(1900 * time.Millisecond)
	mu.Unlock()
	wantErr(t, call(t, c, "index_status", nil), errs.RateLimitExceeded)
	mu.Lock()
	now = now.Add(200 * time.Millisecond)
	mu.Unlock()
	if r := call(t, c, "index_status", nil); r.isError {
		t.Fatalf("the bucket did not refill: %s", r.text)
	}
}

// TestCancellation: a call whose context ends returns promptly instead of running on.
func TestCancellation(t *testing.T) {
	e := openEngine(t, t.TempDir())
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "search", map[string]any{"query": "anything"}
	res, err := c.CallTool(ctx, req)
	if err == nil && !res.IsError {
		t.Fatalf("a cancelled call succeeded: %+v", res)
	}
}

// checkGolden compares v, as indented JSON, with testdata/name; -update rewrites the file.
func checkGolden(t *testing.T, name string, v any, changed string) {
	t.Helper()
	got, _ := json.MarshalIndent(v, "", "  ")
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(want)) != strings.TrimSpace(string(got)) {
		t.Fatalf("%s\n%s", changed, got)
	}
}

// TestDocumentResourceNumbersFileLines reads a real HTML chapter (the Rust book) through the
// resource: each line of extracted text is numbered with the line of the file it came from,
// the number search cites, not its count in the extracted text.
func TestDocumentResourceNumbersFileLines(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "cite", "ch09-02-recoverable-errors-with-result.html"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "ch09-02.html")
	if err := os.WriteFile(p, src, 0o600); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, t.TempDir())
	ctx := context.Background()
	b, _ := json.Marshal(map[string]any{"file_path": p})
	res, err := e.Ingest(ctx, engine.LocalUser("test"), "", b)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := e.WaitDocuments(wctx, []string{res.DocumentID}, nil); err != nil {
		t.Fatal(err)
	}
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	rr := mcp.ReadResourceRequest{}
	rr.Params.URI = "strata://documents/" + res.DocumentID
	doc, err := c.ReadResource(ctx, rr)
	if err != nil {
		t.Fatal(err)
	}
	text := doc.Contents[0].(mcp.TextResourceContents).Text
	// The first sentence of the chapter is on line 185 of the file (line 3 of the text).
	const want = "   185  Most errors aren’t serious enough"
	if !strings.Contains(text, want) {
		t.Fatalf("document resource lacks %q:\n%.1500s", want, text)
	}
}
