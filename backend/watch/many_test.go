package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const manyFiles = 5000

// oldDirs makes the ten directories that exist (and are watched) before the files land.
func oldDirs(t *testing.T, root string) {
	for i := range 10 {
		mkdir(t, filepath.Join(root, fmt.Sprintf("old%d", i)))
	}
}

// landFiles creates n files in a tight loop: most in directories that exist, every tenth in
// one of 50 directories created on the way (some nested), the way an unzip or a sync lands.
// Then chmodPasses times over all files it flips their mode, which makes one more kernel event
// per file each pass (inotify merges repeated identical events, so passes, not repeats).
func landFiles(t *testing.T, root string, n, chmodPasses int) []string {
	t.Helper()
	paths := make([]string, 0, n)
	for i := range n {
		var dir string
		switch {
		case i%10 == 0:
			k := (i / 10) % 50
			dir = filepath.Join(root, fmt.Sprintf("new%d", k))
			if k%5 == 0 {
				dir = filepath.Join(dir, "deeper", "still")
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			dir = filepath.Join(root, fmt.Sprintf("old%d", i%10))
		}
		p := filepath.Join(dir, "f"+strconv.Itoa(i)+".txt")
		if err := os.WriteFile(p, []byte("file "+strconv.Itoa(i)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for pass := range chmodPasses {
		for _, p := range paths {
			if err := os.Chmod(p, os.FileMode(0o600+pass%2*0o44)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return paths
}

// checkOnce checks that every path in want got Changed exactly once (or at least once, when
// dupsOK), every path in extra got its op once, and nothing else was reported. It returns how
// many paths were reported more than once.
func checkOnce(t *testing.T, evs []Event, want []string, extra map[string]Op, dupsOK bool) int {
	t.Helper()
	count := map[string]int{}
	for _, ev := range evs {
		if op, ok := extra[ev.Path]; ok && op == ev.Op {
			count[ev.Path]++
			continue
		}
		if ev.Op != Changed {
			t.Errorf("unexpected %v", ev)
			continue
		}
		count[ev.Path]++
	}
	missing, dup := 0, 0
	for _, p := range want {
		switch count[p] {
		case 0:
			missing++
		case 1:
		default:
			dup++
		}
		delete(count, p)
	}
	for p := range extra {
		if count[p] != 1 {
			t.Errorf("%s: %d events, want 1 %v", p, count[p], extra[p])
		}
		delete(count, p)
	}
	if missing > 0 || (dup > 0 && !dupsOK) || len(count) > 0 {
		t.Fatalf("%d missing, %d reported more than once, %d unexpected paths (e.g. %v)", missing, dup, len(count), firstKey(count))
	}
	return dup
}

func firstKey(m map[string]int) string {
	for k := range m {
		return k
	}
	return ""
}

// 5,000 files landing at once with the default timings: each reported exactly once.
func TestFiveThousandFilesLandingAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	root := t.TempDir()
	oldDirs(t, root)
	h := start(t, Options{}, root) // defaults: 250ms debounce, 100ms settle

	began := time.Now()
	paths := landFiles(t, root, manyFiles, 0)
	written := time.Since(began)
	h.waitFor(20*time.Second, "5,000 Changed", func(evs []Event) bool { return len(evs) >= manyFiles })
	all := time.Since(began)
	evs := h.quiet(time.Second)
	checkOnce(t, evs, paths, nil, false)
	st := statusOf(t, h.w, root)
	t.Logf("5,000 files: written in %v, all reported after %v; overflows %d; %+v", written.Round(time.Millisecond), all.Round(time.Millisecond), st.Overflows, st)
	if st.Files != manyFiles || st.Dirs != 1+10+50+20 || st.Mode != ModeNotify {
		t.Errorf("status = %+v", st)
	}
}

// The same with the root's loop held back so that the kernel queue overflows for real: the
// rescan must find every new file, report each once, and report known files that vanished.
func TestFiveThousandFilesWithOverflow(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	queued := 16384
	if b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			queued = n
		}
	}
	// fsnotify holds up to 4096 events in its read buffer on top of the kernel queue; each
	// file makes IN_CREATE and IN_MODIFY, and one IN_ATTRIB per chmod pass.
	passes := (queued+4096)/manyFiles + 1
	if passes > 40 {
		t.Skipf("max_queued_events is %d; too many events needed to overflow it", queued)
	}

	root := t.TempDir()
	oldDirs(t, root)
	var before []string
	for i := range 40 {
		p := filepath.Join(root, "pre", fmt.Sprintf("p%d.txt", i))
		write(t, p, "pre-existing")
		before = append(before, p)
	}
	stall := make(chan struct{})
	opts := Options{} // the defaults
	opts.hooks = &testHooks{stall: stall}
	h := start(t, opts, root)

	gone := map[string]Op{}
	for _, p := range before[:10] {
		must(t, os.Remove(p))
		gone[p] = Removed
	}
	began := time.Now()
	paths := landFiles(t, root, manyFiles, passes)
	written := time.Since(began)
	close(stall)

	// After an overflow every file is reported (the engine dedups by hash): the 5,000 new
	// ones and the 30 pre-existing ones still there, and the 10 deleted as Removed. Files
	// whose quiet period ended before the overflow was read (on a slow machine, or under
	// -race) are reported a second time by the rescan; usually there are none.
	want := append(paths, before[10:]...)
	h.waitFor(20*time.Second, "every file", func(evs []Event) bool { return len(evs) >= len(want)+len(gone) })
	all := time.Since(began)
	evs := h.quiet(time.Second)
	dups := checkOnce(t, evs, want, gone, true)
	st := statusOf(t, h.w, root)
	t.Logf("5,000 files + %d chmod passes: written in %v, all reported after %v; %d reported twice; %+v", passes, written.Round(time.Millisecond), all.Round(time.Millisecond), dups, st)
	if st.Overflows == 0 {
		t.Fatalf("the kernel queue did not overflow; the test proves nothing")
	}
	if st.Mode != ModeNotify {
		t.Errorf("status = %+v", st)
	}

	// Still watching properly afterwards.
	n := len(evs)
	write(t, filepath.Join(root, "new7", "after.txt"), "x")
	evs = h.quiet(500 * time.Millisecond)[n:]
	expectExactly(t, root, evs, "+new7/after.txt")
}
