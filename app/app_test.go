package app

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

type fakeEngine struct {
	gotCtx context.Context
	st     *engine.Status
	err    error
}

func (f *fakeEngine) Status(ctx context.Context) (*engine.Status, error) {
	f.gotCtx = ctx
	return f.st, f.err
}

type ctxKey struct{}

func TestStatusDelegatesWithStartupContext(t *testing.T) {
	f := &fakeEngine{st: &engine.Status{Version: "test"}}
	a := New(f)
	ctx := context.WithValue(context.Background(), ctxKey{}, "wails")
	a.Startup(ctx)
	st, err := a.Status()
	if err != nil || st != f.st {
		t.Fatalf("Status() = %v, %v; want the engine's status", st, err)
	}
	if f.gotCtx.Value(ctxKey{}) != "wails" {
		t.Fatal("Status did not pass the Startup context to the engine")
	}
}

func TestStatusBeforeStartupAndErrors(t *testing.T) {
	want := errors.New("boom")
	f := &fakeEngine{err: want}
	if _, err := New(f).Status(); !errors.Is(err, want) {
		t.Fatalf("Status() error = %v; want the engine's error unchanged", err)
	}
	if f.gotCtx == nil {
		t.Fatal("Status before Startup passed a nil context")
	}
}
