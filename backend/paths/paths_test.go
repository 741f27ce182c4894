package paths

import (
	"path/filepath"
	"strings"
	"testing"
)

// rulesByName lets a table say which OS a row is about.
var rulesByName = map[string]Rules{"linux": Linux, "darwin": Darwin, "windows": Windows}

func TestFor(t *testing.T) {
	for goos, want := range map[string]Rules{"linux": Linux, "freebsd": Linux, "android": Linux, "darwin": Darwin, "ios": Darwin, "windows": Windows} {
		if got := For(goos); got != want {
			t.Errorf("For(%q) = %s, want %s", goos, got, want)
		}
	}
}

func TestVolumeName(t *testing.T) {
	for _, c := range []struct{ os, p, want string }{
		{"linux", "/home/ann", ""},
		{"linux", `C:\x`, ""}, // a Linux file may be called that
		{"darwin", "/Users/ann", ""},
		{"windows", `C:\Users\ann`, "C:"},
		{"windows", `c:/users`, "c:"},
		{"windows", `C:`, "C:"},
		{"windows", `C:x`, "C:"},
		{"windows", `\Users`, ""},
		{"windows", `Users\ann`, ""},
		{"windows", `\\server\share\docs\a.txt`, `\\server\share`},
		{"windows", `//server/share/docs`, `//server/share`},
		{"windows", `\\server`, `\\server`},
		{"windows", `\\?\C:\very\long`, `\\?\C:`},
		{"windows", `\\?\UNC\server\share\x`, `\\?\UNC\server\share`},
		{"windows", `\\.\C:\x`, `\\.\C:`},
		{"windows", `\\.\pipe\strata`, `\\.\pipe`},
	} {
		if got := rulesByName[c.os].VolumeName(c.p); got != c.want {
			t.Errorf("%s VolumeName(%q) = %q, want %q", c.os, c.p, got, c.want)
		}
	}
}

func TestIsAbs(t *testing.T) {
	for _, c := range []struct {
		os, p string
		want  bool
	}{
		{"linux", "/a", true},
		{"linux", "a/b", false},
		{"linux", `C:\a`, false},
		{"darwin", "/Users", true},
		{"windows", `C:\a`, true},
		{"windows", `C:/a`, true},
		{"windows", `C:\`, true},
		{"windows", `C:a`, false}, // relative to C:'s current folder
		{"windows", `C:`, false},
		{"windows", `\a`, false}, // relative to the current drive
		{"windows", `/a`, false},
		{"windows", `a\b`, false},
		{"windows", `\\server\share\a`, true},
		{"windows", `\\server\share`, true},
		{"windows", `\\?\C:\a`, true},
		{"windows", `\\?\UNC\server\share\a`, true},
	} {
		if got := rulesByName[c.os].IsAbs(c.p); got != c.want {
			t.Errorf("%s IsAbs(%q) = %v, want %v", c.os, c.p, got, c.want)
		}
	}
}

func TestClean(t *testing.T) {
	for _, c := range []struct{ os, p, want string }{
		{"linux", "/a/b/../c/./d/", "/a/c/d"},
		{"linux", "//a//b", "/a/b"},
		{"linux", "/..", "/"},
		{"linux", "", "."},
		{"linux", `C:\a\..\b`, `C:\a\..\b`}, // backslash is a name's character on Linux
		{"darwin", "/Users/Ann/../Bob/", "/Users/Bob"},
		{"windows", `C:\a\b\..\c\.\d\`, `C:\a\c\d`},
		{"windows", `C:/a//b/`, `C:\a\b`},
		{"windows", `c:\..\..`, `c:\`},
		{"windows", `C:\`, `C:\`},
		{"windows", `C:`, `C:.`},
		{"windows", `C:a\..\..`, `C:..`},
		{"windows", `\a\..\b`, `\b`},
		{"windows", `a/b/../c`, `a\c`},
		{"windows", ``, `.`},
		{"windows", `\\server\share\a\..\b`, `\\server\share\b`},
		{"windows", `\\server\share\..\..`, `\\server\share\`}, // .. stops at the share
		{"windows", `//server/share/a`, `\\server\share\a`},
		{"windows", `\\server\share`, `\\server\share`},
		{"windows", `\\?\C:\a\.\b`, `\\?\C:\a\b`},
		{"windows", `\\?\UNC\server\share\a\..`, `\\?\UNC\server\share\`},
		{"windows", `C:\` + strings.Repeat(`long\`, 80) + `x.txt`, `C:\` + strings.Repeat(`long\`, 80) + `x.txt`},
	} {
		if got := rulesByName[c.os].Clean(c.p); got != c.want {
			t.Errorf("%s Clean(%q) = %q, want %q", c.os, c.p, got, c.want)
		}
	}
}

// TestHostMatchesFilepath: on the machine the tests run on, the package agrees with Go's own
// path/filepath, so a Windows or macOS build of these tests checks the rules there too.
func TestHostMatchesFilepath(t *testing.T) {
	for _, p := range []string{"/a/b/../c/", "a//b", "", ".", "..", "/", `C:\a\..\b`, `C:/x/./y`, `C:`, `C:x\..`, `\\server\share\a\..`,
		`\\?\C:\a\.\b`, `//server/share/x/`, `\x\y\`, "/Users/Ann/Notes"} {
		if got, want := Host.Clean(p), filepath.Clean(p); got != want {
			t.Errorf("%s Clean(%q) = %q, filepath.Clean says %q", Host, p, got, want)
		}
		if got, want := Host.IsAbs(p), filepath.IsAbs(p); got != want {
			t.Errorf("%s IsAbs(%q) = %v, filepath.IsAbs says %v", Host, p, got, want)
		}
		if got, want := Host.VolumeName(p), filepath.VolumeName(p); got != want {
			t.Errorf("%s VolumeName(%q) = %q, filepath.VolumeName says %q", Host, p, got, want)
		}
	}
	if got, want := Host.Join("a", "", "b", "../c"), filepath.Join("a", "", "b", "../c"); got != want {
		t.Errorf("Join = %q, filepath.Join says %q", got, want)
	}
}

func TestJoin(t *testing.T) {
	for _, c := range []struct {
		os   string
		elem []string
		want string
	}{
		{"linux", []string{"/h", ".config", "Claude"}, "/h/.config/Claude"},
		{"darwin", []string{"/Users/ann", "Library", "Application Support"}, "/Users/ann/Library/Application Support"},
		{"windows", []string{`C:\Users\ann`, "AppData", "Roaming"}, `C:\Users\ann\AppData\Roaming`},
		{"windows", []string{`\\server\share`, "a"}, `\\server\share\a`},
		{"windows", []string{"", "a", ""}, "a"},
		{"linux", nil, ""},
	} {
		if got := rulesByName[c.os].Join(c.elem...); got != c.want {
			t.Errorf("%s Join(%q) = %q, want %q", c.os, c.elem, got, c.want)
		}
	}
}

func TestEqual(t *testing.T) {
	for _, c := range []struct {
		os, a, b string
		want     bool
	}{
		{"linux", "/home/ann/Notes", "/home/ann/Notes", true},
		{"linux", "/home/ann/Notes", "/home/ann/notes", false}, // ext4: two folders
		{"linux", "/home/ann/Notes/", "/home/ann/./Notes", true},
		{"linux", "/x/caf\u00e9", "/x/cafe\u0301", false}, // Linux keeps the bytes it is given
		{"darwin", "/Users/ann/Notes", "/users/ANN/notes", true},
		{"darwin", "/Users/ann/caf\u00e9", "/Users/ann/cafe\u0301", true}, // NFC and NFD
		{"darwin", "/Users/ann/CAF\u00c9", "/Users/ann/cafe\u0301", true},
		{"darwin", "/Users/ann/a", "/Users/ann/b", false},
		{"windows", `C:\Users\Ann\Notes`, `c:/users/ann/notes/`, true},
		{"windows", `C:\Users\Ann\Notes`, `\\?\C:\Users\Ann\Notes`, true}, // long-path form
		{"windows", `C:\Notes`, `D:\Notes`, false},
		{"windows", `C:\Notes.`, `C:\Notes`, true},  // Win32 drops trailing dots
		{"windows", `C:\Notes  `, `C:\Notes`, true}, // and spaces
		{"windows", `\\Server\Share\Docs`, `\\server\share\docs`, true},
		{"windows", `\\server\share\docs`, `\\?\UNC\server\share\docs`, true},
		{"windows", `\\server\share\docs`, `\\other\share\docs`, false},
		{"windows", `\\server\share\`, `\\server\share`, true},
		{"windows", `C:\a`, `\a`, false}, // a drive's folder is not the current drive's
		{"windows", `C:a`, `C:\a`, false},
	} {
		if got := rulesByName[c.os].Equal(c.a, c.b); got != c.want {
			t.Errorf("%s Equal(%q, %q) = %v, want %v", c.os, c.a, c.b, got, c.want)
		}
		if got := rulesByName[c.os].Key(c.a) == rulesByName[c.os].Key(c.b); got != c.want {
			t.Errorf("%s Key(%q) == Key(%q): %v, want %v", c.os, c.a, c.b, got, c.want)
		}
	}
}

func TestWithin(t *testing.T) {
	long := strings.Repeat(`segment\`, 40) // 320 characters: beyond Windows' MAX_PATH of 260
	for _, c := range []struct {
		os, p, dir string
		want       bool
	}{
		{"linux", "/a/b/c", "/a/b", true},
		{"linux", "/a/b", "/a/b", true},
		{"linux", "/a/bc", "/a/b", false}, // a sibling that shares a prefix
		{"linux", "/a/b/../c", "/a/b", false},
		{"linux", "/a/b/", "/a/b/", true},
		{"linux", "/a", "/", true},
		{"linux", "/", "/", true},
		{"linux", "/A/b", "/a", false},
		{"linux", "a/b", "a", true},
		{"linux", "a", ".", true},
		{"linux", "../a", ".", false},
		{"linux", "/a", ".", false},
		{"linux", "a/b", "/a", false},
		{"darwin", "/Users/Ann/Notes/x.md", "/users/ann/notes", true},
		{"darwin", "/Users/ann/cafe\u0301/x", "/Users/ann/caf\u00e9", true},
		{"darwin", "/Users/ann/Notes2", "/Users/ann/Notes", false},
		{"darwin", "/a", "/", true},
		{"windows", `C:\Users\Ann\Notes\x.md`, `c:\users\ann\notes`, true},
		{"windows", `C:\Users\Ann\Notes\x.md`, `C:/Users/Ann/Notes/`, true},
		{"windows", `C:\Users\Ann\Notes2`, `C:\Users\Ann\Notes`, false},
		{"windows", `D:\Users\Ann\Notes\x`, `C:\Users\Ann\Notes`, false},
		{"windows", `C:\anything`, `C:\`, true},
		{"windows", `D:\anything`, `C:\`, false},
		{"windows", `\\server\share\docs\a.txt`, `\\server\share`, true},
		{"windows", `\\server\share\docs\a.txt`, `\\SERVER\Share\Docs`, true},
		{"windows", `\\server\share2\docs`, `\\server\share`, false},
		{"windows", `\\server\share\docs`, `C:\`, false},
		{"windows", `\\?\C:\` + long + `x.txt`, `C:\` + long, true},
		{"windows", `C:\` + long + `x.txt`, `\\?\C:\` + long, true},
		{"windows", `\\?\UNC\server\share\` + long + `x`, `\\server\share\` + long, true},
		{"windows", `C:\Users\Ann\.ssh.\id`, `C:\Users\Ann\.ssh`, true},
		{"windows", `C:\a\..\b`, `C:\a`, false},
	} {
		if got := rulesByName[c.os].Within(c.p, c.dir); got != c.want {
			t.Errorf("%s Within(%q, %q) = %v, want %v", c.os, c.p, c.dir, got, c.want)
		}
	}
}

func TestRelPrefixInside(t *testing.T) {
	for _, c := range []struct {
		os, dir, p  string
		rel, prefix string
		ok, inside  bool
	}{
		{"linux", "/a/b", "/a/b/c/d.txt", "c/d.txt", "/a/b", true, true},
		{"linux", "/a/b", "/a/b", ".", "/a/b", true, false},
		{"linux", "/", "/a/b", "a/b", "/", true, true},
		{"linux", "/a/b", "/a/c", "", "", false, false},
		{"darwin", "/users/ann", "/Users/Ann/Notes/x.md", "Notes/x.md", "/Users/Ann", true, true},
		{"windows", `c:\users\ann`, `C:\Users\Ann\Notes\x.md`, `Notes\x.md`, `C:\Users\Ann`, true, true},
		{"windows", `C:\`, `C:\x`, `x`, `C:\`, true, true},
		{"windows", `\\server\share`, `\\server\share\a\b`, `a\b`, `\\server\share\`, true, true},
		{"windows", `C:\Users`, `\\?\C:\Users\Ann`, `Ann`, `\\?\C:\Users`, true, true},
		{"windows", `C:\Users`, `D:\Users\Ann`, "", "", false, false},
	} {
		r := rulesByName[c.os]
		rel, ok := r.Rel(c.dir, c.p)
		if rel != c.rel || ok != c.ok {
			t.Errorf("%s Rel(%q, %q) = %q, %v; want %q, %v", c.os, c.dir, c.p, rel, ok, c.rel, c.ok)
		}
		if pre, ok := r.Prefix(c.p, c.dir); pre != c.prefix || ok != c.ok {
			t.Errorf("%s Prefix(%q, %q) = %q, %v; want %q, %v", c.os, c.p, c.dir, pre, ok, c.prefix, c.ok)
		}
		if got := r.Inside(c.p, c.dir); got != c.inside {
			t.Errorf("%s Inside(%q, %q) = %v, want %v", c.os, c.p, c.dir, got, c.inside)
		}
		if c.ok {
			// The prefix names dir, and prefix + rel is p again.
			pre, _ := r.Prefix(c.p, c.dir)
			if !r.Equal(pre, c.dir) {
				t.Errorf("%s Prefix(%q, %q) = %q does not name the folder", c.os, c.p, c.dir, pre)
			}
			if !r.Equal(r.Join(pre, rel), c.p) {
				t.Errorf("%s Join(%q, %q) is not %q", c.os, pre, rel, c.p)
			}
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		os, p string
		want  []string
	}{
		{"linux", "/home/ann/.ssh/id_rsa", []string{"home", "ann", ".ssh", "id_rsa"}},
		{"linux", "/", nil},
		{"darwin", "/Users/ann/.SSH/config", []string{"Users", "ann", ".SSH", "config"}},
		{"windows", `C:\Users\ann\.ssh\id_rsa`, []string{"Users", "ann", ".ssh", "id_rsa"}},
		{"windows", `C:/Users/ann/.aws/credentials`, []string{"Users", "ann", ".aws", "credentials"}},
		{"windows", `\\server\share\.ssh\x`, []string{".ssh", "x"}}, // the share's names are the volume, not folders
		{"windows", `\\?\C:\a\b`, []string{"a", "b"}},
	} {
		got := rulesByName[c.os].Names(c.p)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s Names(%q) = %q, want %q", c.os, c.p, got, c.want)
		}
	}
}

func TestNameKey(t *testing.T) {
	for _, c := range []struct{ os, name, want string }{
		{"linux", ".SSH", ".SSH"},
		{"linux", "notes. ", "notes. "},
		{"darwin", ".SSH", ".ssh"},
		{"darwin", "Cafe\u0301", "caf\u00e9"},
		{"windows", ".SSH", ".ssh"},
		{"windows", ".ssh. .", ".ssh"},
		{"windows", "..", ".."},
		{"windows", ".", "."},
	} {
		if got := rulesByName[c.os].NameKey(c.name); got != c.want {
			t.Errorf("%s NameKey(%q) = %q, want %q", c.os, c.name, got, c.want)
		}
	}
}

func TestFileURL(t *testing.T) {
	for _, c := range []struct{ os, p, want string }{
		{"linux", "/home/ann/my notes/a#1.md", "file:///home/ann/my%20notes/a%231.md"},
		{"darwin", "/Users/ann/a.md", "file:///Users/ann/a.md"},
		{"windows", `C:\Users\ann\a b.md`, "file:///C:/Users/ann/a%20b.md"},
		{"windows", `\\?\C:\Users\ann\a.md`, "file:///C:/Users/ann/a.md"},
		{"windows", `\\server\share\docs\a.md`, "file://server/share/docs/a.md"},
		{"windows", `\\?\UNC\server\share\docs\a.md`, "file://server/share/docs/a.md"},
	} {
		if got := rulesByName[c.os].FileURL(c.p); got != c.want {
			t.Errorf("%s FileURL(%q) = %q, want %q", c.os, c.p, got, c.want)
		}
	}
}

func TestExact(t *testing.T) {
	for _, c := range []struct {
		os, a, b string
		want     bool
	}{
		{"windows", `C:\Notes`, `\\?\C:\Notes`, true},
		{"windows", `C:\Notes`, `c:/Notes/`, true}, // drive letters never had case
		{"windows", `C:\Notes`, `C:\notes`, false},
		{"darwin", "/Users/ann/caf\u00e9", "/Users/ann/cafe\u0301", true},
		{"darwin", "/Users/ann/Notes", "/Users/ann/notes", false},
		{"linux", "/a/B", "/a/b", false},
	} {
		r := rulesByName[c.os].Exact()
		if r.FoldsCase() {
			t.Errorf("%s.Exact() folds case", c.os)
		}
		if got := r.Equal(c.a, c.b); got != c.want {
			t.Errorf("%s Exact().Equal(%q, %q) = %v, want %v", c.os, c.a, c.b, got, c.want)
		}
	}
}

// TestConfigHome: an absolute XDG_CONFIG_HOME wins, a relative one is ignored (the XDG spec),
// and a HOME that is unset or relative gives no folder rather than one under the working
// directory (an autostart entry was written to ./.config when HOME was relative).
func TestConfigHome(t *testing.T) {
	for _, tc := range []struct {
		home, xdg, want string
		ok              bool
	}{
		{"/home/ann", "/etc/ann", "/etc/ann", true},
		{"/home/ann", "", "/home/ann/.config", true},
		{"/home/ann", "cfg", "/home/ann/.config", true},
		{"", "cfg", "", false},
		{"home/ann", "", "", false},
		{"", "/etc/ann", "/etc/ann", true},
	} {
		if got, ok := Linux.ConfigHome(tc.home, tc.xdg); got != tc.want || ok != tc.ok {
			t.Errorf("ConfigHome(%q, %q) = %q, %v; want %q, %v", tc.home, tc.xdg, got, ok, tc.want, tc.ok)
		}
	}
}
