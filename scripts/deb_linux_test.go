package scripts

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-app/strata/internal/testenv"
)

const appID = "io.github.strata_app.Strata"

// TestDebInstall builds the .deb twice (make package's script) and checks it is the same bytes,
// then installs it on this machine as a person would (apt-get install ./strata_….deb), runs the
// installed `strata version` and `strata mcp` (initialize and index_status over stdin, on a
// temporary data folder and home), checks the desktop entry, icons and AppStream metadata are
// in place and valid, and removes it: no file of the package may remain. The transcript is
// test-artifacts/deb-install.txt.
//
// It needs root (or sudo without a password) and apt; it never replaces an installed strata:
// with one present it is skipped and says so. Skipped with -short.
func TestDebInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the desktop binary and installs a package")
	}
	for _, c := range []string{"apt-get", "dpkg", "dpkg-deb", "dpkg-shlibdeps", "gcc", "pkg-config"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("%s is missing (scripts/deps.sh package)", c)
		}
	}
	var sudo []string
	if os.Geteuid() != 0 {
		if err := exec.Command("sudo", "-n", "true").Run(); err != nil {
			t.Skip("installing a package needs root: run the tests as root, or with sudo that asks no password")
		}
		sudo = []string{"sudo", "-n"}
	}
	// One install at a time on this machine: several worktrees' `make test` may run at once,
	// and two of them installing and removing "strata" would undo each other.
	lockMachine(t)
	if st, _ := exec.Command("dpkg-query", "-W", "-f=${Status} ${Version}", "strata").Output(); strings.HasPrefix(string(st), "install ok installed") {
		t.Skipf("a strata package is installed here (%s): this test does not replace someone's install; remove it (apt-get remove strata) or run the test on another machine", strings.TrimPrefix(string(st), "install ok installed "))
	}
	if _, err := os.Lstat("/usr/bin/strata"); err == nil {
		t.Skip("/usr/bin/strata exists and belongs to no package: this test does not overwrite it")
	}

	tr := newTranscript(t)
	tmp := t.TempDir()

	// Build twice: the same commit must give the same bytes.
	var debs [2]string
	var sums [2]string
	for i := range debs {
		dir := filepath.Join(tmp, fmt.Sprintf("build%d", i+1))
		out := tr.run(exec.Command("bash", "package-deb.sh", "-o", dir), "scripts/package-deb.sh -o "+dir)
		m, _ := filepath.Glob(filepath.Join(dir, "strata_*.deb"))
		if len(m) != 1 {
			t.Fatalf("package-deb.sh made %v:\n%s", m, out)
		}
		debs[i] = m[0]
		sums[i] = sha256File(t, m[0])
	}
	if sums[0] != sums[1] || filepath.Base(debs[0]) != filepath.Base(debs[1]) {
		t.Fatalf("two builds of one commit differ: %s %s, %s %s", filepath.Base(debs[0]), sums[0], filepath.Base(debs[1]), sums[1])
	}
	deb := debs[0]
	st, _ := os.Stat(deb)
	tr.note("reproducible: both builds are %s, sha256 %s, %d bytes (%.1f MB)", filepath.Base(deb), sums[0], st.Size(), float64(st.Size())/1e6)
	info := tr.run(exec.Command("dpkg-deb", "--info", deb), "dpkg-deb --info "+filepath.Base(deb))
	version := field(info, "Version")
	for _, want := range []string{"Package: strata", "Architecture: " + strings.TrimSpace(tr.run(exec.Command("dpkg", "--print-architecture"), "dpkg --print-architecture")),
		"libgtk-3-0", "libwebkit2gtk-4.1-0", "Maintainer: ", "Installed-Size: ", "Description: "} {
		if !strings.Contains(info, want) {
			t.Errorf("control lacks %q:\n%s", want, info)
		}
	}
	contents := tr.run(exec.Command("dpkg-deb", "--contents", deb), "dpkg-deb --contents "+filepath.Base(deb))
	for _, line := range strings.Split(strings.TrimSpace(contents), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != "root/root" {
			t.Errorf("not owned by root: %s", line)
			continue
		}
		name := f[len(f)-1]
		want := "-rw-r--r--"
		switch {
		case strings.HasSuffix(name, "/"):
			want = "drwxr-xr-x"
		case name == "./usr/bin/strata":
			want = "-rwxr-xr-x"
		}
		if f[0] != want {
			t.Errorf("%s has mode %s, want %s", name, f[0], want)
		}
	}

	// Install, as the README tells a person to.
	// apt waits for another apt run's lock (deps.sh does the same) rather than fail at once.
	apt := func(args ...string) *exec.Cmd {
		argv := append(append(append([]string{}, sudo...), "apt-get", "-o", "DPkg::Lock::Timeout=300"), args...)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd
	}
	installed := false
	t.Cleanup(func() {
		if installed { // a failure below: leave the machine as it was
			if out, err := apt("remove", "-y", "strata").CombinedOutput(); err != nil {
				t.Errorf("could not remove the test's strata package: %v\n%s", err, out)
			}
		}
	})
	installCmd := apt("install", "-y", "--no-install-recommends", "./"+filepath.Base(deb))
	installCmd.Dir = filepath.Dir(deb)
	tr.run(installCmd, "apt-get install -y ./"+filepath.Base(deb))
	installed = true
	list := tr.run(exec.Command("dpkg", "-L", "strata"), "dpkg -L strata")

	for _, p := range []string{
		"/usr/bin/strata",
		"/usr/share/applications/" + appID + ".desktop",
		"/usr/share/icons/hicolor/48x48/apps/" + appID + ".png",
		"/usr/share/icons/hicolor/256x256/apps/" + appID + ".png",
		"/usr/share/metainfo/" + appID + ".metainfo.xml",
	} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s is not installed: %v", p, err)
		}
	}
	desktop, _ := os.ReadFile("/usr/share/applications/" + appID + ".desktop")
	for _, want := range []string{"Exec=strata\n", "Icon=" + appID + "\n", "Type=Application\n"} {
		if !bytes.Contains(desktop, []byte(want)) {
			t.Errorf("the installed desktop entry lacks %q:\n%s", strings.TrimSpace(want), desktop)
		}
	}
	if _, err := exec.LookPath("desktop-file-validate"); err == nil {
		tr.run(exec.Command("desktop-file-validate", "/usr/share/applications/"+appID+".desktop"), "desktop-file-validate /usr/share/applications/"+appID+".desktop")
	}
	if _, err := exec.LookPath("appstreamcli"); err == nil {
		tr.run(exec.Command("appstreamcli", "validate", "--no-net", "--no-color", "/usr/share/metainfo/"+appID+".metainfo.xml"), "appstreamcli validate --no-net /usr/share/metainfo/"+appID+".metainfo.xml")
	}

	// The installed program, as a person's shell finds it, with a home and data folder of its
	// own: nothing of the developer's ~/.local/share/strata is read or written.
	home := filepath.Join(tmp, "home")
	data := filepath.Join(tmp, "data")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "LANG=C.UTF-8", "STRATA_EMBEDDER=static", "OLLAMA_HOST=" + testenv.UnreachableOllama}
	shell := func(line string) *exec.Cmd {
		cmd := exec.Command("/bin/sh", "-c", line)
		cmd.Env = env
		return cmd
	}
	if got := strings.TrimSpace(tr.run(shell("command -v strata"), "command -v strata")); got != "/usr/bin/strata" {
		t.Errorf("the shell finds strata at %q", got)
	}
	if got := strings.TrimSpace(tr.run(shell("strata version"), "strata version")); got != "strata "+version {
		t.Errorf("strata version printed %q, want %q (the package's version, stamped into the binary)", got, "strata "+version)
	}
	// With no command it is the window (the desktop build), which says what to do when there
	// is no display rather than crash.
	noDisplay := tr.runFails(shell("strata"), "strata   # no display here")
	if !strings.Contains(noDisplay, "NO_DISPLAY") {
		t.Errorf("strata with no command and no display: want NO_DISPLAY (the desktop build), got:\n%s", noDisplay)
	}
	mcpExchange(t, tr, env, data, version)
	if _, err := os.Stat(filepath.Join(data, "strata.db")); err != nil {
		t.Errorf("strata mcp --data %s made no store: %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "share", "strata")); err == nil {
		t.Error("strata wrote to the default data folder although --data was given")
	}

	// Remove: every file the package brought is gone; the folders that stay belong to other
	// packages or hold other packages' files.
	tr.run(apt("remove", "-y", "strata"), "apt-get remove -y strata")
	installed = false
	if st, _ := exec.Command("dpkg-query", "-W", "-f=${Status}", "strata").Output(); strings.HasPrefix(string(st), "install ok") {
		t.Errorf("after removal dpkg says: %s", st)
	}
	var left []string
	for _, p := range strings.Split(strings.TrimSpace(list), "\n") {
		fi, err := os.Lstat(p)
		if err != nil {
			continue // gone
		}
		if fi.IsDir() {
			if owners, err := exec.Command("dpkg-query", "-S", p).Output(); err == nil && len(owners) > 0 {
				continue // another package's folder too
			}
			if entries, _ := os.ReadDir(p); len(entries) > 0 {
				continue // holds files that are not the package's
			}
		}
		left = append(left, p)
	}
	tr.note("after removal, of the %d paths dpkg -L listed, left behind: %d %v", len(strings.Split(strings.TrimSpace(list), "\n")), len(left), left)
	if len(left) > 0 {
		t.Errorf("apt-get remove left the package's files behind: %v", left)
	}
}

// mcpExchange runs the installed `strata mcp` on data and sends initialize, then index_status,
// as an AI client would over stdin; the answers must be JSON-RPC from Strata at this version.
func mcpExchange(t *testing.T, tr *transcript, env []string, data, version string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", `exec strata mcp --data "$1"`, "sh", data)
	cmd.Env = env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	var log strings.Builder
	ask := func(msg string) map[string]any {
		fmt.Fprintf(&log, "→ %s\n", msg)
		if _, err := io.WriteString(in, msg+"\n"); err != nil {
			t.Fatalf("write to strata mcp: %v\nstderr:\n%s", err, stderr.String())
		}
		if !lines.Scan() {
			t.Fatalf("strata mcp closed stdout without answering %s\nstderr:\n%s", msg, stderr.String())
		}
		fmt.Fprintf(&log, "← %s\n", clip(lines.Text(), 400))
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("not JSON-RPC on stdout: %q", lines.Text())
		}
		return m
	}
	init := ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"deb-install-test","version":"1"}}}`)
	res, _ := init["result"].(map[string]any)
	server, _ := res["serverInfo"].(map[string]any)
	if server["name"] != "strata" || server["version"] != version || res["protocolVersion"] == nil {
		t.Errorf("initialize answered %v; want serverInfo strata %s and a protocol version", init, version)
	}
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	status := ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"index_status","arguments":{}}}`)
	res, _ = status["result"].(map[string]any)
	sc, _ := res["structuredContent"].(map[string]any)
	if status["error"] != nil || res["isError"] == true || sc["version"] != version {
		t.Errorf("index_status answered version %v (error %v); want the status of version %s", sc["version"], status["error"], version)
	}
	in.Close()
	err := cmd.Wait()
	tr.block(fmt.Sprintf("strata mcp --data %s   # JSON-RPC over stdin, then stdin closed (exit: %v)", data, errOrZero(err)), log.String())
	if err != nil {
		t.Errorf("strata mcp exited with %v after stdin closed\nstderr:\n%s", err, stderr.String())
	}
}

// lockMachine holds a machine-wide lock until the test ends (an flock, released by the kernel
// if the process dies), waiting up to ten minutes for another test's install to finish.
func lockMachine(t *testing.T) {
	t.Helper()
	f, err := os.OpenFile("/tmp/strata-deb-install-test.lock", os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Minute)
	for syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		if time.Now().After(deadline) {
			f.Close()
			t.Skip("another TestDebInstall has held the machine's install lock for ten minutes")
		}
		time.Sleep(time.Second)
	}
	t.Cleanup(func() { f.Close() }) // closing releases the lock
}

// transcript records the commands the test runs and what they print, for the closing note.
type transcript struct {
	t   *testing.T
	buf bytes.Buffer
}

func newTranscript(t *testing.T) *transcript {
	tr := &transcript{t: t}
	osr, _ := os.ReadFile("/etc/os-release")
	fmt.Fprintf(&tr.buf, "# Strata .deb install transcript (TestDebInstall, scripts/deb_test.go)\n# %s, %s, %s\n\n",
		time.Now().UTC().Format(time.RFC3339), field(string(osr), "PRETTY_NAME"), runtime.GOARCH)
	t.Cleanup(func() {
		status := "PASS"
		if t.Failed() {
			status = "FAIL"
		}
		fmt.Fprintf(&tr.buf, "# %s\n", status)
		dir := filepath.Join("..", "test-artifacts")
		if err := os.MkdirAll(dir, 0o755); err == nil {
			if err := os.WriteFile(filepath.Join(dir, "deb-install.txt"), tr.buf.Bytes(), 0o644); err == nil {
				t.Logf("transcript: test-artifacts/deb-install.txt")
			}
		}
	})
	return tr
}

func (tr *transcript) note(format string, args ...any) {
	fmt.Fprintf(&tr.buf, "# "+format+"\n\n", args...)
}

func (tr *transcript) block(cmdline, out string) {
	fmt.Fprintf(&tr.buf, "$ %s\n%s", cmdline, out)
	if out != "" && !strings.HasSuffix(out, "\n") {
		tr.buf.WriteString("\n")
	}
	tr.buf.WriteString("\n")
}

// run runs cmd, records it as cmdline, and fails the test if it fails.
func (tr *transcript) run(cmd *exec.Cmd, cmdline string) string {
	tr.t.Helper()
	out, err := cmd.CombinedOutput()
	tr.block(cmdline, string(out))
	if err != nil {
		tr.t.Fatalf("%s: %v\n%s", cmdline, err, out)
	}
	return string(out)
}

// runFails runs cmd, which must fail, and records it.
func (tr *transcript) runFails(cmd *exec.Cmd, cmdline string) string {
	tr.t.Helper()
	out, err := cmd.CombinedOutput()
	tr.block(fmt.Sprintf("%s   (exit: %v)", cmdline, errOrZero(err)), string(out))
	if err == nil {
		tr.t.Errorf("%s succeeded, want it to fail", cmdline)
	}
	return string(out)
}

func errOrZero(err error) string {
	if err == nil {
		return "0"
	}
	return err.Error()
}

// field is the value of "Key: value" or KEY="value" in text.
func field(text, key string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, key+": "); ok {
			return v
		}
		if v, ok := strings.CutPrefix(line, key+"="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes)", len(s))
}
