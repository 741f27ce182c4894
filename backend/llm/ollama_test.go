package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestChatPlainText: Chat asks for an answer in plain text (no JSON format), at temperature 0,
// with a context window that holds the prompt, and returns the model's words.
func TestChatPlainText(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/tags":
			io.WriteString(w, `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest"}]}`)
		case "/api/chat":
			json.NewDecoder(r.Body).Decode(&got)
			io.WriteString(w, `{"model":"llama3.2","message":{"role":"assistant","content":"  It reads the file [1].\n"},"done":true}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	o, err := NewOllama(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if ok, why := o.Available(ctx); !ok {
		t.Fatal(why)
	}
	user := strings.Repeat("passage text ", 3000) // ~39 KB: more than the 4k-token default holds
	answer, err := o.Chat(ctx, "answer from the passages", user)
	if err != nil {
		t.Fatal(err)
	}
	if answer != "It reads the file [1]." {
		t.Fatalf("answer: %q", answer)
	}
	opts, _ := got["options"].(map[string]any)
	if _, hasFormat := got["format"]; hasFormat || opts["temperature"] != float64(0) || opts["num_ctx"] != float64(16384) {
		t.Fatalf("request: %v", got)
	}
}

func TestChatFailureForgetsAvailability(t *testing.T) {
	var down atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/tags" && !down.Load() {
			io.WriteString(w, `{"models":[{"name":"llama3.2"}]}`)
			return
		}
		http.Error(w, "model crashed", http.StatusInternalServerError)
	}))
	defer srv.Close()
	o, _ := NewOllama(srv.URL, "")
	ctx := context.Background()
	if ok, _ := o.Available(ctx); !ok {
		t.Fatal("not available")
	}
	if _, err := o.Chat(ctx, "s", "u"); err == nil {
		t.Fatal("no error")
	}
	down.Store(true)
	if ok, _ := o.Available(ctx); ok {
		t.Fatal("a failed chat must make the next Available probe again")
	}
}

func TestContextWindow(t *testing.T) {
	for n, want := range map[int]int{0: 4096, 9000: 4096, 12000: 8192, 40000: 16384, 1 << 20: 32768} {
		if got := contextWindow(n); got != want {
			t.Errorf("%d bytes: %d, want %d", n, got, want)
		}
	}
}
