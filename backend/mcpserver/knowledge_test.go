package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/lint"
	"github.com/strata-app/strata/backend/mcpserver"
)

// invoiceFrom is an invoice payload as agent submits it: the same vendor and number from two
// agents is one invoice entity with two observations.
func invoiceFrom(agent string, amount float64) map[string]any {
	return map[string]any{"capability_id": "strata:store_invoice:v1",
		"body":       map[string]any{"invoice_number": "INV-42", "vendor_name": "Acme GmbH", "amount": amount, "currency": "EUR", "invoice_date": "2025-03-01"},
		"provenance": map[string]any{"source_refs": []string{}, "extracted_at": "2025-03-02T00:00:00Z", "extractor_version": agent + ":v1", "agent_id": agent}}
}

// otherNotes are what a store holds besides the note a test asks about: a store of one note
// has no word statistics to tell a telling word from a common one, and answers nothing.
var otherNotes = []map[string]any{
	{"title": "Otter notes", "text": "Spraint was found under the footbridge twice in June, the first sign of otters since 2019."},
	{"title": "Reed beds", "text": "The reed beds along the eastern bank were cut back in February to let new shoots through."},
}

// knowledgeStore ingests what the knowledge tests ask about and lint over: a note that answers
// a question (beside two others), and one invoice given two amounts by two agents (a
// contradiction nothing explains).
func knowledgeStore(t *testing.T) (*client.Client, string, *engine.Engine) {
	t.Helper()
	e := openEngine(t, t.TempDir())
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	r := call(t, c, "ingest", map[string]any{"data": map[string]any{"title": "Heron survey", "text": "# Heron survey 2025\n\nCounted on 2025-05-14 by the river team.\n\n" +
		"The grey heron colony by the river rose to 42 nests this spring.\nKingfishers were seen twice near the weir.\nFunding for next year's count comes from the county.\n"}})
	if r.isError {
		t.Fatal(r.text)
	}
	doc := r.data["document_id"].(string)
	for _, data := range append(otherNotes, invoiceFrom("claude", 1500), invoiceFrom("cursor", 1540)) {
		if r := call(t, c, "ingest", map[string]any{"data": data}); r.isError {
			t.Fatal(r.text)
		}
	}
	return c, doc, e
}

// TestKnowledgeAsk: ask answers from the store with a citation to the passage that says it, in
// both formats; persist files the answer once (the same question again: the same document); a
// question nothing answers says so instead of answering.
func TestKnowledgeAsk(t *testing.T) {
	c, doc, e := knowledgeStore(t)

	r := call(t, c, "knowledge", map[string]any{"action": "ask", "question": "How many nests did the heron colony have?"})
	if r.isError {
		t.Fatalf("ask: %s", r.text)
	}
	checkAskShape(t, r.data)
	if r.data["mode"] != "extractive" {
		t.Fatalf("without a chat model the answer is extractive: %s", r.text)
	}
	answer := r.data["answer"].(string)
	cites := r.data["citations"].([]any)
	if !strings.Contains(answer, "42") || !strings.Contains(answer, "[1]") || len(cites) == 0 {
		t.Fatalf("ask: the answer does not cite the passage that says 42: %s", r.text)
	}
	first := cites[0].(map[string]any)
	if first["n"] != 1.0 || first["document_id"] != doc || first["line_start"].(float64) < 1 || !strings.Contains(first["quote"].(string), "42") {
		t.Fatalf("citation [1]: %v", first)
	}

	r = call(t, c, "knowledge", map[string]any{"action": "ask", "question": "How many nests did the heron colony have?", "format": "summary_with_sources",
		"max_passages": 3, "filters": map[string]any{"from": "2000-01-01"}})
	if r.isError || !strings.Contains(r.data["answer"].(string), "\n[1] ") {
		t.Fatalf("summary_with_sources lists its sources as [n] lines: %s", r.text)
	}

	ask := map[string]any{"action": "ask", "question": "How many nests did the heron colony have?", "persist": true}
	r = call(t, c, "knowledge", ask)
	id, _ := r.data["document_id"].(string)
	if r.isError || !strings.HasPrefix(id, "doc_") || r.data["created"] != true {
		t.Fatalf("persist: %s", r.text)
	}
	// The answer's document is read and indexed like any file (as a running Strata does at
	// once); asking again still answers from the sources, not from the answer, and files nothing
	// new.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := e.WaitDocuments(ctx, []string{id}, nil); err != nil {
		t.Fatal(err)
	}
	again := call(t, c, "knowledge", ask)
	if again.isError || again.data["document_id"] != id || again.data["created"] != false || again.data["answer"] != r.data["answer"] {
		t.Fatalf("the same question on the same store: %s\nfirst: %s", again.text, r.text)
	}

	r = call(t, c, "knowledge", map[string]any{"action": "ask", "question": "zqxjv wombat tariffs"})
	checkAskShape(t, r.data)
	if r.isError || r.data["answer"] != "" || r.data["notice"] == "" || len(r.data["citations"].([]any)) != 0 {
		t.Fatalf("a question nothing answers: %s", r.text)
	}
}

// checkAskShape: every ask answer has the fields the issue names, arrays never null.
func checkAskShape(t *testing.T, d map[string]any) {
	t.Helper()
	for _, k := range []string{"question", "answer", "mode"} {
		if _, ok := d[k].(string); !ok {
			t.Fatalf("ask: %s is not a string: %v", k, d)
		}
	}
	for _, k := range []string{"citations", "facts", "unsupported"} {
		if _, ok := d[k].([]any); !ok {
			t.Fatalf("ask: %s is not an array: %v", k, d)
		}
	}
}

// TestKnowledgeLint: lint finds the planted contradiction with both values and the one the
// snapshot shows, counts every kind, filters by kind, pages, and publishes the report.
func TestKnowledgeLint(t *testing.T) {
	c, _, _ := knowledgeStore(t)

	r := call(t, c, "knowledge", map[string]any{"action": "lint"})
	if r.isError {
		t.Fatalf("lint: %s", r.text)
	}
	checkLintShape(t, r.data)
	counts := r.data["counts"].(map[string]any)
	for _, k := range lint.Kinds {
		if _, ok := counts[k].(float64); !ok {
			t.Errorf("counts lacks %s: %v", k, counts)
		}
	}
	if r.data["limit"] != 100.0 || r.data["offset"] != 0.0 || r.data["scope"] != "all" || r.data["staleness_days"] != 90.0 {
		t.Fatalf("defaults: %s", r.text)
	}
	var contra map[string]any
	for _, f := range r.data["findings"].([]any) {
		if m := f.(map[string]any); m["kind"] == lint.Contradiction && m["field"] == "amount" {
			contra = m
		}
	}
	if contra == nil {
		t.Fatalf("lint did not find the two amounts of INV-42: %s", r.text)
	}
	vals := contra["values"].([]any)
	shown := 0
	for _, v := range vals {
		if v.(map[string]any)["shown"] == true {
			shown++
		}
	}
	if len(vals) != 2 || shown != 1 || contra["severity"] == "" || contra["title"] == "" || contra["hint"] == "" {
		t.Fatalf("the contradiction names both values and which one is shown today: %v", contra)
	}

	only := call(t, c, "knowledge", map[string]any{"action": "lint", "kind": lint.Contradiction, "scope": "entities", "staleness_days": 30})
	if only.isError {
		t.Fatalf("lint kind: %s", only.text)
	}
	for _, f := range only.data["findings"].([]any) {
		if k := f.(map[string]any)["kind"]; k != lint.Contradiction {
			t.Fatalf("kind %s in a contradiction-only report: %s", k, only.text)
		}
	}
	if only.data["total"].(float64) < 1 {
		t.Fatalf("lint kind: %s", only.text)
	}

	// Paging: one finding at a time gives the same findings in the same order.
	total := int(r.data["total"].(float64))
	var paged []any
	for off := 0; off < total; off++ {
		p := call(t, c, "knowledge", map[string]any{"action": "lint", "limit": 1, "offset": off})
		if p.isError || p.data["total"].(float64) != float64(total) || len(p.data["findings"].([]any)) != 1 {
			t.Fatalf("page %d: %s", off, p.text)
		}
		paged = append(paged, p.data["findings"].([]any)[0])
	}
	if !reflect.DeepEqual(paged, r.data["findings"]) {
		t.Fatalf("pages of one differ from the whole report")
	}

	pub := call(t, c, "knowledge", map[string]any{"action": "lint", "publish": true})
	if id, _ := pub.data["document_id"].(string); pub.isError || !strings.HasPrefix(id, "doc_") {
		t.Fatalf("publish: %s", pub.text)
	}
}

func checkLintShape(t *testing.T, d map[string]any) {
	t.Helper()
	if _, ok := d["findings"].([]any); !ok {
		t.Fatalf("lint: findings is not an array: %v", d)
	}
	for _, k := range []string{"total", "limit", "offset", "staleness_days"} {
		if _, ok := d[k].(float64); !ok {
			t.Fatalf("lint: %s is not a number: %v", k, d)
		}
	}
	if _, ok := d["counts"].(map[string]any); !ok {
		t.Fatalf("lint: counts is not an object: %v", d)
	}
}

// TestKnowledgeRefusesBadInput: every argument that is wrong, out of range or belongs to the
// other action is a VALIDATION_ERROR naming it; nothing is silently ignored or defaulted.
func TestKnowledgeRefusesBadInput(t *testing.T) {
	e := openEngine(t, t.TempDir())
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	q := "How many nests?"
	for _, k := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{}, "action"},
		{map[string]any{"action": "answer", "question": q}, "action"},
		{map[string]any{"question": q}, "action"},
		{map[string]any{"action": "ask"}, "question"},
		{map[string]any{"action": "ask", "question": "   "}, "question"},
		{map[string]any{"action": "ask", "question": strings.Repeat("why ", 501)}, "question"},
		{map[string]any{"action": "ask", "question": q, "max_passages": 0}, "max_passages"},
		{map[string]any{"action": "ask", "question": q, "max_passages": 21}, "max_passages"},
		{map[string]any{"action": "ask", "question": q, "max_passages": -1}, "max_passages"},
		{map[string]any{"action": "ask", "question": q, "max_passages": "eight"}, "max_passages"},
		{map[string]any{"action": "ask", "question": q, "format": "html"}, "format"},
		{map[string]any{"action": "ask", "question": q, "persist": "yes"}, "persist"},
		{map[string]any{"action": "ask", "question": q, "filters": map[string]any{"per_document": true}}, "per_document"},
		{map[string]any{"action": "ask", "question": q, "filters": map[string]any{"from": "yesterday"}}, ""},
		// An argument of the other action, named, never ignored (the first in sorted order).
		{map[string]any{"action": "ask", "question": q, "scope": "all"}, "scope"},
		{map[string]any{"action": "ask", "question": q, "limit": 5}, "limit"},
		{map[string]any{"action": "ask", "question": q, "publish": true, "kind": "stale"}, "kind"},
		{map[string]any{"action": "lint", "question": q}, "question"},
		{map[string]any{"action": "lint", "persist": true}, "persist"},
		{map[string]any{"action": "lint", "max_passages": 3, "filters": map[string]any{}}, "filters"},
		{map[string]any{"action": "lint", "colour": "red"}, "colour"},
		{map[string]any{"action": "lint", "scope": "world"}, "scope"},
		{map[string]any{"action": "lint", "staleness_days": 0}, "staleness_days"},
		{map[string]any{"action": "lint", "staleness_days": 3651}, "staleness_days"},
		{map[string]any{"action": "lint", "kind": "typo"}, "kind"},
		{map[string]any{"action": "lint", "limit": 0}, "limit"},
		{map[string]any{"action": "lint", "limit": 1001}, "limit"},
		{map[string]any{"action": "lint", "offset": -1}, "offset"},
	} {
		t.Run(fmt.Sprint(k.args), func(t *testing.T) {
			env := wantErr(t, call(t, c, "knowledge", k.args), "VALIDATION_ERROR")
			if d, _ := env["details"].(map[string]any); k.field != "" && d["field"] != k.field {
				t.Errorf("details %v, want field %s", env["details"], k.field)
			}
		})
	}
	// null is "not given", as on the other tools.
	if r := call(t, c, "knowledge", map[string]any{"action": "lint", "question": nil, "limit": nil}); r.isError {
		t.Fatalf("nulls: %s", r.text)
	}
}

// TestKnowledgeSchemaEnums: the schema's enums are the engine's lists.
func TestKnowledgeSchemaEnums(t *testing.T) {
	e := openEngine(t, t.TempDir())
	c := connect(t, mcpserver.New(e, mcpserver.Options{}))
	list, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var tool struct {
		InputSchema struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		} `json:"inputSchema"`
	}
	for _, tl := range list.Tools {
		if tl.Name == "knowledge" {
			b, _ := json.Marshal(tl)
			json.Unmarshal(b, &tool)
			if tl.Annotations.ReadOnlyHint == nil || *tl.Annotations.ReadOnlyHint {
				t.Errorf("knowledge writes with persist and publish: readOnlyHint must be false")
			}
		}
	}
	schema := tool.InputSchema
	if got := schema.Properties["kind"].Enum; !slices.Equal(got, lint.Kinds) {
		t.Errorf("kind enum %v, lint.Kinds %v", got, lint.Kinds)
	}
	if got := schema.Properties["action"].Enum; !slices.Equal(got, []string{"ask", "lint"}) {
		t.Errorf("action enum %v", got)
	}
}
