package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestDiskFault runs diskfault.sh: the real binary under strace with ENOSPC and EIO injected,
// checking exit codes, envelopes, log lines, PRAGMA integrity_check and the run after space
// returns. Skipped with -short, off Linux, and without strace (scripts/deps.sh test installs it).
func TestDiskFault(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it under strace")
	}
	if runtime.GOOS != "linux" {
		t.Skip("strace fault injection is Linux's")
	}
	if _, err := exec.LookPath("strace"); err != nil {
		t.Skip("strace is not installed (scripts/deps.sh test)")
	}
	bin := filepath.Join(t.TempDir(), "strata")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", "diskfault.sh", bin)
	cmd.Env = append(os.Environ(), "KEEP=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("diskfault.sh: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
