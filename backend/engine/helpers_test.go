package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/internal/testenv"
	"github.com/strata-app/strata/specs"
)

// local is the caller of every test that does not test trust: the person at the machine.
var local = engine.LocalUser("test")

// clock is a deterministic clock: every call advances one second from a fixed start.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

type opt func(*engine.Config)

func withSpecs(extra fstest.MapFS) opt {
	return func(c *engine.Config) {
		c.Specs = []spec.Source{{Label: "specs", FS: specs.FS}, {Label: "test", FS: extra}}
	}
}

func withDir(dir string) opt { return func(c *engine.Config) { c.DataDir = dir } }

// withOllama points the engine at a test's own httptest Ollama, for chat and vectors.
func withOllama(url string) opt {
	return func(c *engine.Config) { c.OllamaHost, c.Embedder = url, "ollama" }
}

// config is the hermetic configuration of an engine on dir (static embedder, an Ollama
// address nothing listens on; see testenv): every engine a test opens starts from it, so no
// test depends on the developer's OLLAMA_HOST or on an Ollama running on this machine.
func config(dir string, opts ...opt) engine.Config {
	cfg := testenv.EngineConfig(dir)
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

func open(t testing.TB, opts ...opt) *engine.Engine {
	t.Helper()
	cfg := config(t.TempDir(), append([]opt{func(c *engine.Config) { c.Now = newClock().Now }}, opts...)...)
	e, err := engine.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("open engine: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func ingest(t testing.TB, e *engine.Engine, kind string, data any) *engine.IngestResult {
	t.Helper()
	res, err := e.Ingest(context.Background(), local, kind, mustJSON(t, data))
	if err != nil {
		t.Fatalf("ingest %s: %v", mustJSON(t, data), err)
	}
	return res
}

func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	if s, ok := v.(string); ok {
		return json.RawMessage(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantCode fails unless err is an *errs.Error with the code.
func wantCode(t testing.TB, err error, code string) *errs.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s, got no error", code)
	}
	e := errs.As(err)
	if e.Code != code {
		t.Fatalf("want %s, got %s: %v", code, e.Code, err)
	}
	if e.Message == "" {
		t.Fatalf("%s without a message", code)
	}
	return e
}

func invoice(number, vendor string, amount any, extractedAt string, extra map[string]any) map[string]any {
	body := map[string]any{"invoice_number": number, "vendor_name": vendor, "amount": amount}
	for k, v := range extra {
		body[k] = v
	}
	return map[string]any{
		"capability_id": "strata:store_invoice:v1",
		"body":          body,
		"provenance":    map[string]any{"source_refs": []string{}, "extracted_at": extractedAt, "extractor_version": "test:v1"},
	}
}

func entityOfType(t testing.TB, e *engine.Engine, res *engine.IngestResult, typ string) string {
	t.Helper()
	for _, id := range res.EntityIDs {
		s, err := e.GetEntity(context.Background(), id, "")
		if err != nil {
			t.Fatal(err)
		}
		if s.EntityType == typ {
			return id
		}
	}
	t.Fatalf("no %s among %v", typ, res.EntityIDs)
	return ""
}

func field(t testing.TB, s *engine.Snapshot, name string) string {
	t.Helper()
	v, ok := s.Snapshot[name]
	if !ok {
		return "<missing>"
	}
	return string(v)
}

var _ = fmt.Sprint

func mkfile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
