package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/errs"
)

// A real process stands in for xdg-open: the exit status is the behaviour under test.
func TestRunOpenerReportsANonZeroExit(t *testing.T) {
	err := runOpener(context.Background(), 5*time.Second, "sh", "-c", "echo 'no application for this type' >&2; exit 3", "sh", "/tmp/x.pdf")
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.OpenFailed {
		t.Fatalf("err = %v, want OPEN_FAILED", err)
	}
	if e.Details["exit_code"] != 3 || e.Details["path"] != "/tmp/x.pdf" || e.Details[errs.CauseKey] != "no application for this type" {
		t.Fatalf("details = %v", e.Details)
	}
}

func TestRunOpenerSucceedsOnExitZeroAndOnAHandOver(t *testing.T) {
	if err := runOpener(context.Background(), 5*time.Second, "true"); err != nil {
		t.Fatalf("exit 0: %v", err)
	}
	start := time.Now()
	if err := runOpener(context.Background(), 100*time.Millisecond, "sleep", "1"); err != nil {
		t.Fatalf("still running after the wait: %v", err)
	}
	if time.Since(start) > 900*time.Millisecond {
		t.Fatal("runOpener waited for the application instead of the hand-over")
	}
}

func TestRunOpenerReportsAMissingOpener(t *testing.T) {
	err := runOpener(context.Background(), time.Second, "/nonexistent/xdg-open", "/tmp/x.pdf")
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.OpenFailed {
		t.Fatalf("err = %v, want OPEN_FAILED", err)
	}
}
