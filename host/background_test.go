package host

import (
	"context"
	"os"
	"sync/atomic"
	"testing"

	"github.com/strata-app/strata/backend/httpapi"
)

// desk is the desktop's app.Platform, doing nothing: the runtime builds the desktop's App.
type desk struct{}

func (desk) PickFiles(context.Context) ([]string, error) { return nil, nil }
func (desk) PickFolder(context.Context) (string, error)  { return "", nil }
func (desk) OpenPath(context.Context, string) error      { return nil }
func (desk) Emit(context.Context, string, any)           {}
func (desk) Quit(context.Context)                        {}

// TestSecondLaunchReachesTheWindow: while the desktop runtime runs, a launch on the same data
// folder reaches it over the loopback endpoint (no D-Bus involved) and the window is asked to
// show; `strata serve` on a folder answers no such launch, so the window opens there as before.
func TestSecondLaunchReachesTheWindow(t *testing.T) {
	var shows atomic.Int32
	opts := hermetic(t)
	opts.Platform = desk{}
	opts.ShowWindow = func() bool { shows.Add(1); return true }
	err := Run(context.Background(), opts, func(ctx context.Context, rt *Runtime) error {
		in, err := httpapi.Reach(ctx, opts.Config.DataDir, true)
		if err != nil || in == nil || in.PID != os.Getpid() || !in.Shown || in.DataDir != rt.Engine.DataDir() || shows.Load() != 1 {
			t.Errorf("Reach = %+v, %v; %d shows", in, err, shows.Load())
		}
		if in, _ := httpapi.Reach(ctx, opts.Config.DataDir, false); in == nil || in.Shown || shows.Load() != 1 {
			t.Errorf("a hidden launch (the login item) showed the window: %+v, %d shows", in, shows.Load())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if in, _ := httpapi.Reach(context.Background(), opts.Config.DataDir, true); in != nil {
		t.Errorf("after Run returned, a launch still reaches %+v", in)
	}

	serve := hermetic(t)
	serve.UI = ui
	err = Run(context.Background(), serve, func(ctx context.Context, rt *Runtime) error {
		if in, err := httpapi.Reach(ctx, serve.Config.DataDir, true); in != nil || err != nil {
			t.Errorf("strata serve answered a window's launch: %+v, %v", in, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
