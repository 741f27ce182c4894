package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/strata-app/strata/backend/httpapi"
)

// TestDesktopKeepsRunningInTheBackground, with the real window under Xvfb, without a D-Bus
// session bus and with one: closing the window the way a window manager does (WM_DELETE_WINDOW)
// hides it while the same process goes on — an MCP client still searches over HTTP with the
// token, and a file written into a watched folder meanwhile is read and found; launching
// Strata again exits 0 saying so, and the same window of the same process is mapped again;
// Quit in the window's menu stops the process (exit 0) and removes the endpoint file.
// Screenshots in test-artifacts/desktop-5-* (no D-Bus) and desktop-6-* (D-Bus).
func TestDesktopKeepsRunningInTheBackground(t *testing.T) {
	bin := desktopBinary(t)
	for _, c := range []struct {
		name, shots string
		bus         bool
	}{{"no D-Bus", "desktop-5", false}, {"D-Bus", "desktop-6", true}} {
		t.Run(c.name, func(t *testing.T) { backgroundScenario(t, bin, c.shots, c.bus) })
	}
}

func backgroundScenario(t *testing.T, bin, shots string, bus bool) {
	tmp := t.TempDir()
	art := artifactsDir(t)
	data := filepath.Join(tmp, "data")
	notes := filepath.Join(tmp, "notes")
	os.MkdirAll(notes, 0o755)
	os.WriteFile(filepath.Join(notes, "herons.md"), []byte("# Heron survey\n\nThe grey heron colony by the river rose to 42 nests.\n"), 0o644)
	// No session bus, and none to discover: godbus also looks in $XDG_RUNTIME_DIR/bus.
	extra := []string{"DBUS_SESSION_BUS_ADDRESS=", "XDG_RUNTIME_DIR=" + filepath.Join(tmp, "run")}
	if bus {
		extra[0] = "DBUS_SESSION_BUS_ADDRESS=" + sessionBus(t)
	}
	env := desktopEnv(tmp, extra...)
	watch := exec.Command(bin, "--data", data, "watch", "add", notes)
	watch.Env = env
	if out, err := watch.CombinedOutput(); err != nil {
		t.Fatalf("watch add: %v\n%s", err, out)
	}

	w := openWindow(t, bin, data, env, "--mcp-addr", "127.0.0.1:0")
	first := w.screenshot(filepath.Join(art, shots+"-1-open.png"))
	mcpc := mcpClient(t, data)
	if n := waitSearch(t, mcpc, "heron colony"); n == 0 {
		t.Fatalf("the window's MCP endpoint found nothing for a watched file; output:\n%s", w.logs.String())
	}

	wmDelete(t, w.display, w.id)
	w.waitLog(regexp.MustCompile(`msg="window closed: Strata keeps running in the background`), "closing the window did not say Strata keeps running",
		filepath.Join(art, shots+"-no-hide.png"))
	waitUntil(t, "the window to be unmapped", func() bool { return !w.visible() })
	select {
	case <-w.done:
		t.Fatalf("the process exited when its window was closed: %v\n%s", w.exit, w.logs.String())
	default:
	}
	w.screenshot(filepath.Join(art, shots+"-2-closed.png"))

	// While the window is closed: the endpoint answers, and the watcher and the job workers go
	// on (a new file in the watched folder is found).
	if n := waitSearch(t, mcpc, "heron colony"); n == 0 {
		t.Fatal("MCP search found nothing while the window was closed")
	}
	os.WriteFile(filepath.Join(notes, "egrets.md"), []byte("# Egret count\n\nSeven little egrets roosted at the weir.\n"), 0o644)
	if n := waitSearch(t, mcpc, "little egrets weir"); n == 0 {
		t.Fatalf("a file written while the window was closed was not found; output:\n%s", w.logs.String())
	}

	// Launching Strata again shows the same window of the same process.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	again := exec.CommandContext(ctx, bin, "--data", data)
	again.Env = w.env
	start := time.Now()
	out, err := again.CombinedOutput()
	took := time.Since(start)
	want := fmt.Sprintf("already running on %s (pid %d); its window is shown", data, w.pid)
	if err != nil || !strings.Contains(string(out), want) {
		t.Fatalf("the second launch: %v (after %v)\n%s\nwant a line with %q", err, took, out, want)
	}
	t.Logf("second launch handed over in %v", took.Round(time.Millisecond))
	waitUntil(t, "the window to be mapped again", w.visible)
	if pid := w.x("getwindowpid", w.id); pid != strconv.Itoa(w.pid) {
		t.Fatalf("the window shown belongs to pid %q, not to the first launch's %d", pid, w.pid)
	}
	time.Sleep(800 * time.Millisecond)
	shown := w.screenshot(filepath.Join(art, shots+"-3-shown-again.png"))
	if n := colours(shown); n < 30 {
		t.Fatalf("the window shown again looks blank (%d colours)", n)
	}
	if d := changed(first, shown); d > 0.5 {
		t.Errorf("the window shown again differs from the first in %.2f of its pixels: not the same window?", d)
	}

	// Quit in the window's menu: Strata ▸ Quit Strata (the menu bar's first item, its second row).
	w.x("windowfocus", "--sync", w.id)
	w.click(27, 12)
	time.Sleep(700 * time.Millisecond)
	w.screenshot(filepath.Join(art, shots+"-4-menu.png"))
	w.click(65, 63)
	select {
	case <-w.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("Quit in the menu did not stop the app; output:\n%s", w.logs.String())
	}
	if w.exit != nil {
		t.Fatalf("Quit: exit %v\n%s", w.exit, w.logs.String())
	}
	if _, err := os.Stat(filepath.Join(data, httpapi.EndpointFile)); !os.IsNotExist(err) {
		t.Fatalf("the endpoint file is still there after Quit: %v", err)
	}
}

// TestDesktopBackgroundSettingsUnderXvfb: on the settings screen of the real window, "Start
// Strata when I log in" writes the XDG autostart entry under the XDG_CONFIG_HOME the app was
// given (running this binary, on this data folder, hidden) and, switched off, removes it; with
// "Keep running when the window is closed" switched off, closing the window quits the app. An
// app started hidden (as the login item starts it) has no window on screen until a launch
// shows it. Screenshots in test-artifacts/desktop-7-*.
func TestDesktopBackgroundSettingsUnderXvfb(t *testing.T) {
	bin := desktopBinary(t)
	tmp := t.TempDir()
	art := artifactsDir(t)
	data := filepath.Join(tmp, "data")
	cfg := filepath.Join(tmp, "config")
	env := desktopEnv(tmp, "XDG_CONFIG_HOME="+cfg, "DBUS_SESSION_BUS_ADDRESS=", "XDG_RUNTIME_DIR="+filepath.Join(tmp, "run"))
	entry := filepath.Join(cfg, "autostart", "strata.desktop")

	w := openWindow(t, bin, data, env, "--mcp-addr", "127.0.0.1:0", "--hidden")
	if w.visible() {
		t.Fatal("started --hidden, the window is on screen")
	}
	mcpc := mcpClient(t, data)
	if n := waitSearch(t, mcpc, "anything"); n != 0 {
		t.Fatalf("an empty store found %d results", n)
	}
	show := exec.Command(bin, "--data", data)
	show.Env = w.env
	if out, err := show.CombinedOutput(); err != nil || !strings.Contains(string(out), "its window is shown") {
		t.Fatalf("showing the hidden window: %v\n%s", err, out)
	}
	waitUntil(t, "the hidden window to be shown", w.visible)
	time.Sleep(time.Second)
	w.x("windowfocus", "--sync", w.id)

	w.click(80, navRow(5)) // Status & settings
	time.Sleep(1500 * time.Millisecond)
	w.screenshot(filepath.Join(art, "desktop-7-1-settings.png"))
	// The first card: "Keep running…" is its first switch, "Start Strata when I log in" its second.
	const keepY, loginY, switchX = 188, 279, 282
	w.click(switchX, loginY)
	waitUntil(t, "the autostart entry to be written", func() bool { _, err := os.Stat(entry); return err == nil })
	b, _ := os.ReadFile(entry)
	if want := "Exec=" + bin + " --data " + data + " --hidden\n"; !strings.Contains(string(b), want) {
		t.Fatalf("the entry does not run this app hidden on this folder (want %q):\n%s", want, b)
	}
	time.Sleep(800 * time.Millisecond)
	w.screenshot(filepath.Join(art, "desktop-7-2-autostart-on.png"))
	w.click(switchX, loginY)
	waitUntil(t, "the autostart entry to be removed", func() bool { _, err := os.Stat(entry); return os.IsNotExist(err) })
	time.Sleep(800 * time.Millisecond)
	w.screenshot(filepath.Join(art, "desktop-7-3-autostart-off.png"))

	w.click(switchX, keepY)
	w.waitLog(regexp.MustCompile(`msg="keep running in the background when the window is closed" on=false`), "the switch did not turn background mode off",
		filepath.Join(art, "desktop-7-no-keep.png"))
	time.Sleep(500 * time.Millisecond)
	w.screenshot(filepath.Join(art, "desktop-7-4-keep-running-off.png"))
	wmDelete(t, w.display, w.id)
	select {
	case <-w.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("with background mode off, closing the window did not quit; output:\n%s", w.logs.String())
	}
	if w.exit != nil || !strings.Contains(w.logs.String(), "window closed: quitting") {
		t.Fatalf("closing with background mode off: exit %v\n%s", w.exit, w.logs.String())
	}
}

// navRow is the y of the sidebar's i-th row (0: Library … 5: Status & settings), in window
// coordinates: 39 px apart from y 109, under the 24 px menu bar.
func navRow(i int) int { return 109 + 39*i }

// visible reports whether the window is mapped (on screen).
func (w *window) visible() bool {
	return strings.Contains(" "+w.x("search", "--onlyvisible", "--name", "^Strata$")+" ", " "+w.id+" ")
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// mcpClient connects the real MCP client over HTTP to the app serving data, with the URL and
// token it recorded in the folder (what `strata mcp config --http` gives an AI tool).
func mcpClient(t *testing.T, data string) *client.Client {
	t.Helper()
	var url string
	waitUntil(t, "the MCP endpoint file", func() bool {
		b, err := os.ReadFile(filepath.Join(data, httpapi.EndpointFile))
		var ep struct{ URL string }
		if err == nil && json.Unmarshal(b, &ep) == nil {
			url = ep.URL
		}
		return url != ""
	})
	tok, err := os.ReadFile(filepath.Join(data, httpapi.TokenFile))
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + strings.TrimSpace(string(tok))}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "desktop-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	return c
}

// waitSearch searches over MCP until there are results (up to 20 s) and returns how many.
func waitSearch(t *testing.T, c *client.Client, query string) int {
	t.Helper()
	n := 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "search", map[string]any{"query": query}
		res, err := c.CallTool(ctx, req)
		cancel()
		if err != nil {
			t.Fatalf("search %q over MCP: %v", query, err)
		}
		var out struct{ Results []json.RawMessage }
		b, _ := json.Marshal(res.StructuredContent)
		if res.IsError || json.Unmarshal(b, &out) != nil {
			t.Fatalf("search %q over MCP: %s", query, b)
		}
		if n = len(out.Results); n > 0 {
			return n
		}
	}
	return n
}

// sessionBus starts a private D-Bus session bus for the test and returns its address.
func sessionBus(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("dbus-daemon (package dbus, installed by `make test`): %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "unix:") {
		t.Fatalf("dbus-daemon printed %q: %v", line, err)
	}
	return strings.TrimSpace(line)
}

// wmDelete asks the window to close as a window manager's close button does: a ClientMessage
// WM_PROTOCOLS/WM_DELETE_WINDOW sent to it (GTK turns it into delete-event, which Wails
// handles as the close button). Xvfb runs no window manager and xdotool of Debian 12 has no
// windowquit, so this speaks the X11 protocol itself over the display's socket: connection
// set-up without authorisation (Xvfb accepts local clients), two InternAtom requests, SendEvent,
// and a GetInputFocus round trip so the event has been delivered when it returns.
func wmDelete(t *testing.T, display, id string) {
	t.Helper()
	win, err := strconv.ParseUint(id, 10, 32)
	if err != nil {
		t.Fatalf("window id %q: %v", id, err)
	}
	c, err := net.Dial("unix", "/tmp/.X11-unix/X"+strings.TrimPrefix(display, ":"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	le := binary.LittleEndian
	must := func(err error) {
		if err != nil {
			t.Helper()
			t.Fatalf("X11: %v", err)
		}
	}
	_, err = c.Write([]byte{'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0}) // little-endian, protocol 11.0, no auth
	must(err)
	hdr := make([]byte, 8)
	_, err = io.ReadFull(c, hdr)
	must(err)
	_, err = io.CopyN(io.Discard, c, int64(le.Uint16(hdr[6:]))*4)
	must(err)
	if hdr[0] != 1 {
		t.Fatalf("X11 connection refused by %s", display)
	}
	reply := func() []byte {
		r := make([]byte, 32)
		_, err := io.ReadFull(c, r)
		must(err)
		if r[0] != 1 {
			t.Fatalf("X11 error %v", r[:4])
		}
		return r
	}
	atom := func(name string) uint32 {
		n, pad := len(name), (4-len(name)%4)%4
		req := make([]byte, 8+n+pad)
		req[0] = 16 // InternAtom
		le.PutUint16(req[2:], uint16(len(req)/4))
		le.PutUint16(req[4:], uint16(n))
		copy(req[8:], name)
		_, err := c.Write(req)
		must(err)
		return le.Uint32(reply()[8:])
	}
	protocols, del := atom("WM_PROTOCOLS"), atom("WM_DELETE_WINDOW")
	req := make([]byte, 44)
	req[0] = 25 // SendEvent, propagate false, event mask 0: to the client that made the window
	le.PutUint16(req[2:], 11)
	le.PutUint32(req[4:], uint32(win))
	ev := req[12:]
	ev[0], ev[1] = 33, 32 // ClientMessage, format 32
	le.PutUint32(ev[4:], uint32(win))
	le.PutUint32(ev[8:], protocols)
	le.PutUint32(ev[12:], del) // data[0]; data[1] (the time) 0 is CurrentTime
	_, err = c.Write(req)
	must(err)
	_, err = c.Write([]byte{43, 0, 1, 0}) // GetInputFocus
	must(err)
	reply()
}

// TestDesktopEntryVetsForWindows: the window's lifecycle code (main_desktop.go, and
// main_desktop_other.go for the systems that are not Linux) compiles and passes vet for Windows,
// whose Wails front end is pure Go. macOS's needs cgo and its SDK, so it cannot be checked here.
func TestDesktopEntryVetsForWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the desktop program for Windows")
	}
	for _, arch := range []string{"amd64", "arm64"} {
		cmd := exec.Command("go", "vet", "-tags", "desktop,production", ".")
		cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH="+arch, "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=windows GOARCH=%s go vet -tags desktop,production: %v\n%s", arch, err, out)
		}
	}
}
