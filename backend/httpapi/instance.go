package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The desktop app runs once per data folder. Wails' single-instance lock finds the running
// window over the D-Bus session bus, which a plain X session, a container or a remote desktop
// may not have (and godbus then starts a private bus per process, so each launch is "first").
// So the running app also answers POST /instance on its loopback endpoint, behind the folder's
// token, and a new launch asks there first (Reach): the endpoint file and the token are in the
// data folder, so only a launch on the same folder, by a user who can read it, finds it.

// instancePath is the second launch's call: {"show": true} shows the window.
const instancePath = "/instance"

// Instance is what the running app says about itself.
type Instance struct {
	PID     int    `json:"pid"`
	DataDir string `json:"data_dir"`
	// Shown: the window was asked to show (it was hidden in the background, or behind others).
	Shown bool `json:"shown"`
}

// InstanceFunc answers a second launch; show asks for the window.
type InstanceFunc func(show bool) Instance

// instanceHandler serves POST /instance with the Options' InstanceFunc.
func instanceHandler(f InstanceFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			Show bool `json:"show"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&req); err != nil {
			http.Error(w, "the body must be {\"show\": true|false}", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(f(req.Show)) // a client that hung up has nothing to read
	})
}

// reachTimeout bounds the whole call: a live app answers on loopback in milliseconds, and a
// port nobody listens on is refused at once; only a hung process makes a launch wait this long.
const reachTimeout = 2 * time.Second

// Reach asks the desktop app running on dataDir, if any, to show its window (show) or only
// whether it runs. It returns nil when nothing answers as that app: no endpoint file or token
// (nothing ran here, or it stopped cleanly), a stale file after a crash (the port refuses, or
// another program or another folder's Strata answers without this folder's token), or a server
// without a window (`strata serve`: 404). Only loopback addresses are dialled.
func Reach(ctx context.Context, dataDir string, show bool) (*Instance, error) {
	addr, err := ReadEndpoint(dataDir)
	if err != nil || addr == "" {
		return nil, err
	}
	u, err := url.Parse(addr)
	if err != nil || u.Scheme != "http" || !isLoopbackHost(u.Host) {
		return nil, nil
	}
	tb, err := os.ReadFile(filepath.Join(dataDir, TokenFile))
	if err != nil {
		return nil, nil // no token: no server ever ran on this folder
	}
	tok := strings.TrimSpace(string(tb))
	ctx, cancel := context.WithTimeout(ctx, reachTimeout)
	defer cancel()
	body, _ := json.Marshal(map[string]bool{"show": show}) // a map of bools always marshals
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+u.Host+instancePath, bytes.NewReader(body))
	if err != nil {
		return nil, nil
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	// No proxy (HTTP_PROXY must not see the token) and no idle connection left behind.
	c := &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: (&net.Dialer{}).DialContext, DisableKeepAlives: true}}
	res, err := c.Do(req)
	if err != nil {
		return nil, nil // refused or timed out: a stale file
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, nil
	}
	var in Instance
	if err := json.NewDecoder(res.Body).Decode(&in); err != nil || in.PID == 0 {
		return nil, nil
	}
	return &in, nil
}
