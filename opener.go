package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/errs"
)

// openerWait is how long "Open file" waits for the system opener's verdict. xdg-open, open and
// explorer hand the file to an application and exit within a second or two; an opener still
// running after this is taken to have handed the file over (some fall back to running the
// application in the foreground), and is left to finish on its own.
const openerWait = 5 * time.Second

// runOpener runs the system opener on path and reports its failure: before issue 12 the opener
// was started and its exit status ignored, so "Open file" said nothing when xdg-open found no
// application (exit 3) or no display. A non-zero exit within wait is an OPEN_FAILED error with
// what the opener printed as its cause.
//
// The goroutine that waits for the process ends when the process does; after wait it is the
// only thing still holding the process, so that it is reaped and leaves no zombie.
func runOpener(ctx context.Context, wait time.Duration, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	path := ""
	if len(args) > 0 {
		path = args[len(args)-1]
	}
	if err := cmd.Start(); err != nil {
		return errs.Wrap(errs.OpenFailed, err, "cannot start %s to open %s", name, path).With("path", path).
			WithHint("install xdg-utils, or open the file from your file manager")
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case err := <-done:
		if err == nil {
			return nil
		}
		var exit *exec.ExitError
		code := -1
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		}
		cause := strings.TrimSpace(out.String())
		if cause == "" {
			cause = err.Error()
		}
		return errs.Wrap(errs.OpenFailed, errors.New(cause), "%s could not open %s", name, path).
			With("path", path).With("exit_code", code)
	case <-t.C:
		return nil
	case <-ctx.Done():
		return errs.Wrap(errs.Cancelled, ctx.Err(), "opening %s was cancelled", path).With("path", path)
	}
}
