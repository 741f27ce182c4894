package engine

import (
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/paths"
)

// TestRemoteGuardOnEachOS: the remote path guard's decision (after symlinks are resolved)
// under Windows', macOS' and Linux's rules: drive letters and case, UNC shares, long-path
// prefixes, trailing dots, NFD names, and a case-folded grant that must be confirmed on disk.
// The real file system's side (symlinks, "..", secrets on Linux) is TestRemotePathRules'.
func TestRemoteGuardOnEachOS(t *testing.T) {
	long := strings.Repeat(`deep\`, 60) // 300 characters: past Windows' MAX_PATH of 260
	for _, c := range []struct {
		os         paths.Rules
		data       string
		roots      []string
		path       string
		sameOnDisk bool   // what os.SameFile says of the root and the path's matching prefix
		want       string // "" granted, else a word of the refusal
	}{
		// Windows
		{os: paths.Windows, data: `C:\Users\Ann\AppData\Local\strata`, roots: []string{`C:\Users\Ann`}, path: `c:\users\ann\appdata\local\STRATA\strata.db`, want: "data folder"},
		{os: paths.Windows, data: `C:\Users\Ann\AppData\Local\strata`, roots: []string{`C:\Users\Ann`}, path: `\\?\C:\Users\Ann\AppData\Local\strata\strata.db`, want: "data folder"},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `C:\Users\Ann\Notes\.SSH\config`, want: "secrets"},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `C:\Users\Ann\Notes\.ssh.\config`, want: "secrets"},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `C:\Users\Ann\Notes\ID_RSA`, want: "looks like a secret"},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `C:\Users\Ann\Notes\server.PEM.`, want: "looks like a secret"},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `C:\Users\Ann\Notes\a.md`},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `C:\Users\Ann\Notes\` + long + `a.md`},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `\\?\C:\Users\Ann\Notes\` + long + `a.md`},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `c:\users\ann\notes\a.md`, sameOnDisk: true},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `c:\users\ann\notes\a.md`, want: "outside"}, // not the root on disk
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `C:\Users\Ann\Notes2\a.md`, want: "outside"},
		{os: paths.Windows, roots: []string{`C:\Users\Ann\Notes`}, path: `D:\Users\Ann\Notes\a.md`, want: "outside"},
		{os: paths.Windows, roots: []string{`\\nas\share\docs`}, path: `\\nas\share\docs\q3\report.pdf`},
		{os: paths.Windows, roots: []string{`\\nas\share\docs`}, path: `\\?\UNC\nas\share\docs\q3\report.pdf`},
		{os: paths.Windows, roots: []string{`\\nas\share\docs`}, path: `\\nas\other\docs\report.pdf`, want: "outside"},
		{os: paths.Windows, roots: []string{`\\nas\share\docs`}, path: `\\nas\share\docs\.aws\credentials`, want: "secrets"},
		// macOS
		{os: paths.Darwin, data: "/Users/ann/Library/Application Support/strata", roots: []string{"/Users/ann"}, path: "/users/ann/library/application support/Strata/strata.db", want: "data folder"},
		{os: paths.Darwin, roots: []string{"/Users/ann/Notes"}, path: "/Users/ann/Notes/.SSH/config", want: "secrets"},
		{os: paths.Darwin, roots: []string{"/Users/ann/Notes"}, path: "/Users/ann/Notes/.GnuPG/x", want: "secrets"},
		{os: paths.Darwin, roots: []string{"/Users/ann/Notes"}, path: "/Users/ann/notes/a.md", sameOnDisk: true},
		{os: paths.Darwin, roots: []string{"/Users/ann/Notes"}, path: "/Users/ann/notes/a.md", want: "outside"}, // a case-sensitive volume
		{os: paths.Darwin, roots: []string{"/Users/ann/Caf\u00e9"}, path: "/Users/ann/Cafe\u0301/a.md"},         // NFD from Finder
		{os: paths.Darwin, roots: []string{"/Users/ann/Notes"}, path: "/Users/ann/Notes/a.md"},
		// Linux
		{os: paths.Linux, data: "/home/ann/.local/share/strata", roots: []string{"/home/ann"}, path: "/home/ann/.local/share/strata/strata.db", want: "data folder"},
		{os: paths.Linux, roots: []string{"/home/ann/Notes"}, path: "/home/ann/Notes/.ssh/config", want: "secrets"},
		{os: paths.Linux, roots: []string{"/media/usb"}, path: "/media/usb/.SSH/config", want: "secrets"},                      // a FAT stick ignores case
		{os: paths.Linux, roots: []string{"/home/ann/Notes"}, path: "/home/ann/notes/a.md", sameOnDisk: true, want: "outside"}, // ext4: another folder; never asked
		{os: paths.Linux, roots: []string{"/home/ann/Notes"}, path: "/home/ann/Notes2/a.md", want: "outside"},
		{os: paths.Linux, roots: []string{"/"}, path: "/etc/hostname"},
	} {
		g := &remoteGuard{data: c.data, roots: c.roots}
		asked := false
		same := func(a, b string) bool { asked = true; return c.sameOnDisk }
		real, err := g.judge(c.os, c.path, c.path, same)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %q: refused (%v), want it granted", c.os, c.path, err)
		case c.want == "" && real != c.path:
			t.Errorf("%s %q: granted as %q", c.os, c.path, real)
		case c.want != "" && err == nil:
			t.Errorf("%s %q: granted, want refused (%s)", c.os, c.path, c.want)
		case c.want != "" && (errs.As(err).Code != errs.ForbiddenPath || !strings.Contains(errs.As(err).Message, c.want)):
			t.Errorf("%s %q: %v, want FORBIDDEN_PATH saying %q", c.os, c.path, err, c.want)
		}
		if c.os == paths.Linux && asked {
			t.Errorf("linux %q: the disk was asked; Linux compares bytes", c.path)
		}
	}
}
