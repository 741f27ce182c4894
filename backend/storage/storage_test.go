package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/strata-app/strata/backend/errs"
)

// A real SQLite database that runs out of room (max_page_count is SQLite's own size limit,
// answered with SQLITE_FULL exactly as a full disk is) classifies as Full, through the
// wrapping Strata adds; other errors do not.
func TestClassifySQLiteFull(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "t.db")+"?_pragma=max_page_count(8)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "CREATE TABLE t(x BLOB)"); err != nil {
		t.Fatal(err)
	}
	var full error
	for i := 0; i < 100 && full == nil; i++ {
		_, full = db.ExecContext(ctx, "INSERT INTO t VALUES (randomblob(4000))")
	}
	if full == nil {
		t.Fatal("the database never filled up")
	}
	wrapped := fmt.Errorf("commit: %w", full)
	if k := Classify(wrapped); k != Full {
		t.Fatalf("Classify(%v) = %v, want Full", wrapped, k)
	}
	if k := Classify(errs.Wrap(errs.DBInsertFailed, wrapped, "could not store it")); k != Full {
		t.Fatalf("an envelope around SQLITE_FULL: %v, want Full", k)
	}
	_, err = db.ExecContext(ctx, "SELECT * FROM missing")
	if k := Classify(err); k != None {
		t.Fatalf("a missing table classified as %v", k)
	}
	if Classify(nil) != None || Classify(errors.New("file is damaged")) != None {
		t.Fatal("ordinary errors classified as storage faults")
	}
}

// Errors from file writes: ENOSPC and EDQUOT are Full, EIO is IO, through *os.PathError.
func TestClassifyErrno(t *testing.T) {
	for _, c := range []struct {
		err  error
		want Kind
	}{
		{&os.PathError{Op: "write", Path: "/x", Err: syscall.ENOSPC}, Full},
		{&os.PathError{Op: "sync", Path: "/x", Err: syscall.EIO}, IO},
		{&os.PathError{Op: "open", Path: "/x", Err: syscall.ENOENT}, None},
	} {
		if got := Classify(c.err); got != c.want {
			t.Errorf("Classify(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// The monitor logs one error per condition, however many writes fail; a success ends a full
// disk but not an I/O failure; the envelope's hint names the free space and the data folder.
func TestMonitorLogsOnceAndRecovers(t *testing.T) {
	dir := t.TempDir()
	var log strings.Builder
	m := NewMonitor(dir, slog.New(slog.NewTextHandler(&log, nil)), nil)
	full := &os.PathError{Op: "write", Path: dir, Err: syscall.ENOSPC}
	var first *errs.Error
	for range 20 {
		first = m.Observe(full)
	}
	if first == nil || first.Code != errs.DiskFull {
		t.Fatalf("Observe(ENOSPC) = %v", first)
	}
	if n := strings.Count(log.String(), "level=ERROR"); n != 1 {
		t.Fatalf("%d error lines for 20 failed writes:\n%s", n, log.String())
	}
	st := m.Status()
	if st.State != StateFull || st.DataDir != dir || st.Error == nil || st.Since == "" {
		t.Fatalf("status %+v", st)
	}
	hint := first.HintOrDefault()
	if _, ok := FreeBytes(dir); ok && (!strings.Contains(hint, " free on ") || !strings.Contains(hint, "B free")) {
		t.Fatalf("hint %q does not give the free space", hint)
	}
	if !strings.Contains(hint, dir) || !strings.Contains(hint, "--data") {
		t.Fatalf("hint %q does not name the data folder and --data", hint)
	}
	m.OK()
	if st := m.Status(); st.State != StateOK || st.Error != nil {
		t.Fatalf("after a successful write: %+v", st)
	}
	if ee := m.Observe(&os.PathError{Op: "sync", Path: dir, Err: syscall.EIO}); ee == nil || ee.Code != errs.StorageFailed {
		t.Fatalf("EIO: %v", ee)
	}
	m.OK()
	if st := m.Status(); st.State != StateFailing {
		t.Fatalf("one success cleared an I/O failure: %+v", st)
	}
	if m.Observe(errors.New("not the disk")) != nil {
		t.Fatal("an ordinary error was taken for the disk's")
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[uint64]string{0: "0 B", 999: "999 B", 1200000: "1.2 MB", 78_800_000_000: "78.8 GB"} {
		if got := HumanBytes(n); got != want {
			t.Errorf("HumanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
