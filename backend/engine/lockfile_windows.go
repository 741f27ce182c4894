//go:build windows

package engine

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// tryLock takes an exclusive lock on a byte range far past f's content (the owner's pid stays
// readable) without waiting; false when another handle holds it. Windows drops it when the
// process ends.
func tryLock(f *os.File) (bool, error) {
	ol := new(windows.Overlapped)
	ol.OffsetHigh = 1
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return err == nil, err
}
