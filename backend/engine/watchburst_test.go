package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
)

// A burst of saves to one watched file (an editor's autosave, a generator rewriting its
// output) is registered and analysed once, with the last content: the watcher's shorter quiet
// period (issue 13) must still wait for the burst to end.
func TestWatchedBurstIsAnalysedOnce(t *testing.T) {
	dir := t.TempDir()
	e, ctx := serveWatching(t, dir)

	path := filepath.Join(dir, "draft.md")
	const saves = 25
	for i := 1; i <= saves; i++ {
		body := fmt.Sprintf("# Draft\n\nSave number %d of the draft.\n\n%s\n", i, strings.Repeat("Some words that stay the same. ", 50*i))
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // far below the watcher's 50 ms, so a loaded machine's stalls stay inside it
	}
	final, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc engine.Document
	deadline := time.Now().Add(15 * time.Second)
	for {
		p, err := e.ListDocuments(ctx, "analyzed", path, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if p.Total == 1 && p.Documents[0].Size == final.Size() {
			doc = p.Documents[0]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the last save was not analysed within 15 s (%+v)", p)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // anything the burst left behind would come now
	obs, err := e.DocumentObservations(ctx, doc.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]bool{}
	for _, o := range obs {
		versions[o.SourcePayloadID] = true
	}
	if len(versions) != 1 {
		t.Fatalf("the burst of %d saves left %d versions (observations from payloads %v); want the last save only", saves, len(versions), versions)
	}
}

// A file saved into a watched folder is analysed at once, not behind a folder ingest queued
// before it (Serve's express lane).
func TestSavedFileOvertakesTheQueue(t *testing.T) {
	dir, bulk := t.TempDir(), t.TempDir()
	const n = 600
	for i := range n {
		write(t, filepath.Join(bulk, fmt.Sprintf("n%04d.md", i)), markdown5KB(i))
	}
	e, ctx := serveWatching(t, dir)
	if _, err := e.IngestPaths(ctx, local, []string{bulk}); err != nil {
		t.Fatal(err)
	}
	path := write(t, filepath.Join(dir, "saved.md"), "# Saved\n\nA note saved while a folder is being ingested.\n")
	deadline := time.Now().Add(30 * time.Second)
	for {
		p, err := e.ListDocuments(ctx, "analyzed", path, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if p.Total == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the saved file was not analysed within 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	p, err := e.ListDocuments(ctx, "analyzed", bulk, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the saved file was analysed when %d of the %d queued files were", p.Total, n)
	if p.Total > n/2 {
		t.Fatalf("the saved file waited behind the queue: analysed after %d of %d queued files", p.Total, n)
	}
}

// serveWatching opens an engine that watches dir and serves until the test ends (stopped and
// awaited in its cleanup), and returns it with the context it serves under.
func serveWatching(t *testing.T, dir string) (*engine.Engine, context.Context) {
	t.Helper()
	e, err := engine.Open(context.Background(), config(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		e.Close()
	})
	if _, err := e.AddWatchRoot(ctx, local, dir); err != nil {
		done <- nil
		t.Fatal(err)
	}
	go func() { done <- e.Serve(ctx) }()
	time.Sleep(300 * time.Millisecond) // the watcher is up
	return e, ctx
}
