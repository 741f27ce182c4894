//go:build !windows

package engine

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// tryLock takes f's exclusive advisory lock without waiting; false when another open file
// holds it. The kernel drops it when the process ends, however it ends.
func tryLock(f *os.File) (bool, error) {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
