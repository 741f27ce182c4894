package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/errs"
)

// fakeLoginItem is a login item in memory; fail makes the next Set fail.
type fakeLoginItem struct {
	st   app.Autostart
	fail error
}

func (f *fakeLoginItem) State() (app.Autostart, error) { return f.st, nil }
func (f *fakeLoginItem) Set(on bool) (app.Autostart, error) {
	if f.fail != nil {
		return f.st, f.fail
	}
	f.st = app.Autostart{Enabled: on, Current: on, Location: "/cfg/autostart/strata.desktop"}
	return f.st, nil
}

// TestBackgroundSettings: the settings screen reads and sets "keep running in the background"
// (stored in the data folder, on by default) and the login item, and Quit reaches the window's
// quit; in a browser (no Platform, no login item) each is DESKTOP_ONLY and Settings offers no
// login switch.
func TestBackgroundSettings(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	p := &fakePlatform{events: make(chan string, 10)}
	li := &fakeLoginItem{}
	a := app.New(e, app.Options{Platform: p, LoginItem: li})

	s, err := a.Settings()
	if err != nil || !s.KeepRunning || s.Autostart == nil || s.Autostart.Enabled {
		t.Fatalf("a new folder's settings: %+v, %v", s, err)
	}
	if err := a.SetKeepRunning(false); err != nil {
		t.Fatal(err)
	}
	if on, _ := e.KeepRunning(ctx); on {
		t.Fatal("SetKeepRunning(false) did not reach the data folder")
	}
	if s, _ := a.Settings(); s.KeepRunning {
		t.Fatal("Settings still says keep running")
	}
	st, err := a.SetAutostart(true)
	if err != nil || !st.Enabled || !li.st.Enabled {
		t.Fatalf("SetAutostart(true) = %+v, %v", st, err)
	}
	if s, _ := a.Settings(); !s.Autostart.Enabled || s.Autostart.Location == "" {
		t.Fatalf("Settings after turning it on: %+v", s.Autostart)
	}
	li.fail = errs.New(errs.AutostartFailed, "cannot write /cfg/autostart/strata.desktop")
	if _, err := a.SetAutostart(false); errs.CodeOf(err) != errs.AutostartFailed {
		t.Fatalf("a failed write answered %v", err)
	}
	if err := a.Quit(); err != nil || p.quits != 1 {
		t.Fatalf("Quit: %v, %d quits", err, p.quits)
	}

	browser := app.New(e, app.Options{})
	if s, _ := browser.Settings(); s.Autostart != nil {
		t.Fatalf("a browser is offered a login item: %+v", s.Autostart)
	}
	for name, call := range map[string]func() error{
		"SetKeepRunning": func() error { return browser.SetKeepRunning(true) },
		"SetAutostart":   func() error { _, err := browser.SetAutostart(true); return err },
		"Quit":           browser.Quit,
	} {
		if err := call(); errs.CodeOf(err) != errs.DesktopOnly {
			t.Errorf("%s in a browser: %v", name, err)
		}
	}
	if on, _ := e.KeepRunning(ctx); on {
		t.Fatal("a browser changed the setting")
	}
}

// TestHiddenWindowGetsNoStatus: while the window is closed to the background the App stops
// computing status for it (nobody sees it); shown again, it gets the status at once.
func TestHiddenWindowGetsNoStatus(t *testing.T) {
	e := openEngine(t)
	p := &fakePlatform{events: make(chan string, 10)}
	a := app.New(e, app.Options{Platform: p})
	a.SetHidden(true)
	a.Startup(context.Background())
	defer a.Shutdown(context.Background())
	select {
	case ev := <-p.events:
		t.Fatalf("a hidden window got %q", ev)
	case <-time.After(1600 * time.Millisecond): // two ticks
	}
	a.SetHidden(false)
	select {
	case <-p.events:
	case <-time.After(5 * time.Second):
		t.Fatal("shown again, the window got no status")
	}
}
