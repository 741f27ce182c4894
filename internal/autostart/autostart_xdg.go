//go:build !darwin && !windows

package autostart

// On Linux and the BSDs the login item is an XDG autostart entry, which GNOME, KDE, Xfce,
// Cinnamon, MATE and LXQt all read at login.

func location(env Env) (string, error) { return xdgLocation(env) }

// commandOf is the Exec value State reads back for e.
func commandOf(e Entry) (string, error) { return desktopExec(append([]string{e.Program}, e.Args...)) }

func enable(env Env, e Entry) error {
	path, err := xdgLocation(env)
	if err != nil {
		return err
	}
	text, err := DesktopEntry(e)
	if err != nil {
		return err
	}
	// ~/.config is private to its owner (XDG says 0700); autostart/ inside it follows.
	return writeItem(path, text, 0o700)
}

func disable(env Env) error {
	path, err := xdgLocation(env)
	if err != nil {
		return err
	}
	return removeItem(path)
}

func state(env Env) (State, error) {
	path, err := xdgLocation(env)
	if err != nil {
		return State{}, err
	}
	return readItem(path, func(b []byte) (string, bool, error) {
		exec, on := readDesktopEntry(b)
		return exec, on && exec != "", nil
	})
}
