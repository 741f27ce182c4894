// Package scripts holds no Go code: its tests check the decisions of deps.sh, the script that
// `make run` and `make test` call to install missing system packages, run diskfault.sh, and
// build, install and remove the .deb that package-deb.sh makes (deb_linux_test.go).
package scripts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// machine describes a fake machine: the commands on its PATH, the pkg-config modules it has,
// and the Debian packages dpkg-query reports as installed (name → version).
type machine struct {
	commands []string
	modules  []string
	packages map[string]string
}

// The commands a Debian machine with everything has, besides node and npm.
var appCommands = []string{"gcc", "pkg-config"}
var packageCommands = []string{"dpkg-deb", "dpkg-shlibdeps", "desktop-file-validate", "appstreamcli"}
var testCommands = join(packageCommands, []string{"Xvfb", "xauth", "xdotool", "import", "chromium", "dbus-run-session", "strace", "fc-list"})
var allModules = []string{"gtk+-3.0", "webkit2gtk-4.1"}

// stubPath writes one executable per command into a new folder and returns it, to be the whole
// PATH of the script: nothing of the real machine leaks in, and apt-get and sudo only record
// that they were called, so a dry run that installs anything fails the test.
func stubPath(t *testing.T, m machine) (dir, calls string) {
	t.Helper()
	dir = t.TempDir()
	calls = filepath.Join(dir, "calls.log")
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range m.commands {
		switch c {
		case "fc-list":
			write(c, `echo "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf: DejaVu Sans:style=Book"`)
		case "pkg-config":
			var cases strings.Builder
			for _, mod := range m.modules {
				fmt.Fprintf(&cases, "  %q) exit 0 ;;\n", mod)
			}
			write(c, `[ "$1" = --exists ] || exit 2
case "$2" in
`+cases.String()+`esac
exit 1`)
		default:
			write(c, `echo "stub `+c+` 1.0"`)
		}
	}
	// dpkg-query -W -f=FORMAT PACKAGE, as deps.sh calls it: one package at a time.
	var status, version strings.Builder
	for p, v := range m.packages {
		fmt.Fprintf(&status, "  %q) printf 'install ok installed'; exit 0 ;;\n", p)
		fmt.Fprintf(&version, "  %q) printf '%%s' %q; exit 0 ;;\n", p, v)
	}
	write("dpkg-query", `for last; do :; done
case "$2" in
-f='${Status}')
  case "$last" in
`+status.String()+`  esac ;;
-f='${Version}')
  case "$last" in
`+version.String()+`  esac ;;
esac
echo "dpkg-query: no packages found matching $last" >&2
exit 1`)
	for _, c := range []string{"apt-get", "sudo"} {
		write(c, `echo "`+c+` $*" >> '`+calls+`'; exit 1`)
	}
	return dir, calls
}

// run runs deps.sh in dry-run mode on the fake machine and returns its output and exit status.
func run(t *testing.T, m machine, target string) (string, error) {
	t.Helper()
	dir, calls := stubPath(t, m)
	cmd := exec.Command("/bin/bash", "deps.sh", "--dry-run", target)
	cmd.Env = []string{"PATH=" + dir, "LANG=C.UTF-8"}
	out, err := cmd.CombinedOutput()
	if b, rerr := os.ReadFile(calls); rerr == nil {
		t.Errorf("a dry run called the package manager:\n%s", b)
	}
	return string(out), err
}

// wouldInstall returns the packages on the script's "would install:" line.
func wouldInstall(t *testing.T, out string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "would install: "); ok {
			return strings.Fields(rest)
		}
	}
	return nil
}

func join(lists ...[]string) []string {
	var all []string
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}

func TestDeps(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	libc := map[string]string{"libc6-dev": "2.36-9+deb12u14"}
	withNode := func(version string) map[string]string {
		p := map[string]string{"nodejs": version}
		for k, v := range libc {
			p[k] = v
		}
		return p
	}
	const nodeSource, debianNode = "20.20.2-1nodesource1+repack1", "18.19.0+dfsg-6~deb12u2"
	gtk := []string{"libgtk-3-dev", "libwebkit2gtk-4.1-dev"}
	packagePkgs := []string{"dpkg", "dpkg-dev", "desktop-file-utils", "appstream"}
	testPkgs := join(packagePkgs, []string{"xvfb", "xauth", "xdotool", "imagemagick", "chromium", "dbus", "strace", "fonts-dejavu-core"})

	cases := []struct {
		name    string
		m       machine
		target  string
		want    []string // the exact "would install" list; nil: the line must be absent
		wantOut string   // a line the output must contain
		fails   bool
	}{
		{
			name:   "nothing installed",
			m:      machine{},
			target: "test",
			want:   join([]string{"gcc", "libc6-dev", "pkg-config"}, gtk, []string{"nodejs", "npm"}, testPkgs),
		},
		{
			name:   "nothing installed, app only",
			m:      machine{},
			target: "app",
			want:   join([]string{"gcc", "libc6-dev", "pkg-config"}, gtk, []string{"nodejs", "npm"}),
		},
		{
			// The package is built from the committed frontend: no Node.js is asked for.
			name:   "nothing installed, package only",
			m:      machine{},
			target: "package",
			want:   join([]string{"gcc", "libc6-dev", "pkg-config"}, gtk, packagePkgs),
		},
		{
			name:   "a desktop build machine, package",
			m:      machine{commands: join(appCommands, []string{"dpkg-deb", "dpkg-shlibdeps"}), modules: allModules, packages: libc},
			target: "package",
			want:   []string{"desktop-file-utils", "appstream"},
		},
		{
			// The machine of issue 11: apt must not be asked for nodejs or npm.
			name:   "node from NodeSource, no GTK",
			m:      machine{commands: join(appCommands, []string{"node", "npm"}), packages: withNode(nodeSource)},
			target: "test",
			want:   join(gtk, testPkgs),
		},
		{
			name:    "node from NodeSource without npm",
			m:       machine{commands: join(appCommands, []string{"node"}), modules: allModules, packages: withNode(nodeSource)},
			target:  "app",
			wantOut: "reinstall it (apt-get install --reinstall nodejs)",
			fails:   true,
		},
		{
			name:   "node from Debian without npm",
			m:      machine{commands: join(appCommands, []string{"node"}), modules: allModules, packages: withNode(debianNode)},
			target: "test",
			want:   join([]string{"npm"}, testPkgs),
		},
		{
			name:   "node and npm from Debian, no GTK",
			m:      machine{commands: join(appCommands, []string{"node", "npm"}), packages: withNode(debianNode)},
			target: "app",
			want:   gtk,
		},
		{
			name:    "node from elsewhere (nvm) without npm",
			m:       machine{commands: join(appCommands, []string{"node"}), modules: allModules, packages: libc},
			target:  "app",
			wantOut: "install npm the way node was installed",
			fails:   true,
		},
		{
			name:    "everything present",
			m:       machine{commands: join(appCommands, testCommands, []string{"node", "npm"}), modules: allModules, packages: withNode(nodeSource)},
			target:  "test",
			wantOut: "deps (test): nothing is missing",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := run(t, c.m, c.target)
			if c.fails != (err != nil) {
				t.Fatalf("fails = %v, want %v; output:\n%s", err != nil, c.fails, out)
			}
			got := wouldInstall(t, out)
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("would install:\n got  %q\n want %q\noutput:\n%s", got, c.want, out)
			}
			if c.wantOut != "" && !strings.Contains(out, c.wantOut) {
				t.Errorf("output lacks %q:\n%s", c.wantOut, out)
			}
			if c.m.packages["nodejs"] == nodeSource {
				for _, p := range got {
					if p == "nodejs" || p == "npm" {
						t.Errorf("asked apt for %s on a NodeSource machine", p)
					}
				}
			}
		})
	}
}

// TestDepsUsage: a typo must not silently install nothing and succeed.
func TestDepsUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--dry-run"}, {"--dry-run", "tests"}, {"app", "test"}} {
		cmd := exec.Command("/bin/bash", append([]string{"deps.sh"}, args...)...)
		cmd.Env = []string{"PATH=" + t.TempDir()}
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Errorf("deps.sh %q succeeded:\n%s", args, out)
		}
	}
}
