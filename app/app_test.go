package app_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/mcpconfig"
	"github.com/strata-app/strata/internal/testenv"
)

// openEngine opens an engine on a data folder of its own, closed when the test ends.
func openEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e, err := engine.Open(context.Background(), testenv.EngineConfig(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func newApp(t *testing.T) (*app.Host, *engine.Engine) {
	t.Helper()
	e := openEngine(t)
	tok := strings.Repeat("t", 64)
	client := func(useHTTP bool) (mcpconfig.Server, error) {
		if useHTTP {
			return mcpconfig.Server{URL: "http://127.0.0.1:1/mcp", Token: tok}, nil
		}
		return mcpconfig.Server{Command: "/usr/bin/strata", Args: []string{"mcp", "--data", e.DataDir()}}, nil
	}
	a := app.New(e, app.Options{MCPURL: "http://127.0.0.1:1/mcp", Token: tok, Client: client})
	a.Startup(context.Background())
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	return a, e
}

// post calls an App method over the browser handler.
func post(t *testing.T, h http.Handler, method string, args ...any) (int, map[string]any, string) {
	t.Helper()
	b, _ := json.Marshal(args)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/"+method, strings.NewReader(string(b))))
	var v map[string]any
	json.Unmarshal(rec.Body.Bytes(), &v)
	return rec.Code, v, rec.Body.String()
}

func TestBrowserHandlerCallsTheSameMethods(t *testing.T) {
	a, e := newApp(t)
	h := a.Handler(fstest.MapFS{"index.html": {Data: []byte("<title>Strata</title>")}})

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if !strings.Contains(rec.Body.String(), "<title>Strata</title>") {
		t.Fatalf("UI not served: %d %s", rec.Code, rec.Body.String())
	}

	code, res, body := post(t, h, "Upload", "notes/../../report.md", base64.StdEncoding.EncodeToString([]byte("# Report\n\nThe heron count rose in May.")))
	_ = res
	var imp engine.Import
	json.Unmarshal([]byte(body), &imp)
	results := imp.Results
	if code != 200 || imp.Summary.Files != 1 || len(results) != 1 || results[0].Error != nil || !strings.Contains(results[0].Path, "/uploads/") || !strings.HasSuffix(results[0].Path, "/report.md") {
		t.Fatalf("upload: %d %s", code, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := e.WaitDocuments(ctx, []string{results[0].Result.DocumentID}, nil); err != nil {
		t.Fatal(err)
	}
	code, res, body = post(t, h, "Search", map[string]any{"query": "heron count"})
	if hits, _ := res["results"].([]any); code != 200 || len(hits) != 1 || res["embedder"] == nil {
		t.Fatalf("search: %d %s", code, body)
	}
	code, res, body = post(t, h, "Document", results[0].Result.DocumentID)
	if code != 200 || res["title"] != "Report" || len(res["chunks"].([]any)) == 0 || res["observations"] == nil {
		t.Fatalf("document: %d %s", code, body)
	}
	code, res, _ = post(t, h, "Documents", map[string]any{"status": "analyzed"})
	if code != 200 || res["total"].(float64) != 1 {
		t.Fatalf("documents: %v", res)
	}
	if code, res, _ = post(t, h, "Overview"); code != 200 || res["by_status"].(map[string]any)["analyzed"].(float64) != 1 {
		t.Fatalf("overview: %v", res)
	}
	if code, res, _ = post(t, h, "Settings"); res["desktop"] != false || res["token"] == "" || res["mcp_url"] == "" {
		t.Fatalf("settings: %v", res)
	}
	code, _, body = post(t, h, "ClientSnippet", "cursor", true)
	if code != 200 || !strings.Contains(body, "Bearer") {
		t.Fatalf("snippet: %s", body)
	}

	// Errors are envelopes with a status by code.
	for _, c := range []struct {
		method string
		args   []any
		status int
		code   string
	}{
		{"Document", []any{"doc_nope"}, 404, "DOCUMENT_NOT_FOUND"},
		{"Search", []any{map[string]any{"query": ""}}, 400, "VALIDATION_ERROR"},
		{"PickFolder", nil, 400, "DESKTOP_ONLY"},
		{"Document", nil, 400, "VALIDATION_ERROR"},
		{"Nope", nil, 404, "NOT_FOUND"},
		{"Startup", []any{nil}, 404, "NOT_FOUND"},
	} {
		code, res, body := post(t, h, c.method, c.args...)
		env, _ := res["error"].(map[string]any)
		if code != c.status || env == nil || env["code"] != c.code {
			t.Errorf("%s: %d %s", c.method, code, body)
		}
	}
}

// fakePlatform records what the desktop would do.
type fakePlatform struct {
	events chan string
	opened string
	quits  int
}

func (f *fakePlatform) PickFiles(context.Context) ([]string, error) { return nil, nil }
func (f *fakePlatform) PickFolder(context.Context) (string, error)  { return "/chosen", nil }
func (f *fakePlatform) OpenPath(_ context.Context, p string) error  { f.opened = p; return nil }
func (f *fakePlatform) Quit(context.Context)                        { f.quits++ }
func (f *fakePlatform) Emit(_ context.Context, ev string, _ any) {
	select {
	case f.events <- ev:
	default:
	}
}

func TestDesktopEventsAndPlatform(t *testing.T) {
	e := openEngine(t)
	p := &fakePlatform{events: make(chan string, 10)}
	a := app.New(e, app.Options{Platform: p})
	a.Startup(context.Background())
	select {
	case ev := <-p.events:
		if ev != "status" {
			t.Fatalf("event %q", ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no status event")
	}
	if d, _ := a.PickFolder(); d != "/chosen" {
		t.Fatal(d)
	}
	if err := a.OpenPath("/definitely/not/here"); err == nil {
		t.Fatal("opening a missing file must fail")
	}
	if st, _ := a.Settings(); st == nil || !st.Desktop {
		t.Fatal("desktop flag")
	}
	a.Shutdown(context.Background()) // returns only once the event loop stopped
}
