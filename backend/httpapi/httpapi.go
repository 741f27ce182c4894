// Package httpapi is Strata's loopback HTTP server: the MCP endpoint (/mcp, streamable HTTP)
// for AI tools, behind a bearer token and an Origin check. It listens on 127.0.0.1 only.
package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/strata-app/strata/backend/atomicfile"
	"github.com/strata-app/strata/backend/errs"
)

// DefaultAddr is where `strata serve` and the desktop app listen unless told otherwise.
const DefaultAddr = "127.0.0.1:47821"

// TokenFile is the bearer token's file in the data folder (mode 0600).
const TokenFile = "mcp-token"

// EndpointFile records the URL the running server listens on, for `strata mcp config --http`.
const EndpointFile = "mcp-endpoint.json"

// LoadOrCreateToken returns the data folder's bearer token, generating it (32 random bytes,
// hex) on first use. The file is created with O_EXCL and mode 0600, so two processes starting
// at once agree on one token and no other user can read it.
func LoadOrCreateToken(dataDir string) (string, error) {
	path := filepath.Join(dataDir, TokenFile)
	for range 3 {
		b, err := os.ReadFile(path)
		if err == nil {
			if tok := strings.TrimSpace(string(b)); len(tok) >= 32 {
				if st, err := os.Stat(path); err == nil && st.Mode().Perm()&0o077 != 0 {
					_ = os.Chmod(path, 0o600) // tighten a copied or restored file; reading still works if this fails
				}
				return tok, nil
			}
			// an empty file: a writer is between create and write; wait for it
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("read the MCP token: %w", err)
		}
		raw := make([]byte, 32)
		_, _ = rand.Read(raw) // crypto/rand never fails on supported platforms
		tok := hex.EncodeToString(raw)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue // another process won the race: read its token
		}
		if err != nil {
			return "", fmt.Errorf("create the MCP token: %w", err)
		}
		_, werr := f.WriteString(tok + "\n")
		cerr := f.Close()
		if werr != nil || cerr != nil {
			os.Remove(path)
			return "", fmt.Errorf("write the MCP token: %w", errors.Join(werr, cerr))
		}
		return tok, nil
	}
	return "", fmt.Errorf("the MCP token file %s is empty", path)
}

// Options configures a server.
type Options struct {
	Addr    string        // host:port on a loopback address; "" = DefaultAddr; port 0 = any free one
	Token   string        // required bearer token
	IdleTTL time.Duration // MCP sessions idle this long are closed; 0 = 30 minutes
	Logger  *slog.Logger
	// DataDir, when set, receives EndpointFile while the server runs.
	DataDir string
	// UI, when set, is served at / for browsers (the same token, carried by a cookie that
	// /?token=… sets).
	UI http.Handler
	// Instance, when set, answers a second launch of the desktop app at POST /instance (see
	// Reach); nil answers 404, as `strata serve` has no window to show.
	Instance InstanceFunc
}

// Server is a running loopback server.
type Server struct {
	opts     Options
	log      *slog.Logger
	mcp      *server.StreamableHTTPServer
	http     *http.Server
	ln       net.Listener
	done     chan struct{}
	serveErr error
	once     sync.Once
}

// Listen binds the loopback address and starts serving mcpSrv at /mcp. The caller owns the
// server and must Close it (which waits for it to stop).
func Listen(mcpSrv *server.MCPServer, opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if opts.IdleTTL <= 0 {
		opts.IdleTTL = 30 * time.Minute
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if len(opts.Token) < 32 {
		return nil, errors.New("httpapi: a bearer token of at least 32 characters is required")
	}
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, errs.New(errs.Validation, "address %q is not host:port", opts.Addr).WithHint("use 127.0.0.1:PORT")
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, errs.New(errs.Validation, "address %s is not a loopback address", opts.Addr).
			WithHint("Strata serves MCP on this machine only: use 127.0.0.1:PORT")
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, errs.Wrap(errs.AddressInUse, err, "cannot listen on %s", opts.Addr).
			WithHint("another program (or another Strata) uses it; pass --mcp-addr 127.0.0.1:PORT")
	}
	s := &Server{opts: opts, log: opts.Logger, ln: ln, done: make(chan struct{})}
	s.mcp = server.NewStreamableHTTPServer(mcpSrv,
		server.WithEndpointPath("/mcp"),
		// Stateful: sessions are tracked, so one that idled out is refused (404) and the
		// client starts a new one; IDs are random UUIDs behind the bearer token.
		server.WithStateful(true),
		server.WithSessionIdleTTL(opts.IdleTTL),
		server.WithStreamableHTTPLogger(opts.Logger),
	)
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.guard(s.mcp, false))
	if opts.Instance != nil {
		mux.Handle(instancePath, s.guard(instanceHandler(opts.Instance), false))
	}
	if opts.UI != nil {
		mux.Handle("/", s.guard(opts.UI, true))
	}
	s.http = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn)}
	if opts.DataDir != "" {
		b, _ := json.Marshal(map[string]any{"url": s.URL(), "pid": os.Getpid()}) // strings and ints
		// Atomically: a second launch reads it while this one starts.
		if err := atomicfile.Write(filepath.Join(opts.DataDir, EndpointFile), bytes.NewReader(b), 0o600); err != nil {
			s.log.Warn("record the MCP endpoint", "err", err)
		}
	}
	go func() {
		defer close(s.done)
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.serveErr = err
		}
	}()
	return s, nil
}

// URL is the MCP endpoint, e.g. http://127.0.0.1:47821/mcp.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/mcp" }

// UIURL is the address a person opens in a browser: it carries the token once, which the
// server exchanges for a cookie and removes from the address bar.
func (s *Server) UIURL() string { return "http://" + s.ln.Addr().String() + "/?token=" + s.opts.Token }

// cookieName carries the token for the browser UI.
const cookieName = "strata_token"

// Close stops accepting, closes MCP sessions, waits for handlers (up to 5 s) and removes the
// endpoint file.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err = errors.Join(s.mcp.Shutdown(ctx), s.http.Shutdown(ctx))
		<-s.done
		if s.opts.DataDir != "" {
			os.Remove(filepath.Join(s.opts.DataDir, EndpointFile))
		}
		err = errors.Join(err, s.serveErr)
	})
	return err
}

// guard admits only loopback peers carrying the bearer token, and refuses requests whose
// Origin is not this server's (a web page the user visits must not drive the store: DNS
// rebinding and cross-site requests). Clients that are not browsers send no Origin. For the
// browser UI (cookie true) the token may also come from the cookie that /?token=… sets.
func (s *Server) guard(next http.Handler, cookie bool) http.Handler {
	want := []byte("Bearer " + s.opts.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if host, _, err := net.SplitHostPort(r.RemoteAddr); err != nil || !net.ParseIP(host).IsLoopback() {
			deny(w, errs.Forbidden, "only this machine may connect", "")
			return
		}
		if !isLoopbackHost(r.Host) {
			deny(w, errs.Forbidden, "unexpected Host "+r.Host, "open Strata at 127.0.0.1")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.sameOrigin(o) {
			deny(w, errs.ForbiddenOrigin, "requests from "+o+" are not allowed",
				"Strata's endpoints accept no requests from other web pages")
			return
		}
		ok := subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) == 1
		if cookie && !ok {
			if t := r.URL.Query().Get("token"); t != "" && subtle.ConstantTimeCompare([]byte(t), []byte(s.opts.Token)) == 1 {
				http.SetCookie(w, &http.Cookie{Name: cookieName, Value: s.opts.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
				q := r.URL.Query()
				q.Del("token")
				r.URL.RawQuery = q.Encode()
				http.Redirect(w, r, r.URL.String(), http.StatusSeeOther)
				return
			}
			if c, err := r.Cookie(cookieName); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.opts.Token)) == 1 {
				ok = true
			}
		}
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
			deny(w, errs.Unauthorized, "a valid bearer token is required",
				"send Authorization: Bearer <token>; the token is in the data folder's mcp-token file (`strata mcp config --http` prints it; `strata serve` prints the browser address with it)")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopbackHost: the Host header names this machine (DNS-rebinding defence for the UI too).
func isLoopbackHost(hostport string) bool {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport
	}
	h = strings.Trim(h, "[]")
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin: the Origin is this server itself (127.0.0.1 or localhost, same port).
func (s *Server) sameOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" {
		return false
	}
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	h := u.Hostname()
	return u.Port() == port && (h == "127.0.0.1" || h == "localhost" || h == "::1")
}

func deny(w http.ResponseWriter, code, msg, hint string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(errs.HTTPStatus(code))
	_, _ = w.Write(append(errs.EnvelopeJSON(errs.New(code, "%s", msg).WithHint("%s", hint)), '\n'))
}

// ReadEndpoint is the MCP address recorded in dataDir's endpoint file by the server that runs (or
// last ran) on it: "" when there is none or the file is not one Strata wrote.
func ReadEndpoint(dataDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, EndpointFile))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the MCP endpoint: %w", err)
	}
	var ep struct {
		URL string `json:"url"`
	}
	if json.Unmarshal(b, &ep) != nil {
		return "", nil
	}
	return ep.URL, nil
}
