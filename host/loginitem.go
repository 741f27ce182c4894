package host

import (
	"path/filepath"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/internal/autostart"
)

// HiddenFlag is the flag the login item passes: the desktop app starts with its window hidden
// and serves in the background (watchers, jobs, MCP); launching Strata again shows the window.
const HiddenFlag = "--hidden"

// loginItem is app.LoginItem for this program on this data folder: the entry runs the
// program's real path (links resolved, as ClientServer does for AI clients: a link that a
// package upgrade moves would start nothing) with `--data DIR --hidden`, so the login starts
// the same store the person turned it on from, in the background.
type loginItem struct {
	m     *autostart.Manager
	entry autostart.Entry
}

var _ app.LoginItem = (*loginItem)(nil)

// newLoginItem finds this program and the user's folders (HOME, XDG_CONFIG_HOME from getenv,
// the entry point's environment).
func newLoginItem(dataDir string, getenv func(string) string) (*loginItem, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot resolve %s", dataDir)
	}
	exe, err := executable()
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot find this program's path")
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return &loginItem{
		m:     autostart.New(autostart.Env{Home: getenv("HOME"), XDGConfigHome: getenv("XDG_CONFIG_HOME")}),
		entry: autostart.Entry{Program: exe, Args: []string{"--data", abs, HiddenFlag}},
	}, nil
}

func (l *loginItem) State() (app.Autostart, error) {
	st, err := l.m.State(l.entry)
	if err != nil {
		return view(st), errs.Wrap(errs.AutostartFailed, err, "cannot read the login item")
	}
	return view(st), nil
}

func (l *loginItem) Set(on bool) (app.Autostart, error) {
	var err error
	if on {
		err = l.m.Enable(l.entry)
	} else {
		err = l.m.Disable()
	}
	if err != nil {
		loc, _ := l.m.Location()
		verb := "write"
		if !on {
			verb = "remove"
		}
		st, _ := l.m.State(l.entry)
		return view(st), errs.Wrap(errs.AutostartFailed, err, "cannot %s the login item", verb).With("path", loc)
	}
	return l.State()
}

func view(st autostart.State) app.Autostart {
	return app.Autostart{Enabled: st.Enabled, Current: st.Current, Location: st.Location, Command: st.Command}
}
