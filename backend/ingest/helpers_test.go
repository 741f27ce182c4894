package ingest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/specs"
)

// testClock advances one second per call from a fixed start, so timestamps are deterministic.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// shippedSpecs loads the specs Strata ships with.
func shippedSpecs(t testing.TB) *spec.Registry {
	t.Helper()
	reg, err := spec.Load(spec.Source{Label: "specs", FS: specs.FS})
	if err != nil {
		t.Fatalf("load specs: %v", err)
	}
	return reg
}

// newIngester returns an Ingester on a real store in a fresh temporary folder.
func newIngester(t testing.TB) *Ingester {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "strata.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	clk := &testClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	return &Ingester{DB: db, Specs: shippedSpecs(t), Now: clk.Now}
}

func ingestJSON(t testing.TB, in *Ingester, kind, data string) *Result {
	t.Helper()
	res, err := in.Ingest(context.Background(), kind, json.RawMessage(data), nil)
	if err != nil {
		t.Fatalf("ingest %s: %v", data, err)
	}
	return res
}

// wantCode fails unless err carries the canonical code.
func wantCode(t testing.TB, err error, code string) *errs.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s, got no error", code)
	}
	e := errs.As(err)
	if e.Code != code {
		t.Fatalf("want %s, got %v", code, err)
	}
	return e
}
