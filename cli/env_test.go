package cli_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/cli"
	"github.com/strata-app/strata/internal/testenv"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestConfigFromEnv: the one place the environment becomes engine settings.
func TestConfigFromEnv(t *testing.T) {
	for name, c := range map[string]struct {
		env  map[string]string
		want engine.Config
	}{
		"empty": {nil, engine.Config{}},
		"home only": {map[string]string{"HOME": "/h"},
			engine.Config{DataDir: filepath.Join("/h", ".local", "share", "strata")}},
		"xdg": {map[string]string{"HOME": "/h", "XDG_DATA_HOME": "/x"}, engine.Config{DataDir: filepath.Join("/x", "strata")}},
		"everything": {map[string]string{"HOME": "/h", "XDG_DATA_HOME": "/x", "STRATA_HOME": "/s", "STRATA_EMBEDDER": " static ",
			"STRATA_EMBED_MODEL": "mxbai-embed-large", "STRATA_CHAT_MODEL": "qwen2.5", "OLLAMA_HOST": "gpu-box:11434"},
			engine.Config{DataDir: "/s", Embedder: "static", EmbedModel: "mxbai-embed-large", ChatModel: "qwen2.5", OllamaHost: "gpu-box:11434"}},
	} {
		if got := cli.ConfigFromEnv(envOf(c.env)); got.DataDir != c.want.DataDir || got.Embedder != c.want.Embedder ||
			got.EmbedModel != c.want.EmbedModel || got.ChatModel != c.want.ChatModel || got.OllamaHost != c.want.OllamaHost {
			t.Errorf("%s: got %+v, want %+v", name, got, c.want)
		}
	}
}

// TestCLIReadsEnvironmentFromIO: the CLI takes its environment from IO.Getenv (the process's
// in main), not from the test process: the data folder comes from STRATA_HOME and the
// embedder from STRATA_EMBEDDER.
func TestCLIReadsEnvironmentFromIO(t *testing.T) {
	t.Setenv("STRATA_HOME", t.TempDir()) // the test process's own: must not be used
	home := filepath.Join(t.TempDir(), "strata-home")
	for _, emb := range []string{"static", "ollama"} {
		var out, errb bytes.Buffer
		code := cli.Main(t.Context(), []string{"status", "--json"}, cli.IO{Out: &out, Err: &errb,
			Getenv: testenv.Getenv("STRATA_HOME="+home, "STRATA_EMBEDDER="+emb)}, nil, nil)
		if code != 0 {
			t.Fatalf("status: %d %s", code, errb.String())
		}
		var st struct {
			DataDir    string `json:"data_dir"`
			Embeddings struct {
				Provider string `json:"provider"`
			} `json:"embeddings"`
		}
		if err := json.Unmarshal([]byte(out.String()), &st); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		if st.DataDir != home || st.Embeddings.Provider != emb {
			t.Fatalf("STRATA_EMBEDDER=%s: data %q provider %q, want %q %q", emb, st.DataDir, st.Embeddings.Provider, home, emb)
		}
	}
	// Without HOME or STRATA_HOME there is no default folder: an error that says what to pass.
	var out, errb bytes.Buffer
	if code := cli.Main(t.Context(), []string{"status"}, cli.IO{Out: &out, Err: &errb, Getenv: testenv.Getenv()}, nil, nil); code != 1 {
		t.Fatalf("no home: exit %d, %s", code, errb.String())
	}
}
