package engine

import (
	"os"
	"strings"

	"github.com/strata-app/strata/backend/paths"
)

// folderFilter is the path prefix that a path filter (the Library's folder, `--path`, search's
// path) stands for. A filter naming a folder that exists means that folder: its separator is
// added, so "/a/notes" no longer takes in "/a/notes2/…" or "/a/notes-old.md". Anything else (a
// file, part of a name, a folder gone from the disk) stays the plain prefix it was typed as.
func folderFilter(p string) string {
	if p == "" || strings.HasSuffix(p, "/") || strings.HasSuffix(p, paths.Host.Separator()) {
		return p
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return p + paths.Host.Separator()
	}
	return p
}
