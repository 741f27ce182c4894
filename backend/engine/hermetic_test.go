package engine_test

import (
	"context"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/internal/testenv"
)

// TestEngineIgnoresTheEnvironment: the engine takes every setting from Config. Odd values in
// the process environment, each of which would change or break an engine that read it (an
// unparseable Ollama address, an unknown embedder, another data folder), change nothing.
func TestEngineIgnoresTheEnvironment(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "http://")    // refused by ollamahost.URL if read
	t.Setenv("STRATA_EMBEDDER", "openai") // refused by Open if read
	t.Setenv("STRATA_EMBED_MODEL", "odd-model")
	t.Setenv("STRATA_CHAT_MODEL", "odd-chat")
	t.Setenv("STRATA_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())

	// The test helper's engine: static, and works.
	e := open(t)
	ingest(t, e, "content", map[string]any{"text": "herons nest by the river"})
	if st := embStatus(t, e); st.Provider != "static" || st.ActualProvider != "static" || st.IsFallbackActive {
		t.Fatalf("helper engine: %+v", st)
	}

	// A bare Config means the built-in defaults, not the environment's.
	bare, err := engine.Open(context.Background(), engine.Config{DataDir: t.TempDir(), OllamaHost: testenv.UnreachableOllama})
	if err != nil {
		t.Fatalf("open with odd environment: %v", err)
	}
	defer bare.Close()
	st, err := bare.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if em := st.Embeddings; em == nil || em.Provider != "ollama" || em.Model != "nomic-embed-text" {
		t.Fatalf("defaults: %+v", st.Embeddings)
	}

	// No data folder is an error, not $STRATA_HOME.
	_, err = engine.Open(context.Background(), engine.Config{})
	wantCode(t, err, errs.Validation)
}
