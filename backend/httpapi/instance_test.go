package httpapi_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/httpapi"
)

// listenOn serves a data folder of its own with inst answering second launches (nil: none, as
// `strata serve`).
func listenOn(t *testing.T, inst httpapi.InstanceFunc) (*httpapi.Server, string) {
	t.Helper()
	s, _, dir := serveWith(t, httpapi.Options{Instance: inst})
	return s, dir
}

// TestReachTheRunningApp: a second launch on the same data folder reaches the running app
// through the endpoint file and the token, and asks it to show its window (or only whether it
// runs); everything else — nothing ran, a server without a window, another folder's Strata
// on the recorded port, a stale file after a crash, an address that is not loopback — is "no
// app here", quickly.
func TestReachTheRunningApp(t *testing.T) {
	ctx := context.Background()
	var shows, asks atomic.Int32
	_, dir := listenOn(t, func(show bool) httpapi.Instance {
		asks.Add(1)
		if show {
			shows.Add(1)
		}
		return httpapi.Instance{PID: os.Getpid(), DataDir: "the-folder", Shown: show}
	})
	in, err := httpapi.Reach(ctx, dir, true)
	if err != nil || in == nil || in.PID != os.Getpid() || in.DataDir != "the-folder" || !in.Shown || shows.Load() != 1 {
		t.Fatalf("Reach(show) = %+v, %v (shows %d)", in, err, shows.Load())
	}
	if in, err := httpapi.Reach(ctx, dir, false); err != nil || in == nil || in.Shown || shows.Load() != 1 || asks.Load() != 2 {
		t.Fatalf("Reach(only ask) = %+v, %v (shows %d, asks %d)", in, err, shows.Load(), asks.Load())
	}

	if in, err := httpapi.Reach(ctx, t.TempDir(), true); in != nil || err != nil {
		t.Fatalf("an empty folder: %+v, %v", in, err)
	}
	_, serveDir := listenOn(t, nil)
	if in, err := httpapi.Reach(ctx, serveDir, true); in != nil || err != nil {
		t.Fatalf("a server without a window: %+v, %v", in, err)
	}

	// A folder whose endpoint file names the port where another folder's app now listens: its
	// token is not this folder's, so the other window is not shown.
	other := t.TempDir()
	b, _ := os.ReadFile(filepath.Join(dir, httpapi.EndpointFile))
	os.WriteFile(filepath.Join(other, httpapi.EndpointFile), b, 0o600)
	if _, err := httpapi.LoadOrCreateToken(other); err != nil {
		t.Fatal(err)
	}
	if in, err := httpapi.Reach(ctx, other, true); in != nil || err != nil || asks.Load() != 2 {
		t.Fatalf("another folder's app answered: %+v, %v (asks %d)", in, err, asks.Load())
	}

	// A crash leaves the file behind; nothing listens on its port any more.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	for name, url := range map[string]string{"stale": "http://" + dead + "/mcp", "not loopback": "http://192.0.2.1:47821/mcp", "torn": ""} {
		content := `{"url":"` + url + `","pid":1}`
		if name == "torn" {
			content = `{"url":"http://127.0.0.1:478`
		}
		os.WriteFile(filepath.Join(other, httpapi.EndpointFile), []byte(content), 0o600)
		start := time.Now()
		if in, err := httpapi.Reach(ctx, other, true); in != nil || err != nil {
			t.Fatalf("%s: %+v, %v", name, in, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: Reach took %v; a launch must not wait on a dead endpoint", name, d)
		}
	}
}
