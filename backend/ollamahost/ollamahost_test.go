package ollamahost

import "testing"

func TestURL(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	for _, c := range []struct{ in, env, want string }{
		{"", "", "http://127.0.0.1:11434"},
		{"", "0.0.0.0", "http://127.0.0.1:11434"},
		{"", "0.0.0.0:9999", "http://127.0.0.1:9999"},
		{"", "http://gpu-box:11434", "http://gpu-box:11434"},
		{"localhost", "ignored:1", "http://localhost:11434"},
		{"http://localhost", "", "http://localhost"},
		{"https://ollama.internal/", "", "https://ollama.internal/"},
		{"127.0.0.1:8080", "", "http://127.0.0.1:8080"},
	} {
		t.Setenv("OLLAMA_HOST", c.env)
		u, err := URL(c.in)
		if err != nil || u.String() != c.want {
			t.Errorf("URL(%q) with OLLAMA_HOST=%q = %v, %v; want %s", c.in, c.env, u, err, c.want)
		}
	}
	if _, err := URL("http://"); err == nil {
		t.Error("an empty host should be refused")
	}
}
