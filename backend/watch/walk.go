package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/strata-app/strata/backend/paths"
)

// ErrSymlinkLoop marks a symlinked directory that leads back to one of its own ancestors.
var ErrSymlinkLoop = errors.New("symlink loop")

// Skip is one path a walk could not visit.
type Skip struct {
	Path string
	Err  error
}

// SkipError is what Walk returns when it visited everything it could but had to leave some
// paths out (unreadable directories, symlink loops, dangling links). The walk is complete
// apart from those; callers typically report them and carry on.
type SkipError struct {
	Root    string
	Skipped []Skip
}

func (e *SkipError) Error() string {
	if len(e.Skipped) == 1 {
		return fmt.Sprintf("walk %s: skipped %s: %v", e.Root, e.Skipped[0].Path, e.Skipped[0].Err)
	}
	return fmt.Sprintf("walk %s: skipped %d paths, first %s: %v", e.Root, len(e.Skipped), e.Skipped[0].Path, e.Skipped[0].Err)
}

// Walk calls fn for every regular file under root that ig does not ignore, in lexical order
// within each directory; it is what `strata ingest DIR` and start-up reconciliation use, so
// that they see exactly the files the watcher would report. A nil ig means NewIgnorer().
//
// Symlinks to files are reported at the link's path with the target's FileInfo. Symlinks to
// directories outside root are followed (a person links a folder in on purpose); ones that
// point inside root are not, since the target is visited at its real path anyway; ones that
// lead back to an ancestor are loops and are reported in a *SkipError.
//
// fn returning fs.SkipAll stops the walk without error; any other error from fn, or ctx being
// done, stops it and is returned wrapped.
func Walk(ctx context.Context, root string, ig *Ignorer, fn func(path string, info fs.FileInfo) error) error {
	return walkWith(ctx, root, ig, fn, nil)
}

// Ignored is what a walk left out by the ignore rules: files, and folders (whose contents are
// not looked at, so not counted); Assets are the files among them left out as assets (fonts,
// images, media, archives, minified code, source maps, search indexes: Asset).
type Ignored struct {
	Files   int `json:"files"`
	Folders int `json:"folders"`
	Assets  int `json:"assets"`
}

// WalkCounting is Walk that also counts what the ignore rules left out, so an import can say
// how many files it skipped on purpose.
func WalkCounting(ctx context.Context, root string, ig *Ignorer, fn func(path string, info fs.FileInfo) error) (Ignored, error) {
	var n Ignored
	if ig == nil {
		ig = NewIgnorer()
	}
	err := walkWith(ctx, root, ig, fn, func(p string, dir bool) {
		switch {
		case dir:
			n.Folders++
		case ig.IgnoredAsset(p):
			n.Assets++
		default:
			n.Files++
		}
	})
	return n, err
}

func walkWith(ctx context.Context, root string, ig *Ignorer, fn func(path string, info fs.FileInfo) error, ignored func(path string, dir bool)) error {
	root = absClean(root)
	if ig == nil {
		ig = NewIgnorer()
	}
	var skipped []Skip
	wk := &walker{
		ctx:       ctx,
		ig:        ig,
		onFile:    fn,
		onSkip:    func(p string, err error) { skipped = append(skipped, Skip{Path: p, Err: err}) },
		onIgnored: ignored,
	}
	if err := wk.walk(root, root); err != nil {
		if errors.Is(err, fs.SkipAll) {
			return nil
		}
		return fmt.Errorf("walk %s: %w", root, err)
	}
	if len(skipped) > 0 {
		return &SkipError{Root: root, Skipped: skipped}
	}
	return nil
}

// errSkipDir from onDir leaves a directory out of the walk without ending it.
var errSkipDir = errors.New("skip directory")

// fileKey identifies a directory across the different paths that reach it. Where the system
// has no inode numbers the resolved path stands in.
type fileKey struct {
	dev, ino uint64
	path     string
}

func keyOf(p string, info fs.FileInfo) fileKey {
	if dev, ino, ok := sysIDs(info); ok {
		return fileKey{dev: dev, ino: ino}
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return fileKey{path: p}
}

// walker is the one tree walk behind Walk, the watcher's initial scan, its rescans and its
// polling, so all of them agree on what is ignored and which symlinks are followed.
type walker struct {
	ctx context.Context
	ig  *Ignorer
	// onDir is called for each directory before it is listed (the watcher adds its watch
	// there, so nothing created during the listing is missed); errSkipDir leaves it out.
	onDir  func(dir string, key fileKey) error
	onFile func(path string, info fs.FileInfo) error
	onSkip func(path string, err error)
	// onIgnored hears each file and folder the ignore rules leave out (WalkCounting).
	onIgnored func(path string, dir bool)

	realRoot string
	visited  map[fileKey]bool
}

// walk walks the tree at dir, which is root or a directory below it; root decides which
// symlinks lead outside. A dir that does not exist or is not a directory is an error.
func (wk *walker) walk(root, dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%s: %w", dir, syscall.ENOTDIR)
	}
	wk.realRoot = realPath(root)
	wk.visited = map[fileKey]bool{}
	key := keyOf(dir, info)
	wk.visited[key] = true
	return wk.dir(dir, key, true)
}

func (wk *walker) skip(p string, err error) {
	if wk.onSkip != nil {
		wk.onSkip(p, err)
	}
}

func (wk *walker) ignored(p string, dir bool) {
	if wk.onIgnored != nil {
		wk.onIgnored(p, dir)
	}
}

func (wk *walker) dir(dir string, key fileKey, top bool) error {
	if err := wk.ctx.Err(); err != nil {
		return err
	}
	if wk.onDir != nil {
		if err := wk.onDir(dir, key); err != nil {
			if errors.Is(err, errSkipDir) {
				return nil
			}
			return err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if top {
			return err
		}
		if !errors.Is(err, fs.ErrNotExist) { // gone since it was listed: nothing to report
			wk.skip(dir, err)
		}
		// ReadDir returns what it read before failing; visit that.
	}
	var ignoreFile fs.FileInfo
	for _, e := range entries {
		if e.Name() == IgnoreFileName {
			ignoreFile, _ = e.Info()
		}
	}
	wk.ig.sync(dir, ignoreFile)

	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		typ := e.Type()
		var info fs.FileInfo
		linked := typ&fs.ModeSymlink != 0
		if linked {
			info, err = os.Stat(p)
			if err != nil {
				switch {
				case errors.Is(err, syscall.ELOOP):
					wk.skip(p, fmt.Errorf("%w: %v", ErrSymlinkLoop, err))
				case errors.Is(err, fs.ErrNotExist):
					if _, lerr := os.Lstat(p); lerr == nil { // still there: a dangling link
						wk.skip(p, fmt.Errorf("dangling symlink: %w", err))
					}
				default:
					wk.skip(p, err)
				}
				continue
			}
		} else if typ.IsDir() || typ.IsRegular() {
			if info, err = e.Info(); err != nil {
				continue // removed since the listing
			}
		} else {
			continue // devices, sockets, pipes
		}

		switch {
		case info.IsDir():
			if wk.ig.Ignored(p, true) {
				wk.ignored(p, true)
				continue
			}
			sub := keyOf(p, info)
			if linked {
				follow, err := followDir(wk.realRoot, dir, p)
				if err != nil {
					wk.skip(p, err)
				}
				if !follow {
					continue
				}
			}
			if wk.visited[sub] {
				continue // reached already through another link or a bind mount
			}
			wk.visited[sub] = true
			if err := wk.dir(p, sub, false); err != nil {
				return err
			}
		case info.Mode().IsRegular():
			if wk.ig.Ignored(p, false) {
				wk.ignored(p, false)
				continue
			}
			if wk.onFile != nil {
				if err := wk.onFile(p, info); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// followDir decides whether the symlinked directory link (inside dir, under the root whose
// resolved path is realRoot) is walked. A non-nil error means the link is reported as skipped.
func followDir(realRoot, dir, link string) (bool, error) {
	target, err := filepath.EvalSymlinks(link)
	if err != nil {
		return false, err
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		realDir = dir
	}
	if paths.Host.Within(realDir, target) {
		return false, fmt.Errorf("%w: %s points to its own ancestor %s", ErrSymlinkLoop, link, target)
	}
	if paths.Host.Within(target, realRoot) {
		return false, nil // inside the root: walked at its real path
	}
	return true, nil
}

// realPath resolves the symlinks in p, or returns p if that fails.
func realPath(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// isNotDir reports whether err says a path component is not a directory.
func isNotDir(err error) bool {
	return errors.Is(err, syscall.ENOTDIR) || strings.Contains(err.Error(), "not a directory")
}
