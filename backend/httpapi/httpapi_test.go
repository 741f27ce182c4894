package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/httpapi"
	"github.com/strata-app/strata/backend/mcpserver"
	"github.com/strata-app/strata/internal/testenv"
)

func start(t *testing.T, ttl time.Duration) (*httpapi.Server, string, string) {
	t.Helper()
	return serveWith(t, httpapi.Options{IdleTTL: ttl})
}

// serveWith serves a data folder of its own on a free loopback port, with opts (Addr, Token and
// DataDir are filled in): the server, its token and the folder.
func serveWith(t *testing.T, opts httpapi.Options) (*httpapi.Server, string, string) {
	t.Helper()
	dir := t.TempDir()
	e, err := engine.Open(context.Background(), testenv.EngineConfig(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	tok, err := httpapi.LoadOrCreateToken(dir)
	if err != nil {
		t.Fatal(err)
	}
	opts.Addr, opts.Token, opts.DataDir = "127.0.0.1:0", tok, dir
	s, err := httpapi.Listen(mcpserver.New(e, mcpserver.Options{}), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, tok, dir
}

func TestTokenFile(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	toks := make([]string, 8)
	for i := range toks {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			toks[i], _ = httpapi.LoadOrCreateToken(dir)
		}(i)
	}
	wg.Wait()
	for _, tk := range toks {
		if tk != toks[0] || len(tk) != 64 {
			t.Fatalf("tokens differ or are short: %v", toks)
		}
	}
	st, err := os.Stat(filepath.Join(dir, httpapi.TokenFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode: %v %v", st.Mode(), err)
	}
}

func initialize(t *testing.T, url, tok string) (*client.Client, error) {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(context.Background()); err != nil {
		return nil, err
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "t", Version: "1"}
	_, err = c.Initialize(context.Background(), req)
	return c, err
}

func TestHTTPRules(t *testing.T) {
	s, tok, dir := start(t, 0)
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatal(s.URL())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, httpapi.EndpointFile)); !strings.Contains(string(b), s.URL()) {
		t.Fatalf("endpoint file: %s", b)
	}
	c, err := initialize(t, s.URL(), tok)
	if err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "index_status"
	if res, err := c.CallTool(context.Background(), req); err != nil || res.IsError {
		t.Fatalf("call over HTTP: %v %+v", err, res)
	}
	if _, err := initialize(t, s.URL(), "wrong"+tok[5:]); err == nil {
		t.Fatal("a wrong token was accepted")
	}

	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	post := func(mod func(*http.Request)) (int, string) {
		r, _ := http.NewRequest("POST", s.URL(), strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Authorization", "Bearer "+tok)
		mod(r)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for name, c := range map[string]struct {
		mod  func(*http.Request)
		code int
		want string
	}{
		"ok":               {func(r *http.Request) {}, 200, "serverInfo"},
		"same origin":      {func(r *http.Request) { r.Header.Set("Origin", strings.TrimSuffix(s.URL(), "/mcp")) }, 200, "serverInfo"},
		"no token":         {func(r *http.Request) { r.Header.Del("Authorization") }, 401, "UNAUTHORIZED"},
		"basic auth":       {func(r *http.Request) { r.SetBasicAuth("a", tok) }, 401, "UNAUTHORIZED"},
		"foreign origin":   {func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, 403, "FORBIDDEN_ORIGIN"},
		"other port":       {func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:1") }, 403, "FORBIDDEN_ORIGIN"},
		"rebinding host":   {func(r *http.Request) { r.Host = "evil.example" }, 403, "FORBIDDEN"},
		"null origin":      {func(r *http.Request) { r.Header.Set("Origin", "null") }, 403, "FORBIDDEN_ORIGIN"},
		"origin, no token": {func(r *http.Request) { r.Header.Set("Origin", "https://evil.example"); r.Header.Del("Authorization") }, 403, "FORBIDDEN_ORIGIN"},
	} {
		code, b := post(c.mod)
		if code != c.code || !strings.Contains(b, c.want) {
			t.Errorf("%s: %d %s", name, code, b)
		}
	}
	if _, err := httpapi.Listen(nil, httpapi.Options{Addr: "0.0.0.0:0", Token: tok}); err == nil {
		t.Fatal("a non-loopback address was accepted")
	}
	busy := strings.TrimPrefix(strings.TrimSuffix(s.URL(), "/mcp"), "http://")
	_, err = httpapi.Listen(nil, httpapi.Options{Addr: busy, Token: tok})
	// The cause goes to details, the message stays Strata's own sentence.
	if e := errs.As(err); err == nil || e.Code != errs.AddressInUse || e.Message != "cannot listen on "+busy ||
		!strings.Contains(e.Cause(), "address already in use") {
		t.Fatalf("a busy address: %#v", e)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(dir, httpapi.EndpointFile)); !os.IsNotExist(err) {
		t.Fatal("the endpoint file outlived the server")
	}
}

func TestBrowserUIToken(t *testing.T) {
	dir := t.TempDir()
	tok, _ := httpapi.LoadOrCreateToken(dir)
	ui := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "UI "+r.URL.Path) })
	s, err := httpapi.Listen(nil, httpapi.Options{Addr: "127.0.0.1:0", Token: tok, UI: ui})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	get := func(u string) (int, string) {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	base := strings.TrimSuffix(s.URL(), "/mcp")
	if code, _ := get(base + "/"); code != 401 {
		t.Fatalf("UI without token: %d", code)
	}
	if code, _ := get(base + "/?token=wrong"); code != 401 {
		t.Fatalf("UI with a wrong token: %d", code)
	}
	if !strings.Contains(s.UIURL(), "token="+tok) {
		t.Fatal(s.UIURL())
	}
	code, body := get(s.UIURL())
	if code != 200 || body != "UI /" {
		t.Fatalf("UI with the token: %d %q", code, body)
	}
	if code, body = get(base + "/api/Status"); code != 200 || body != "UI /api/Status" {
		t.Fatalf("the cookie does not carry: %d %q", code, body)
	}
	// The cookie does not open /mcp: MCP clients use the bearer header.
	if code, _ := get(s.URL()); code != 401 {
		t.Fatalf("/mcp with only the cookie: %d", code)
	}
}

func TestIdleSessionsExpire(t *testing.T) {
	s, tok, _ := start(t, time.Second)
	send := func(session, body string) (*http.Response, string) {
		r, _ := http.NewRequest("POST", s.URL(), strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Authorization", "Bearer "+tok)
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, _ := send("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatal("no session ID")
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if resp, b := send(sid, list); resp.StatusCode != 200 {
		t.Fatalf("live session: %d %s", resp.StatusCode, b)
	}
	time.Sleep(2500 * time.Millisecond)
	if resp, b := send(sid, list); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("an idle session outlived its TTL: %d %s", resp.StatusCode, b)
	}
}
