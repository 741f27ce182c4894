package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
)

// Two processes serving one data folder (the app, and `strata mcp` launched beside it by an AI
// client): one watches, reads and links; the other answers only, and takes the work over when
// the first ends. Two owners would register every saved file twice and link side by side.
func TestOneProcessDoesTheBackgroundWork(t *testing.T) {
	data, watched := t.TempDir(), t.TempDir()
	cfg := config(data, func(c *engine.Config) { c.RootSyncInterval = 50 * time.Millisecond })
	first, err := engine.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := engine.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	ctx := context.Background()
	if _, err := first.AddWatchRoot(ctx, local, watched); err != nil {
		t.Fatal(err)
	}

	serve := func(e *engine.Engine) (stop func()) {
		sctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- e.Serve(sctx) }()
		return func() {
			cancel()
			if err := <-done; err != nil {
				t.Error(err)
			}
		}
	}
	background := func(e *engine.Engine) engine.Background {
		st, err := e.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st.Background
	}
	if b := background(second); b.Running {
		t.Fatalf("before any serve: background %+v, want none running", b)
	}
	stopFirst := serve(first)
	waitFor(t, "the first serve to own the work", func() bool { return background(first).Here })
	stopSecond := serve(second)
	defer stopSecond()
	time.Sleep(300 * time.Millisecond) // time enough for the second to start watching, were it to
	if b := background(second); b.Here || !b.Running || b.PID != os.Getpid() {
		t.Fatalf("second engine: background %+v, want run by another (pid %d)", b, os.Getpid())
	}
	if w := second.WatchStatus(); len(w) != 0 {
		t.Fatalf("the second engine watches too: %+v", w)
	}

	path := write(t, filepath.Join(watched, "a.md"), "# A\n\nSaved while the first serve runs.\n")
	waitAnalysed(t, second, path)

	stopFirst()
	waitFor(t, "the second serve to take the work over", func() bool { return background(second).Here })
	path = write(t, filepath.Join(watched, "b.md"), "# B\n\nSaved after the first serve ended.\n")
	waitAnalysed(t, second, path)
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 15 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func waitAnalysed(t *testing.T, e *engine.Engine, path string) {
	t.Helper()
	waitFor(t, path+" to be analysed", func() bool {
		p, err := e.ListDocuments(context.Background(), "analyzed", path, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		return p.Total == 1
	})
}
