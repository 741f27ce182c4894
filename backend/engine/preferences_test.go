package engine_test

import (
	"context"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/internal/testenv"
)

// TestKeepRunning: a new data folder keeps running in the background; the choice is stored
// in the folder, so another process on it (or the next launch) reads the same answer.
func TestKeepRunning(t *testing.T) {
	ctx := context.Background()
	e := open(t)
	if on, err := e.KeepRunning(ctx); err != nil || !on {
		t.Fatalf("a new data folder: keep running = %v, %v; want true", on, err)
	}
	if err := e.SetKeepRunning(ctx, false); err != nil {
		t.Fatal(err)
	}
	other, err := engine.Open(ctx, testenv.EngineConfig(e.DataDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if on, err := other.KeepRunning(ctx); err != nil || on {
		t.Fatalf("after turning it off, another process reads keep running = %v, %v", on, err)
	}
	if err := other.SetKeepRunning(ctx, true); err != nil {
		t.Fatal(err)
	}
	if on, err := e.KeepRunning(ctx); err != nil || !on {
		t.Fatalf("after turning it on again: %v, %v", on, err)
	}
}
