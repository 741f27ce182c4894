package autostart

import (
	"os"
	"os/exec"
	"testing"
)

// TestVetsOnEveryOS: the macOS LaunchAgent and the Windows Run-key code cannot run here, but
// they must compile and pass vet for the systems they are for, so a change to the shared code
// that breaks them fails on this machine rather than on someone else's.
func TestVetsOnEveryOS(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package for four other systems")
	}
	for _, target := range [][2]string{{"darwin", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"}, {"freebsd", "amd64"}} {
		cmd := exec.Command("go", "vet", ".")
		cmd.Env = append(os.Environ(), "GOOS="+target[0], "GOARCH="+target[1], "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=%s GOARCH=%s go vet: %v\n%s", target[0], target[1], err, out)
		}
	}
}
