// Package ollamahost resolves the address of the local Ollama server the same way for every
// client Strata has (embeddings and chat), so OLLAMA_HOST means one thing everywhere.
package ollamahost

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// DefaultHost is where Ollama listens unless told otherwise.
const DefaultHost = "http://127.0.0.1:11434"

// URL resolves the server address: the option (which the CLI fills from $OLLAMA_HOST), else
// the default.
// Like the ollama CLI, it accepts a bare host or host:port, and maps the listen-on-everything
// addresses people put in OLLAMA_HOST for the server to loopback, which a client can dial.
func URL(host string) (*url.URL, error) {
	host = strings.TrimSpace(host)
	if host == "" {
		host = DefaultHost
	}
	bare := !strings.Contains(host, "://")
	if bare {
		host = "http://" + host
	}
	u, err := url.Parse(host)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("ollama host %q: not a URL (want e.g. %s)", host, DefaultHost)
	}
	h, port := u.Hostname(), u.Port()
	if h == "0.0.0.0" || h == "::" || h == "" {
		h = "127.0.0.1"
	}
	if port == "" && bare {
		port = "11434" // "localhost" means Ollama's port; "http://localhost" means port 80
	}
	if port != "" {
		u.Host = net.JoinHostPort(h, port)
	} else {
		u.Host = h
	}
	return u, nil
}
