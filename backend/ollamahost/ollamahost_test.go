package ollamahost

import "testing"

func TestURL(t *testing.T) {
	// The package does not read OLLAMA_HOST (the CLI does and passes it in): an odd value in
	// the environment must change nothing.
	t.Setenv("OLLAMA_HOST", "http://env-must-be-ignored:1")
	for _, c := range []struct{ in, want string }{
		{"", "http://127.0.0.1:11434"},
		{"  ", "http://127.0.0.1:11434"},
		{"0.0.0.0", "http://127.0.0.1:11434"},
		{"0.0.0.0:9999", "http://127.0.0.1:9999"},
		{"http://gpu-box:11434", "http://gpu-box:11434"},
		{"localhost", "http://localhost:11434"},
		{"http://localhost", "http://localhost"},
		{"https://ollama.internal/", "https://ollama.internal/"},
		{"127.0.0.1:8080", "http://127.0.0.1:8080"},
	} {
		u, err := URL(c.in)
		if err != nil || u.String() != c.want {
			t.Errorf("URL(%q) = %v, %v; want %s", c.in, u, err, c.want)
		}
	}
	if _, err := URL("http://"); err == nil {
		t.Error("an empty host should be refused")
	}
}
