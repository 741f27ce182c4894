package main

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strata-app/strata/internal/testenv"
)

// TestDesktopWindowUnderXvfb launches the real desktop binary on a virtual display, checks
// that a window titled "Strata" rendered (not blank), types a query with xdotool and sees the
// window ask the engine and get results (the App logs each search at debug level) and the
// picture change. Screenshots are kept in test-artifacts/.
func TestDesktopWindowUnderXvfb(t *testing.T) {
	bin := desktopBinary(t)
	tmp := t.TempDir()
	art := artifactsDir(t)

	// A document to find.
	data := filepath.Join(tmp, "data")
	doc := filepath.Join(tmp, "herons.md")
	os.WriteFile(doc, []byte("# Heron survey\n\nThe grey heron colony by the river rose to 42 nests.\n"), 0o644)
	env := desktopEnv(tmp)
	ing := exec.Command(bin, "--data", data, "ingest", "--wait", doc)
	ing.Env = env
	if out, err := ing.CombinedOutput(); err != nil {
		t.Fatalf("ingest: %v\n%s", err, out)
	}

	w := openWindow(t, bin, data, env)
	first := w.screenshot(filepath.Join(art, "desktop-1-window.png"))
	if n := colours(first); n < 30 {
		t.Fatalf("the window looks blank (%d colours); output:\n%s", n, w.logs.String())
	}

	w.key("slash")
	time.Sleep(500 * time.Millisecond)
	w.x("type", "--delay", "60", "heron colony")
	w.waitLog(regexp.MustCompile(`msg=search query="?heron colony"? mode=\w+ results=[1-9]`), "typing in the window did not search with results",
		filepath.Join(art, "desktop-2-no-results.png"))
	time.Sleep(800 * time.Millisecond)
	second := w.screenshot(filepath.Join(art, "desktop-2-search.png"))
	if diff := changed(first, second); diff < 0.01 {
		t.Fatalf("the window did not change after the search (%.3f of pixels)", diff)
	}
}

// desktopBinary builds the real desktop binary once per test run (the window tests share it).
// It needs what `make test` installs: a C compiler, GTK 3 and WebKitGTK 4.1 headers, Xvfb,
// xdotool and ImageMagick.
func desktopBinary(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"Xvfb", "xdotool", "import", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing: run `make test`, which installs the desktop test's packages", tool)
		}
	}
	desktopOnce.Do(func() {
		dir, err := os.MkdirTemp("", "strata-desktop-")
		if err != nil {
			desktopErr = err
			return
		}
		desktopBin = filepath.Join(dir, "strata-desktop")
		build := exec.Command("go", "build", "-tags", "desktop,production,webkit2_41", "-o", desktopBin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := build.CombinedOutput(); err != nil {
			desktopErr = fmt.Errorf("desktop build: %v\n%s", err, out)
		}
	})
	if desktopErr != nil {
		t.Fatal(desktopErr)
	}
	t.Log("desktop binary built")
	return desktopBin
}

var (
	desktopOnce sync.Once
	desktopBin  string
	desktopErr  error
)

// artifactsDir is test-artifacts/, where the window tests keep their screenshots.
func artifactsDir(t *testing.T) string {
	art, err := filepath.Abs("test-artifacts")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(art, 0o755)
	return art
}

// desktopEnv is a hermetic environment for the window and its CLI calls: a home of its own,
// no data folder from the developer, debug logs (which the tests read), WebKit without GPU.
func desktopEnv(tmp string, extra ...string) []string {
	return testenv.Environ(append([]string{"HOME=" + filepath.Join(tmp, "home"), "XDG_DATA_HOME=", "XDG_CACHE_HOME=", "STRATA_HOME=",
		"WEBKIT_DISABLE_COMPOSITING_MODE=1", "WEBKIT_DISABLE_DMABUF_RENDERER=1", "STRATA_LOG=debug"}, extra...)...)
}

// window is the desktop app running on its own virtual display, with its output.
type window struct {
	t       *testing.T
	env     []string
	display string
	id      string // the X window titled Strata
	logs    *testenv.LogBuffer
	pid     int
	done    chan struct{} // closed when the process has exited
	exit    error         // its exit status, once done is closed
}

// openWindow starts the app on data on a new virtual display, with args after --data, and
// waits until its window is there and rendered; it is stopped (SIGTERM, then killed after
// 10 s) when the test ends, unless it has exited by then. With --hidden the window is only
// found, not focused (it is not mapped).
func openWindow(t *testing.T, bin, data string, env []string, args ...string) *window {
	t.Helper()
	display := startXvfb(t)
	env = append(env, "DISPLAY="+display)
	ctx, cancel := context.WithCancel(context.Background())
	app := exec.CommandContext(ctx, bin, append([]string{"--data", data}, args...)...)
	app.Env = env
	w := &window{t: t, env: env, display: display, logs: &testenv.LogBuffer{}, done: make(chan struct{})}
	app.Stderr, app.Stdout = w.logs, w.logs
	if err := app.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	w.pid = app.Process.Pid
	go func() { w.exit = app.Wait(); close(w.done) }()
	t.Cleanup(func() {
		defer cancel()
		select {
		case <-w.done:
			return
		default:
		}
		// SIGTERM closes the window cleanly; a window that hangs is killed after 10 s.
		app.Process.Signal(syscall.SIGTERM)
		select {
		case <-w.done:
		case <-time.After(10 * time.Second):
			app.Process.Kill()
			<-w.done
			t.Error("the desktop app did not stop on SIGTERM within 10 s")
		}
	})
	t.Logf("desktop app started on %s", display)
	for deadline := time.Now().Add(30 * time.Second); w.id == ""; {
		if time.Now().After(deadline) {
			t.Fatalf("no window titled Strata; output:\n%s", w.logs.String())
		}
		time.Sleep(200 * time.Millisecond)
		if ids := strings.Fields(w.x("search", "--name", "^Strata$")); len(ids) > 0 {
			w.id = ids[0]
		}
	}
	time.Sleep(3 * time.Second) // let the page render
	if slices.Contains(args, "--hidden") {
		return w
	}
	// Xvfb has no window manager: focus the window and send real (XTEST) input to it; GTK
	// ignores synthetic events sent with --window.
	w.x("windowfocus", "--sync", w.id)
	w.click(700, 700)
	return w
}

// x runs xdotool on the window's display and returns what it printed.
func (w *window) x(args ...string) string {
	c := exec.Command("xdotool", args...)
	c.Env = w.env
	out, _ := c.Output()
	return strings.TrimSpace(string(out))
}

// key presses keys ("slash", "ctrl+Return").
func (w *window) key(keys ...string) { w.x(append([]string{"key"}, keys...)...) }

// click clicks at x, y inside the window.
func (w *window) click(x, y int) {
	w.x("mousemove", "--window", w.id, fmt.Sprint(x), fmt.Sprint(y), "click", "1")
}

func (w *window) screenshot(path string) image.Image { return screenshot(w.t, w.env, path) }

// waitLog waits up to 15 s for the app's output to match re; on time-out it keeps a screenshot
// at shot and fails with why.
func (w *window) waitLog(re *regexp.Regexp, why, shot string) {
	w.t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !re.MatchString(w.logs.String()); {
		if time.Now().After(deadline) {
			w.screenshot(shot)
			w.t.Fatalf("%s; output:\n%s", why, w.logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// startXvfb starts a virtual display and stops it at the end of the test. Xvfb picks a free
// display number itself (-displayfd): it skips displays in use and takes over the lock files
// that a killed server left behind, which a scan of /tmp/.X*-lock cannot tell apart (fifty of
// them once made every window test fail with "no free display"). It is stopped with SIGTERM, so
// it removes its own lock and socket.
func startXvfb(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	err = cmd.Start()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if _, err := strconv.Atoi(n); err != nil {
			t.Fatalf("Xvfb did not start (it wrote %q for its display)", n)
		}
		return ":" + n
	case <-time.After(10 * time.Second):
		t.Fatal("Xvfb did not start within 10 s")
	}
	return ""
}

func screenshot(t *testing.T, env []string, path string) image.Image {
	t.Helper()
	c := exec.Command("import", "-window", "root", path)
	c.Env = env
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("screenshot: %v %s", err, out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// colours counts distinct colours (a blank or single-colour window has very few).
func colours(img image.Image) int {
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[(r>>8)<<16|(g>>8)<<8|bl>>8] = true
		}
	}
	return len(seen)
}

// changed is the fraction of pixels that differ between two screenshots.
func changed(a, b image.Image) float64 {
	bd := a.Bounds()
	var diff, total int
	for y := bd.Min.Y; y < bd.Max.Y; y += 2 {
		for x := bd.Min.X; x < bd.Max.X; x += 2 {
			total++
			if a.At(x, y) != b.At(x, y) {
				diff++
			}
		}
	}
	return float64(diff) / float64(total)
}
