//go:build !(linux || darwin || freebsd || windows)

package storage

// FreeBytes is not measured on this system: the hint then names only the data folder.
func FreeBytes(string) (uint64, bool) { return 0, false }

// MountPoint is dir itself where file systems are not told apart.
func MountPoint(dir string) string { return dir }

func errorsIsQuota(error) bool { return false }
