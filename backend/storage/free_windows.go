//go:build windows

package storage

import (
	"errors"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// FreeBytes is the space the current user may still use on dir's volume.
func FreeBytes(dir string) (uint64, bool) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, false
	}
	var avail, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(p, &avail, &total, &free); err != nil {
		return 0, false
	}
	return avail, true
}

// MountPoint is dir's volume (C:\), or dir when it cannot be told.
func MountPoint(dir string) string {
	if v := filepath.VolumeName(dir); v != "" {
		return v + `\`
	}
	return dir
}

func errorsIsQuota(err error) bool {
	return errors.Is(err, windows.ERROR_DISK_FULL) || errors.Is(err, windows.ERROR_HANDLE_DISK_FULL)
}
