package engine_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
)

// fakeOllama speaks the part of Ollama's HTTP API the semantic phase uses.
type fakeOllama struct {
	up      atomic.Bool
	answer  atomic.Value // string: the model's reply
	mu      sync.Mutex
	prompts []map[string]any
}

func (f *fakeOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !f.up.Load() {
		http.Error(w, "not running", http.StatusServiceUnavailable)
		return
	}
	switch r.URL.Path {
	case "/api/tags":
		io.WriteString(w, `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":1}]}`)
	case "/api/chat":
		var req map[string]any
		json.NewDecoder(r.Body).Decode(&req)
		f.mu.Lock()
		f.prompts = append(f.prompts, req)
		f.mu.Unlock()
		reply, _ := json.Marshal(map[string]any{"model": req["model"], "created_at": "2025-01-01T00:00:00Z",
			"message": map[string]any{"role": "assistant", "content": f.answer.Load().(string)}, "done": true})
		w.Write(reply)
	default:
		http.NotFound(w, r)
	}
}

const meetingNotes = `# Weekly sync

Attendees: Ada Lovelace, Bob Stone
Agenda: the Q3 launch

## Decisions

Ship on 2025-03-14.

## Action items

- Ada sends the report by Friday
`

func TestSemanticPhaseWithLocalModel(t *testing.T) {
	ollama := &fakeOllama{}
	ollama.answer.Store(`{"title": "Weekly sync", "date": "2025-03-14", "attendees": ["Ada Lovelace", "Bob Stone"],
		"decisions": ["Ship on 2025-03-14"], "action_items": [{"owner": "Ada Lovelace", "task": "send the report"}],
		"_evidence": {"title": 0, "attendees": 0, "decisions": 1, "action_items": 2}}`)
	srv := httptest.NewServer(ollama)
	defer srv.Close()
	e := open(t, func(c *engine.Config) { c.OllamaHost = srv.URL })
	ctx := context.Background()
	p := write(t, filepath.Join(t.TempDir(), "sync.md"), meetingNotes)
	res := ingestFile(t, e, p)

	// 1. No model: analysed and searchable; the semantic phase is skipped, saying what to do.
	d := settle(t, e, res.DocumentID)[0]
	if d.Status != "analyzed" || d.PhaseSemantic != "skipped" {
		t.Fatalf("without a model: %+v", d)
	}
	detail, _ := e.GetDocument(ctx, res.DocumentID)
	var reason *errs.Error
	for _, j := range detail.Jobs {
		if j.Phase == "semantic" {
			reason = errs.FromEnvelope(j.Error)
		}
	}
	if reason == nil || reason.Code != "NO_CHAT_MODEL" || !strings.Contains(reason.Hint, "ollama pull llama3.2") {
		t.Fatalf("skip reason: %+v", reason)
	}

	// 2. The model appears: the waiting job runs.
	ollama.up.Store(true)
	n, err := e.RequeueSemantic(ctx)
	if err != nil || n != 1 {
		t.Fatalf("requeue: %d %v", n, err)
	}
	d = settle(t, e, res.DocumentID)[0]
	if d.Status != "semantic" || d.PhaseSemantic != "done" {
		t.Fatalf("with a model: %+v", d)
	}
	if len(ollama.prompts) != 1 || ollama.prompts[0]["format"] != "json" || ollama.prompts[0]["model"] != "llama3.2" {
		t.Fatalf("chat request: %v", ollama.prompts)
	}
	msgs, _ := ollama.prompts[0]["messages"].([]any)
	if len(msgs) != 2 || !strings.Contains(msgs[1].(map[string]any)["content"].(string), "[chunk 0]") {
		t.Fatalf("the document must be sent with numbered chunks: %v", msgs)
	}
	meetings, _ := e.ListEntities(ctx, "meeting", "", 0, 0)
	if meetings.Total != 1 {
		t.Fatalf("meetings: %+v", meetings)
	}
	m, _ := e.GetEntity(ctx, meetings.Entities[0].EntityID, "")
	if field(t, m, "attendees") != `["Ada Lovelace","Bob Stone"]` || field(t, m, "date") != `"2025-03-14"` {
		t.Fatalf("meeting snapshot: %v", m.Snapshot)
	}
	people, _ := e.ListEntities(ctx, "person", "lovelace", 0, 0)
	if people.Total != 1 {
		t.Fatal("attendees are not person entities")
	}
	prov, err := e.FieldProvenance(ctx, m.EntityID, "attendees")
	if err != nil {
		t.Fatal(err)
	}
	if prov.SourcePayload.Kind != "semantic" || prov.SourceDocument == nil || prov.SourceDocument.DocumentID != res.DocumentID ||
		!strings.Contains(string(prov.SourceObservation.Span), `"chunks":["chk_`) || !strings.Contains(string(prov.SourcePayload.Origin), "llama3.2") {
		t.Fatalf("provenance must reach the document and its chunks: %+v", prov)
	}
	refs, _ := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: res.EntityIDs[0], Direction: "outbound", Type: "REFERS_TO", Derived: assertedOnly})
	found := false
	for _, r := range refs.Relationships {
		found = found || r.TargetEntityID == m.EntityID
	}
	if !found {
		t.Fatal("the document does not refer to the meeting")
	}
}

func TestSemanticAnswerThatDoesNotFit(t *testing.T) {
	ollama := &fakeOllama{}
	ollama.up.Store(true)
	ollama.answer.Store(`{"attendees": "everyone", "date": "next week"}`)
	srv := httptest.NewServer(ollama)
	defer srv.Close()
	e := open(t, func(c *engine.Config) { c.OllamaHost = srv.URL })
	p := write(t, filepath.Join(t.TempDir(), "sync.md"), meetingNotes)
	d := settle(t, e, ingestFile(t, e, p).DocumentID)[0]
	if d.Status != "analyzed" || d.PhaseSemantic != "failed" || errs.FromEnvelope(d.LastError).Code != errs.AnalysisFailed {
		t.Fatalf("a bad answer fails the phase, and the document stays searchable: %+v", d)
	}
}
