//go:build !unix

package watch

import "io/fs"

// sysIDs has no portable inode here; callers fall back to paths.
func sysIDs(fs.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }
