package engine_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/storage"
)

// smallDisk mounts a tmpfs of size bytes for the data folder: a real file system that really
// runs out of space. It needs root (Strata's CI and this machine run tests as root); elsewhere
// the test is skipped, and scripts/diskfault.sh covers the same ground with strace.
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0700", size)); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// fill writes a file that leaves about leave bytes free on dir's file system.
func fill(t *testing.T, dir string, leave uint64) string {
	t.Helper()
	free, ok := storage.FreeBytes(dir)
	if !ok {
		t.Fatal("free space unknown")
	}
	path := filepath.Join(dir, "filler")
	if free > leave {
		if err := os.WriteFile(path, make([]byte, free-leave), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func integrityOK(t *testing.T, db string) {
	t.Helper()
	h, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var res string
	if err := h.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q %v", res, err)
	}
}

// On a disk that really fills up, a waited ingest ends with DISK_FULL (free space and the data
// folder in the hint) instead of looping, Status shows the disk full, the store stays intact,
// and once space returns the paused jobs finish by themselves, with no document failed.
func TestDiskFullEndsTheWaitAndJobsResume(t *testing.T) {
	data := smallDisk(t, 64<<20)
	docs := t.TempDir()
	var paths []string
	for i := range 200 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Field notes %d\n\n", i)
		for j := range 120 {
			fmt.Fprintf(&b, "Observation %d.%d: the heron number %d waded past reed bed %d at dawn.\n", i, j, i*1000+j, j*7+i)
		}
		p := filepath.Join(docs, fmt.Sprintf("notes-%03d.md", i))
		if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	cfg := config(data, func(c *engine.Config) { c.JobLease = 2 * time.Second })
	e, err := engine.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if e != nil {
			e.Close()
		}
	}()
	filler := fill(t, data, 600<<10)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	_, err = e.IngestFiles(ctx, local, paths, true, nil)
	var ee *errs.Error
	if !errors.As(err, &ee) || ee.Code != errs.DiskFull {
		t.Fatalf("ingest --wait on a full disk: %v, want DISK_FULL", err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Fatalf("DISK_FULL took %s", took)
	}
	hint := ee.HintOrDefault()
	if !strings.Contains(hint, "free on "+data) || !strings.Contains(hint, data) || !strings.Contains(hint, "--data") {
		t.Fatalf("hint %q: want the free space on the data folder's disk and --data", hint)
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Storage.State != storage.StateFull || st.Storage.Error == nil || st.Storage.Error.Code != errs.DiskFull || st.Storage.DataDir != data {
		t.Fatalf("status storage %+v, want full", st.Storage)
	}
	integrityOK(t, filepath.Join(data, "strata.db"))

	// Space returns: the workers, left running, claim again after their backoff and finish.
	run, stopRun := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- e.RunWorkers(run) }()
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	for {
		st, err := e.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Storage.State == storage.StateOK && st.Jobs["queued"] == 0 && st.Jobs["running"] == 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("jobs did not resume after space returned: %+v %v", st.Storage, st.Jobs)
		case <-time.After(200 * time.Millisecond):
		}
	}
	stopRun()
	<-done
	// Files that could not even be registered while the disk was full are registered now.
	res, err := e.IngestFiles(ctx, local, paths, true, nil)
	if err != nil {
		t.Fatalf("ingest after space returned: %v", err)
	}
	for _, d := range res.Documents {
		if d.Status != "analyzed" {
			t.Fatalf("%s is %s (%v) after space returned", d.Path, d.Status, d.Error)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	e = nil
	integrityOK(t, filepath.Join(data, "strata.db"))
}
