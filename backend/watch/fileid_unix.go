//go:build unix

package watch

import (
	"io/fs"
	"syscall"
)

// sysIDs returns the device and inode of info, which tell a file replaced by another of the
// same size and mtime (a rename over it) from one left alone, and identify directories for
// symlink-loop detection.
func sysIDs(info fs.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true // Dev is int32 on darwin, uint64 on linux
}
