package engine_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

// askOllama speaks the part of Ollama's API that asking uses: /api/tags, and /api/chat answered
// by reply from the prompt (the passages as numbered, so a reply can cite the passage that says
// something, or deliberately one that does not). A JSON-format request (the semantic phase)
// gets an empty object.
type askOllama struct {
	reply    func(user string) string
	semantic string      // the semantic phase's JSON answer ("{}" when empty)
	fail     atomic.Bool // answer /api/chat with a server error
	mu       sync.Mutex
	prompts  []map[string]any
}

func (f *askOllama) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/api/tags":
		io.WriteString(w, `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":1}]}`)
	case "/api/chat":
		if f.fail.Load() {
			http.Error(w, `{"error":"model runner crashed"}`, http.StatusInternalServerError)
			return
		}
		var req map[string]any
		json.NewDecoder(r.Body).Decode(&req)
		content := "{}"
		if f.semantic != "" {
			content = f.semantic
		}
		if req["format"] == nil {
			f.mu.Lock()
			f.prompts = append(f.prompts, req)
			f.mu.Unlock()
			msgs := req["messages"].([]any)
			content = f.reply(msgs[len(msgs)-1].(map[string]any)["content"].(string))
		}
		out, _ := json.Marshal(map[string]any{"model": req["model"], "created_at": "2025-01-01T00:00:00Z",
			"message": map[string]any{"role": "assistant", "content": content}, "done": true})
		w.Write(out)
	default:
		http.NotFound(w, r)
	}
}

var passageHead = regexp.MustCompile(`(?m)^\[(\d+)\] `)

// passageNo is the number of the passage of the prompt that holds needle (0 if none does).
func passageNo(user, needle string) int {
	heads := passageHead.FindAllStringSubmatchIndex(user, -1)
	for i, h := range heads {
		end := len(user)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		if strings.Contains(user[h[0]:end], needle) {
			var n int
			fmt.Sscan(user[h[2]:h[3]], &n)
			return n
		}
	}
	return 0
}

func askLLMStore(t *testing.T, reply func(user string) string) (*engine.Engine, *askOllama) {
	t.Helper()
	f := &askOllama{reply: reply}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	e, _ := askStore(t, func(c *engine.Config) { c.OllamaHost = srv.URL }) // vectors stay static
	return e, f
}

// TestAskLLMChecksEverySentence: the chat model's answer is checked sentence by sentence
// against the passages it cites. Supported sentences stay, their citations renumbered in order
// of first use and pointing at the sentence of the passage that says it; an uncited sentence, a
// citation to a passage that does not say it, a number the source does not have and a
// citation to a passage that was never sent are removed and listed with a reason.
func TestAskLLMChecksEverySentence(t *testing.T) {
	e, f := askLLMStore(t, func(user string) string {
		tom := passageNo(user, "six hours of direct sunlight")
		bas := passageNo(user, "does not tolerate frost")
		return fmt.Sprintf("Tomato plants need at least six hours of direct sunlight every day [%d]. "+
			"Tomatoes are the most popular plant in home gardens. "+
			"Compost needs a balance of nitrogen and carbon [%d]. "+
			"Water tomato plants deeply 3 times a week [%d]. "+
			"Basil is an annual herb [9]. "+
			"Basil does not tolerate frost, so bring it indoors when nights turn cold [%d].", tom, tom, tom, bas)
	})
	r := ask(t, e, engine.AskRequest{Question: "How much sunlight do tomatoes need, and does basil tolerate frost?"})
	if r.Mode != engine.AskLLM || r.Model != "llama3.2" {
		t.Fatalf("mode %s model %q notice %q", r.Mode, r.Model, r.Notice)
	}
	want := "Tomato plants need at least six hours of direct sunlight every day [1]. Basil does not tolerate frost, so bring it indoors when nights turn cold [2]."
	if r.Answer != want {
		t.Fatalf("answer:\n%s\nwant:\n%s", r.Answer, want)
	}
	checkCitations(t, r)
	if !strings.HasSuffix(r.Citations[0].Path, "tomatoes.md") || r.Citations[0].LineStart != 6 ||
		r.Citations[0].Quote != "Tomato plants need at least six hours of direct sunlight every day to set fruit." {
		t.Errorf("[1] must quote the sentence that says it: %+v", r.Citations[0])
	}
	if !strings.HasSuffix(r.Citations[1].Path, "basil.txt") || r.Citations[1].LineStart != 5 {
		t.Errorf("[2]: %+v", r.Citations[1])
	}
	reasons := map[string]string{}
	for _, u := range r.Unsupported {
		reasons[u.Sentence] = u.Reason
	}
	for sentence, reason := range map[string]string{
		"Tomatoes are the most popular plant in home gardens.": "no citation",
		"Compost needs a balance of nitrogen and carbon.":      "does not say “compost”",
		"Water tomato plants deeply 3 times a week.":           "does not say 3",
		"Basil is an annual herb.":                             "cites no passage [9]",
	} {
		if !strings.Contains(reasons[sentence], reason) {
			t.Errorf("%q: reason %q, want it to say %q (all: %v)", sentence, reasons[sentence], reason, reasons)
		}
	}
	if len(r.Unsupported) != 4 {
		t.Errorf("unsupported: %+v", r.Unsupported)
	}
	// The model was asked to answer only from the numbered passages, at temperature 0, and was
	// sent each result's best passage (the chunk the search cites).
	req := f.prompts[0]
	msgs := req["messages"].([]any)
	system := msgs[0].(map[string]any)["content"].(string)
	user := msgs[1].(map[string]any)["content"].(string)
	if !strings.Contains(system, "only what the passages say") || !strings.Contains(user, "Question: How much sunlight do tomatoes need, and does basil tolerate frost?") ||
		req["options"].(map[string]any)["temperature"] != float64(0) || passageNo(user, "six hours") == 0 || passageHead.FindAllString(user, -1)[0] != "[1] " {
		t.Fatalf("prompt:\n%s\n%s\n%v", system, user, req["options"])
	}
}

// TestAskLLMFallsBack: when no sentence of the model survives the check, the answer is
// extractive and says so, keeping the removed sentences; when the model fails, the answer is
// extractive and says that, and asking does not fail.
func TestAskLLMFallsBack(t *testing.T) {
	e, f := askLLMStore(t, func(user string) string {
		return fmt.Sprintf("Tomatoes need 12 hours of sun [%d]. They grow best on the moon [%d].",
			passageNo(user, "six hours"), passageNo(user, "six hours"))
	})
	q := engine.AskRequest{Question: "How much sunlight do tomato plants need?"}
	r := ask(t, e, q)
	if r.Mode != engine.AskExtractive || r.Model != "" || len(r.Unsupported) != 2 || !strings.Contains(r.Notice, "none of the 2 sentences") ||
		!strings.Contains(r.Answer, "six hours of direct sunlight") {
		t.Fatalf("all refused: %+v", r)
	}
	checkCitations(t, r)

	f.fail.Store(true)
	r = ask(t, e, q)
	if r.Mode != engine.AskExtractive || !strings.Contains(r.Notice, "did not answer") || !strings.Contains(r.Answer, "six hours of direct sunlight") {
		t.Fatalf("model failed: %+v", r)
	}

	f.fail.Store(false)
	f.reply = func(string) string { return "NO ANSWER" }
	r = ask(t, e, q)
	if r.Mode != engine.AskExtractive || !strings.Contains(r.Notice, "found no answer") || len(r.Unsupported) != 0 {
		t.Fatalf("no answer: %+v", r)
	}
}

// TestAskLLMAbstainsToo: with a chat model, a question no passage supports (it names Zanzibar,
// which no document does) is "not found" as it is without one: the model is sent nothing to
// answer from, and whatever it would write is not an answer (issue 24).
func TestAskLLMAbstainsToo(t *testing.T) {
	e, f := askLLMStore(t, func(string) string { return "Tomatoes in Zanzibar need 12 hours of sun [1]." })
	r := ask(t, e, engine.AskRequest{Question: "How much direct sunlight do tomato plants need in Zanzibar?"})
	if r.Answer != "" || !strings.Contains(r.Notice, "not found: no passage says “zanzibar”") || len(r.Closest) == 0 {
		t.Fatalf("answer %q, notice %q", r.Answer, r.Notice)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.prompts {
		if strings.Contains(fmt.Sprint(p), "Zanzibar") {
			t.Fatalf("the model was asked: %v", p)
		}
	}
}
