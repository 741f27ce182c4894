package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/strata-app/strata/backend/errs"
)

func TestCreateWriteDeleteReported(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "old.txt"), "before start")
	h := start(t, fast(), root)

	write(t, filepath.Join(root, "new.txt"), "hello")
	write(t, filepath.Join(root, "old.txt"), "edited")
	h.expect(root, "+new.txt", "+old.txt")
	must(t, os.Remove(filepath.Join(root, "new.txt")))
	h.expect(root, "-new.txt")
	for _, ev := range h.c.snapshot() {
		if ev.Root != root {
			t.Errorf("event %v has Root %q, want %q", ev, ev.Root, root)
		}
	}
	st := statusOf(t, h.w, root)
	if st.Mode != ModeNotify || st.Err != "" || st.Dirs != 1 || st.Files != 1 {
		t.Errorf("status = %+v", st)
	}
}

// A file created in a new directory before its watch exists is found by the scan; one created
// after the watch and before the scan is found once, not twice.
func TestNewDirectoryWatchedFirstThenScanned(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	opts := fast()
	opts.hooks = &testHooks{
		beforeWatch: func(dir string) {
			if filepath.Base(dir) == "new" {
				write(t, filepath.Join(dir, "before-watch.txt"), "x")
			}
		},
		afterWatch: func(dir string) {
			if filepath.Base(dir) == "new" {
				write(t, filepath.Join(dir, "after-watch.txt"), "x")
			}
		},
	}
	h := start(t, opts, root)

	mkdir(t, filepath.Join(root, "new"))
	// mkdir -p with files written straight away, faster than any watch can be added.
	deep := filepath.Join(root, "a", "b", "c")
	mkdir(t, deep)
	write(t, filepath.Join(deep, "deep.txt"), "x")
	write(t, filepath.Join(root, "a", "b", "mid.txt"), "x")

	h.expect(root, "+new/before-watch.txt", "+new/after-watch.txt", "+a/b/c/deep.txt", "+a/b/mid.txt")
	if st := statusOf(t, h.w, root); st.Dirs != 5 {
		t.Errorf("Dirs = %d, want 5 (root, new, a, a/b, a/b/c)", st.Dirs)
	}
}

func TestDebounceCoalescesWrites(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	opts := fast()
	opts.Debounce = 150 * time.Millisecond
	h := start(t, opts, root)

	p := filepath.Join(root, "log.txt")
	f, err := os.Create(p)
	must(t, err)
	for i := range 20 {
		_, err := fmt.Fprintf(f, "line %d\n", i)
		must(t, err)
		time.Sleep(10 * time.Millisecond)
	}
	must(t, f.Close())
	h.expect(root, "+log.txt")
}

// A copy that has been writing for a while and then pauses (a slow disk, a network hiccup)
// longer than Debounce+Settle is not taken for finished: the quiet period grows with the
// burst, so the file is reported once, complete. With the defaults' fixed 50 ms + 50 ms, the
// pause below had it reported half-written.
func TestPausingWriterIsNotReadHalfWritten(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	h := start(t, Options{}, root) // the defaults, on inotify

	p := filepath.Join(root, "copy.bin")
	f, err := os.Create(p)
	must(t, err)
	chunk := make([]byte, 4096)
	writeFor := func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); {
			_, err := f.Write(chunk)
			must(t, err)
			time.Sleep(5 * time.Millisecond) // far below Debounce, so a loaded machine's stalls do not look like a pause
		}
	}
	writeFor(time.Second)
	time.Sleep(120 * time.Millisecond) // the hiccup: longer than Debounce+Settle, shorter than a quarter of the burst
	if evs := h.c.snapshot(); len(evs) != 0 {
		t.Fatalf("reported during the pause, half-written:\n%s", dump(evs))
	}
	writeFor(200 * time.Millisecond)
	must(t, f.Close())
	final, err := os.Stat(p)
	must(t, err)
	h.waitFor(3*time.Second, "the copy", func(evs []Event) bool { return len(evs) >= 1 })
	info, err := os.Stat(p)
	must(t, err)
	if info.Size() != final.Size() {
		t.Fatalf("size %d when reported, want %d", info.Size(), final.Size())
	}
	h.expect(root, "+copy.bin")
}

// Settle: a file that keeps growing without the debounce noticing (polling sees it only every
// PollEvery) is reported once, after it stopped growing.
func TestSettleWaitsForStableSizeAndMtime(t *testing.T) {
	root := t.TempDir()
	opts := Options{ForcePolling: true, PollEvery: 20 * time.Millisecond, Debounce: 5 * time.Millisecond, Settle: 200 * time.Millisecond}
	h := start(t, opts, root)

	p := filepath.Join(root, "download.bin")
	f, err := os.Create(p)
	must(t, err)
	chunk := make([]byte, 4096)
	for range 12 {
		_, err := f.Write(chunk)
		must(t, err)
		time.Sleep(50 * time.Millisecond)
	}
	must(t, f.Close())
	final := int64(12 * len(chunk))
	h.waitFor(3*time.Second, "the download", func(evs []Event) bool { return len(evs) >= 1 })
	info, err := os.Stat(p)
	must(t, err)
	if info.Size() != final {
		t.Fatalf("size %d when reported, want %d", info.Size(), final)
	}
	h.expect(root, "+download.bin")
}

func TestChmodOnlyIsDropped(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := filepath.Join(root, "doc.txt")
	write(t, p, "content")
	h := start(t, fast(), root)

	must(t, os.Chmod(p, 0o600))
	must(t, os.Chmod(p, 0o644))
	if evs := h.quiet(settle); len(evs) != 0 {
		t.Fatalf("chmod produced events:\n%s", dump(evs))
	}
	// An mtime change is a change (touch, or a write that kept the size).
	later := time.Now().Add(time.Minute)
	must(t, os.Chtimes(p, later, later))
	h.expect(root, "+doc.txt")
}

// Editors that save by writing a temp file and renaming it over the target.
func TestSaveByRename(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	target := filepath.Join(root, "notes.md")
	write(t, target, "v1")
	h := start(t, fast(), root)

	// Atomic save (VS Code, gedit, most libraries): hidden temp, rename over.
	tmp := filepath.Join(root, ".notes.md.tmp.1234")
	write(t, tmp, "v2, longer")
	must(t, os.Rename(tmp, target))
	h.expect(root, "+notes.md")

	// A visible temp name (notes.md.tmp), same size as the target: the new inode tells.
	tmp = filepath.Join(root, "notes.md.tmp")
	write(t, tmp, "v3, longer")
	must(t, os.Rename(tmp, target))
	h.expect(root, "+notes.md")

	// vim (backupcopy=no): probe file 4913, rename the original to a backup, write anew, drop
	// the backup. The target never looks deleted.
	probe := filepath.Join(root, "4913")
	write(t, probe, "")
	must(t, os.Remove(probe))
	must(t, os.Rename(target, target+"~"))
	write(t, target, "v4")
	must(t, os.Remove(target+"~"))
	h.expect(root, "+notes.md")
}

func TestRenameFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	other := t.TempDir()
	write(t, filepath.Join(root, "a.txt"), "a")
	write(t, filepath.Join(root, "m.txt"), "m")
	mkdir(t, filepath.Join(root, "sub"))
	h := start(t, fast(), root, other)

	must(t, os.Rename(filepath.Join(root, "a.txt"), filepath.Join(root, "b.txt")))
	must(t, os.Rename(filepath.Join(root, "m.txt"), filepath.Join(root, "sub", "m.txt")))
	h.expect(root, "-a.txt", "+b.txt", "-m.txt", "+sub/m.txt")

	// Across roots: each root reports its half.
	must(t, os.Rename(filepath.Join(root, "b.txt"), filepath.Join(other, "b.txt")))
	base := filepath.Dir(root)
	evs := h.expect(base, "-"+filepath.Base(root)+"/b.txt", "+"+filepath.Base(other)+"/b.txt")
	for _, ev := range evs {
		if want := map[Op]string{Removed: root, Changed: other}[ev.Op]; ev.Root != want {
			t.Errorf("%v: Root %q, want %q", ev, ev.Root, want)
		}
	}
}

func TestRenameDirectory(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"d/x.txt", "d/y.txt", "d/sub/z.txt"} {
		write(t, filepath.Join(root, f), f)
	}
	h := start(t, fast(), root)

	must(t, os.Rename(filepath.Join(root, "d"), filepath.Join(root, "e")))
	h.expect(root, "-d/x.txt", "-d/y.txt", "-d/sub/z.txt", "+e/x.txt", "+e/y.txt", "+e/sub/z.txt")

	// The watches follow the new names: changes inside are reported at the new paths.
	write(t, filepath.Join(root, "e", "sub", "z.txt"), "edited after the move")
	write(t, filepath.Join(root, "e", "sub", "new.txt"), "new")
	h.expect(root, "+e/sub/z.txt", "+e/sub/new.txt")

	// And back again.
	must(t, os.Rename(filepath.Join(root, "e"), filepath.Join(root, "d")))
	write(t, filepath.Join(root, "d", "sub", "after.txt"), "x")
	h.expect(root, "-e/x.txt", "-e/y.txt", "-e/sub/z.txt", "-e/sub/new.txt",
		"+d/x.txt", "+d/y.txt", "+d/sub/z.txt", "+d/sub/new.txt", "+d/sub/after.txt")
}

func TestDeleteDirectoryReportsEachFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"d/1.txt", "d/2.txt", "d/deep/3.txt", "d/deep/er/4.txt", "keep.txt"} {
		write(t, filepath.Join(root, f), f)
	}
	write(t, filepath.Join(root, "d", ".hidden"), "never known")
	h := start(t, fast(), root)

	must(t, os.RemoveAll(filepath.Join(root, "d")))
	h.expect(root, "-d/1.txt", "-d/2.txt", "-d/deep/3.txt", "-d/deep/er/4.txt")
	if st := statusOf(t, h.w, root); st.Dirs != 1 || st.Files != 1 {
		t.Errorf("after delete: %+v", st)
	}
}

func TestIgnoredNeverReported(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	data := filepath.Join(root, "strata-data")
	mkdir(t, data)
	opts := fast()
	opts.Ignore = NewIgnorer(data)
	h := start(t, opts, root)

	for _, f := range []string{
		".git/config", ".git/objects/ab/cdef", "node_modules/pkg/index.js", "sub/node_modules/x.js",
		".hidden", ".hiddendir/file.txt", "notes.txt~", "draft.tmp", "draft.TMP", ".notes.txt.swp",
		"notes.swp", "notes.swo", "notes.swx", "#notes.txt#", "4913", "big.iso.part", "f.crdownload",
		".DS_Store", "Thumbs.db", "~$report.docx", "strata-data/strata.db", "strata-data/sub/x",
		"ok.txt", "sub/ok.md",
	} {
		write(t, filepath.Join(root, f), "x")
	}
	h.expect(root, "+ok.txt", "+sub/ok.md")
}

func TestStrataignoreCreatedAfterStartIsReloaded(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"a.log", "b.txt", "logs/c.txt", "sub/d.log"} {
		write(t, filepath.Join(root, f), f)
	}
	h := start(t, fast(), root)

	// Known files that become ignored are reported Removed; the rest stay quiet.
	write(t, filepath.Join(root, IgnoreFileName), "# comment\n*.log\nlogs/\n")
	h.expect(root, "-a.log", "-logs/c.txt", "-sub/d.log")

	// New files matching are never reported; a deeper file can re-include.
	write(t, filepath.Join(root, "new.log"), "x")
	write(t, filepath.Join(root, "logs", "e.txt"), "x")
	write(t, filepath.Join(root, "sub", IgnoreFileName), "!keep.log\n")
	write(t, filepath.Join(root, "sub", "keep.log"), "x")
	write(t, filepath.Join(root, "sub", "other.log"), "x")
	h.expect(root, "+sub/keep.log")

	// Deleting the rules brings everything back.
	must(t, os.Remove(filepath.Join(root, IgnoreFileName)))
	h.expect(root, "+a.log", "+new.log", "+logs/c.txt", "+logs/e.txt", "+sub/d.log", "+sub/other.log")
}

func TestForcePolling(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "old.txt"), "x")
	opts := fast()
	opts.ForcePolling = true
	h := start(t, opts, root)
	if st := statusOf(t, h.w, root); st.Mode != ModePolling {
		t.Fatalf("mode %q, want polling", st.Mode)
	}

	write(t, filepath.Join(root, "dir", "new.txt"), "x")
	write(t, filepath.Join(root, "old.txt"), "changed")
	must(t, os.Rename(filepath.Join(root, "old.txt"), filepath.Join(root, "moved.txt")))
	write(t, filepath.Join(root, "skip.tmp"), "x")
	h.expect(root, "+dir/new.txt", "-old.txt", "+moved.txt")

	must(t, os.RemoveAll(filepath.Join(root, "dir")))
	h.expect(root, "-dir/new.txt")
}

// The watch limit hit while setting up: the root is polled, Status says so, and the log names
// the sysctl to raise.
func TestWatchLimitAtStartFallsBackToPolling(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := range 5 {
		write(t, filepath.Join(root, fmt.Sprintf("d%d", i), "f.txt"), "x")
	}
	opts := fast()
	var calls atomic.Int32
	opts.hooks = &testHooks{addWatch: func(fw *fsnotify.Watcher, dir string) error {
		if calls.Add(1) > 3 {
			return syscall.ENOSPC
		}
		return fw.Add(dir)
	}}
	h := start(t, opts, root)

	st := statusOf(t, h.w, root)
	if st.Mode != ModePolling || !strings.Contains(st.Err, "fs.inotify.max_user_watches") || st.Dirs != 6 || st.Files != 5 {
		t.Errorf("status = %+v", st)
	}
	if log := h.logs.String(); !strings.Contains(log, "sudo sysctl fs.inotify.max_user_watches=524288") {
		t.Errorf("log does not name the sysctl:\n%s", log)
	}
	write(t, filepath.Join(root, "d4", "new.txt"), "x")
	must(t, os.Remove(filepath.Join(root, "d0", "f.txt")))
	h.expect(root, "+d4/new.txt", "-d0/f.txt")
}

// The watch limit hit by a directory created while running: the root switches to polling and
// the files of that directory are still reported.
func TestWatchLimitAtRuntimeFallsBackToPolling(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	opts := fast()
	opts.hooks = &testHooks{addWatch: func(fw *fsnotify.Watcher, dir string) error {
		if filepath.Base(dir) == "big" {
			return fmt.Errorf("inotify_add_watch: %w", syscall.ENOSPC)
		}
		return fw.Add(dir)
	}}
	h := start(t, opts, root)

	write(t, filepath.Join(root, "big", "a.txt"), "x")
	write(t, filepath.Join(root, "big", "inner", "b.txt"), "x")
	write(t, filepath.Join(root, "top.txt"), "x")
	h.expect(root, "+big/a.txt", "+big/inner/b.txt", "+top.txt")
	if st := statusOf(t, h.w, root); st.Mode != ModePolling || !strings.Contains(st.Err, "max_user_watches") {
		t.Errorf("status = %+v", st)
	}
	if !strings.Contains(h.logs.String(), "sudo sysctl fs.inotify.max_user_watches=524288") {
		t.Errorf("log does not name the sysctl:\n%s", h.logs.String())
	}
}

func TestInstanceLimitFallsBackToPolling(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	opts := fast()
	opts.hooks = &testHooks{newNotify: func() (*fsnotify.Watcher, error) {
		return nil, fmt.Errorf("couldn't initialize inotify: %w", syscall.EMFILE)
	}}
	h := start(t, opts, root)
	if st := statusOf(t, h.w, root); st.Mode != ModePolling || !strings.Contains(st.Err, "max_user_instances") {
		t.Errorf("status = %+v", st)
	}
	if !strings.Contains(h.logs.String(), "sudo sysctl fs.inotify.max_user_instances=") {
		t.Errorf("log does not name the sysctl:\n%s", h.logs.String())
	}
	write(t, filepath.Join(root, "a.txt"), "x")
	h.expect(root, "+a.txt")
}

// Other errors are not papered over by polling.
func TestAddFailsOnOtherNotifyErrors(t *testing.T) {
	t.Parallel()
	opts := fast()
	boom := errors.New("boom")
	opts.hooks = &testHooks{addWatch: func(*fsnotify.Watcher, string) error { return boom }}
	w, err := New(opts)
	must(t, err)
	defer w.Close()
	if err := w.Add(t.TempDir()); !errors.Is(err, boom) {
		t.Fatalf("Add = %v, want boom", err)
	}
	if len(w.Roots()) != 0 {
		t.Errorf("failed root kept: %v", w.Roots())
	}
}

func TestRootDeletedAndRecreated(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	root := filepath.Join(parent, "root")
	write(t, filepath.Join(root, "a.txt"), "x")
	write(t, filepath.Join(root, "sub", "b.txt"), "x")
	h := start(t, fast(), root)

	must(t, os.RemoveAll(root))
	h.expect(root, "-a.txt", "-sub/b.txt")
	if st := statusOf(t, h.w, root); st.Mode != ModePolling || st.Err == "" {
		t.Errorf("status after delete = %+v", st)
	}

	write(t, filepath.Join(root, "c.txt"), "x")
	h.expect(root, "+c.txt")
	if st := statusOf(t, h.w, root); st.Mode != ModeNotify || st.Err != "" {
		t.Errorf("status after return = %+v", st)
	}
	write(t, filepath.Join(root, "d.txt"), "x")
	h.expect(root, "+d.txt")
}

func TestAddValidates(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	data := filepath.Join(base, "data")
	mkdir(t, filepath.Join(base, "a", "b"))
	mkdir(t, data)
	write(t, filepath.Join(base, "file.txt"), "x")
	w, err := New(Options{Ignore: NewIgnorer(data)})
	must(t, err)
	must(t, w.Add(filepath.Join(base, "a")))

	for _, tc := range []struct{ dir, want string }{
		{filepath.Join(base, "missing"), "cannot watch"},
		{filepath.Join(base, "file.txt"), "not a folder"},
		{filepath.Join(base, "a"), "already watched"},
		{filepath.Join(base, "a", "b"), "inside the watched folder"},
		{base, "contains the watched folder"},
		{filepath.Join(data, "x", ".."), "data folder"},
	} {
		err := w.Add(tc.dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errs.CodeOf(err) != errs.Validation {
			t.Errorf("Add(%s) = %v, want %s (VALIDATION_ERROR)", tc.dir, err, tc.want)
		}
	}
	if got := w.Roots(); len(got) != 1 || got[0] != filepath.Join(base, "a") {
		t.Errorf("Roots = %v", got)
	}
	if err := w.Remove(base); errs.CodeOf(err) != errs.Validation {
		t.Errorf("Remove(unwatched) = %v", err)
	}
	must(t, w.Close())
	if err := w.Add(filepath.Join(base, "a")); !errors.Is(err, ErrClosed) {
		t.Errorf("Add after Close = %v, want ErrClosed", err)
	}
	if _, ok := <-w.Events(); ok {
		t.Error("Events not closed by Close")
	}
}

// Every goroutine has an owner: after Run returns nothing is left, and Remove stops its root's
// goroutines at once.
func TestNoGoroutineLeaks(t *testing.T) {
	waitGoroutines := func(want int) int {
		var n int
		for range 200 {
			runtime.GC()
			if n = runtime.NumGoroutine(); n <= want {
				return n
			}
			time.Sleep(10 * time.Millisecond)
		}
		return n
	}
	before := waitGoroutines(runtime.NumGoroutine())

	roots := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	opts := fast()
	w, err := New(opts)
	must(t, err)
	for _, r := range roots[:2] {
		must(t, w.Add(r))
	}
	// A polling watcher alongside: its ticker and loop must go too.
	wp, err := New(Options{ForcePolling: true, PollEvery: 10 * time.Millisecond})
	must(t, err)
	must(t, wp.Add(t.TempDir()))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	go func() { done <- w.Run(ctx) }()
	go func() { done <- wp.Run(ctx) }()
	drained := make(chan int, 2)
	for _, x := range []*Watcher{w, wp} {
		go func() {
			n := 0
			for range x.Events() {
				n++
			}
			drained <- n
		}()
	}
	must(t, w.Add(roots[2])) // while running
	for i, r := range roots {
		write(t, filepath.Join(r, "sub", fmt.Sprintf("%d.txt", i)), "x")
	}
	time.Sleep(50 * time.Millisecond)
	// Remove one root while its files are pending.
	mid := runtime.NumGoroutine()
	must(t, w.Remove(roots[1]))
	if n := waitGoroutines(mid - 2); n > mid-2 {
		t.Errorf("Remove left goroutines: %d before, %d after (want 2 fewer: loop and fsnotify reader)", mid, n)
	}
	cancel()
	for range 2 {
		select {
		case err := <-done:
			must(t, err)
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not return")
		}
		<-drained
	}
	if after := waitGoroutines(before); after > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("goroutines: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
	if err := w.Run(context.Background()); err == nil {
		t.Error("second Run succeeded")
	}
}

// A folder that cannot be watched for another reason (permissions) is left out with a
// warning; the rest of the root is watched as usual.
func TestUnwatchableFolderIsLeftOut(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "locked", "secret.txt"), "x")
	opts := fast()
	opts.hooks = &testHooks{addWatch: func(fw *fsnotify.Watcher, dir string) error {
		if filepath.Base(dir) == "locked" {
			return fmt.Errorf("inotify_add_watch: %w", syscall.EACCES)
		}
		return fw.Add(dir)
	}}
	h := start(t, opts, root)
	if st := statusOf(t, h.w, root); st.Mode != ModeNotify || st.Files != 0 {
		t.Errorf("status = %+v", st)
	}
	if log := h.logs.String(); !strings.Contains(log, "cannot watch this folder") || !strings.Contains(log, "locked") {
		t.Errorf("no warning naming the folder:\n%s", log)
	}
	write(t, filepath.Join(root, "open.txt"), "x")
	h.expect(root, "+open.txt")
}
