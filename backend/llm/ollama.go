// Package llm talks to a local Ollama for chat completions (the semantic phase). Nothing is
// sent anywhere but the configured local Ollama.
package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/strata-app/strata/backend/ollamahost"
)

// DefaultChatModel is the chat model asked for when none is configured.
const DefaultChatModel = "llama3.2"

// Ollama is a chat model served by a local Ollama.
type Ollama struct {
	client *api.Client
	host   string
	model  string
	probe  time.Duration

	mu      sync.Mutex
	checked time.Time
	ok      bool
	why     string
}

// NewOllama connects to host (empty: http://127.0.0.1:11434) for model (empty:
// DefaultChatModel). The caller reads OLLAMA_HOST and STRATA_CHAT_MODEL, not this package.
func NewOllama(host, model string) (*Ollama, error) {
	u, err := ollamahost.URL(host)
	if err != nil {
		return nil, err
	}
	if model == "" {
		model = DefaultChatModel
	}
	// Generation on a laptop can take minutes; the probe below has its own short timeout.
	return &Ollama{client: api.NewClient(u, &http.Client{Timeout: 10 * time.Minute}), host: u.String(), model: model, probe: 30 * time.Second}, nil
}

// Model is the configured chat model.
func (o *Ollama) Model() string { return o.model }

// Available reports whether Ollama answers and has the model; the answer is cached briefly so
// a batch of jobs probes once. why says what is missing, for the user.
func (o *Ollama) Available(ctx context.Context) (bool, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if time.Since(o.checked) < o.probe {
		return o.ok, o.why
	}
	pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	o.checked = time.Now()
	list, err := o.client.List(pctx)
	switch {
	case err != nil:
		o.ok, o.why = false, fmt.Sprintf("Ollama is not reachable at %s", o.host)
	case !hasModel(list, o.model):
		o.ok, o.why = false, fmt.Sprintf("Ollama at %s does not have the model %s", o.host, o.model)
	default:
		o.ok, o.why = true, ""
	}
	return o.ok, o.why
}

// Forget drops the cached availability, so the next Available probes again.
func (o *Ollama) Forget() {
	o.mu.Lock()
	o.checked = time.Time{}
	o.mu.Unlock()
}

func hasModel(list *api.ListResponse, model string) bool {
	want := strings.TrimSuffix(model, ":latest")
	for _, m := range list.Models {
		for _, n := range []string{m.Name, m.Model} {
			if strings.TrimSuffix(n, ":latest") == want {
				return true
			}
		}
	}
	return false
}

// ChatJSON sends a system prompt and a document and returns the model's answer, which Ollama
// is asked to format as one JSON object.
func (o *Ollama) ChatJSON(ctx context.Context, system, user string) (json.RawMessage, error) {
	stream := false
	req := &api.ChatRequest{
		Model:    o.model,
		Messages: []api.Message{{Role: "system", Content: system}, {Role: "user", Content: user}},
		Stream:   &stream,
		Format:   json.RawMessage(`"json"`),
		Options:  map[string]any{"temperature": 0}, // the same document should give the same answer
	}
	var out strings.Builder
	err := o.client.Chat(ctx, req, func(r api.ChatResponse) error {
		out.WriteString(r.Message.Content)
		return nil
	})
	if err != nil {
		o.Forget()
		return nil, fmt.Errorf("ollama chat with %s: %w", o.model, err)
	}
	text := strings.TrimSpace(out.String())
	if !json.Valid([]byte(text)) {
		return nil, fmt.Errorf("ollama chat with %s: the answer is not JSON: %.200q", o.model, text)
	}
	return json.RawMessage(text), nil
}

// Chat sends a system prompt and a message and returns the model's plain-text answer. The
// temperature is 0 so that the same passages and question give the same answer, and the
// context window is sized to the prompt: Ollama's default window (2–4k tokens) silently cuts a
// long prompt at its start, which is where the instructions are.
func (o *Ollama) Chat(ctx context.Context, system, user string) (string, error) {
	stream := false
	req := &api.ChatRequest{
		Model:    o.model,
		Messages: []api.Message{{Role: "system", Content: system}, {Role: "user", Content: user}},
		Stream:   &stream,
		Options:  map[string]any{"temperature": 0, "seed": 0, "num_ctx": contextWindow(len(system) + len(user))},
	}
	var out strings.Builder
	err := o.client.Chat(ctx, req, func(r api.ChatResponse) error {
		out.WriteString(r.Message.Content)
		return nil
	})
	if err != nil {
		o.Forget()
		return "", fmt.Errorf("ollama chat with %s: %w", o.model, err)
	}
	return strings.TrimSpace(out.String()), nil
}

// contextWindow is the context (in tokens) a prompt of n bytes needs with room for the answer:
// about 3 bytes a token for English prose and code, plus 1024 for the answer, as a power of two
// between 4096 and 32768.
func contextWindow(n int) int {
	need := n/3 + 1024
	w := 4096
	for w < need && w < 32768 {
		w *= 2
	}
	return w
}
