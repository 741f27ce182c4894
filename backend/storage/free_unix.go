//go:build linux || darwin || freebsd

package storage

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// FreeBytes is the space an unprivileged writer may still use on dir's file system (statfs
// f_bavail: root's reserve does not count, since Strata may not run as root).
func FreeBytes(dir string) (uint64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true //nolint:unconvert // field types differ per OS
}

// MountPoint is the top folder of dir's file system (the name `df` shows), or dir when it
// cannot be told.
func MountPoint(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	dev := func(p string) (uint64, bool) {
		fi, err := os.Stat(p)
		if err != nil {
			return 0, false
		}
		s, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return 0, false
		}
		return uint64(s.Dev), true //nolint:unconvert // Dev is int32 on darwin
	}
	d, ok := dev(abs)
	if !ok {
		return dir
	}
	for {
		parent := filepath.Dir(abs)
		if parent == abs {
			return abs
		}
		if pd, ok := dev(parent); !ok || pd != d {
			return abs
		}
		abs = parent
	}
}

func errorsIsQuota(err error) bool { return errors.Is(err, syscall.EDQUOT) }
