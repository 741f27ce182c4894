package engine

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/paths"
	"github.com/strata-app/strata/backend/store"
)

// allowedRootsKey is the setting listing folders remote callers may read besides the watched
// folders (JSON array of absolute paths).
const allowedRootsKey = "mcp.allowed_roots"

// secretDirs are folders whose files are never read for a remote caller, wherever they are.
var secretDirs = map[string]bool{".ssh": true, ".gnupg": true, ".aws": true, ".kube": true, ".docker": true,
	".password-store": true, ".azure": true, "gcloud": true, ".terraform.d": true, "keyrings": true}

// secretFile reports whether a file name looks like a credential: keys, certificates with
// keys, dotenv files, netrc and friends.
func secretFile(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case ".env", ".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", "credentials", "credentials.json",
		"known_hosts", "authorized_keys", ".htpasswd":
		return true
	}
	if strings.HasPrefix(n, ".env.") || strings.HasPrefix(n, "id_") {
		return true
	}
	for _, ext := range []string{".pem", ".key", ".p12", ".pfx", ".jks", ".kdbx", ".keystore", ".asc", ".gpg"} {
		if strings.HasSuffix(n, ext) {
			return true
		}
	}
	return false
}

// pathCheck is the rule for the files read on who's behalf during one call. The local user's
// paths are theirs to choose and pass unchanged; a remote caller's go through checkRemotePath,
// whose roots are read once per call (on the first path), so a folder of ten thousand files
// costs one query, and a content ingest none. The check it returns serves one call's goroutine.
func (e *Engine) pathCheck(who Caller) ingest.PathCheck {
	if who.Local() {
		return func(_ context.Context, path string) (string, error) { return path, nil }
	}
	var g *remoteGuard
	return func(ctx context.Context, path string) (string, error) {
		if g == nil {
			var err error
			if g, err = e.newRemoteGuard(ctx); err != nil {
				return "", err
			}
		}
		real, err := g.check(path)
		if err != nil {
			e.log.Info("remote path refused", "caller", who.String(), "path", path, "why", errs.As(err).Message)
		}
		return real, err
	}
}

// checkRemotePath is the rule for file paths that arrive from a remote caller (MCP): the
// path is cleaned and its symlinks resolved, then it must lie inside a watched folder or an
// allowed root, outside Strata's data folder, and must not look like a secret. Anything else is
// FORBIDDEN_PATH, with a hint saying how to allow a folder.
func (e *Engine) checkRemotePath(ctx context.Context, path string) (string, error) {
	g, err := e.newRemoteGuard(ctx)
	if err != nil {
		return "", err
	}
	return g.check(path)
}

// remoteGuard holds what checkRemotePath compares against, resolved once.
type remoteGuard struct {
	data  string   // the data folder, symlinks resolved
	roots []string // watched folders and allowed roots, symlinks resolved
}

func (e *Engine) newRemoteGuard(ctx context.Context) (*remoteGuard, error) {
	roots, err := e.remoteRoots(ctx)
	if err != nil {
		return nil, err
	}
	g := &remoteGuard{}
	g.data, _ = resolve(e.cfg.DataDir) // a data folder that cannot be resolved leaves "", which matches nothing
	for _, r := range roots {
		if rr, err := resolve(r); err == nil { // a root that vanished grants nothing
			g.roots = append(g.roots, rr)
		}
	}
	return g, nil
}

func forbidPath(path, why string) error {
	return errs.New(errs.ForbiddenPath, "%s: %s", path, why).With("path", path).
		WithHint("only files inside watched folders or allowed roots can be read over MCP; add one with `strata watch add DIR` or `strata mcp roots add DIR`")
}

func (g *remoteGuard) check(path string) (string, error) {
	if path == "" || !filepath.IsAbs(path) {
		return "", forbidPath(path, "the path must be absolute")
	}
	real, err := resolve(filepath.Clean(path))
	if err != nil {
		return "", forbidPath(path, "it cannot be resolved")
	}
	return g.judge(paths.Host, real, path, sameFile)
}

// judge is the guard's decision on real (the resolved path of path, which messages name)
// under the rules of one OS, so that Windows' and macOS' decisions are tested on Linux. The
// refusals err on the safe side: the data folder compares as the OS does (on Windows
// C:\Strata is c:\strata), and a secret's name whatever its case on every OS (on macOS ~/.SSH
// is ~/.ssh; a Linux folder may sit on a case-insensitive mount) and in the OS's spelling (a
// trailing dot on Windows, NFD on macOS). A grant that holds only once case is folded is
// confirmed on disk with same, since a macOS volume may be case-sensitive and then ~/Shared and
// ~/SHARED are two folders.
func (g *remoteGuard) judge(rules paths.Rules, real, path string, same func(a, b string) bool) (string, error) {
	if g.data != "" && rules.Within(real, g.data) {
		return "", forbidPath(path, "it is inside Strata's data folder")
	}
	names := rules.Names(real)
	for _, part := range names {
		if secretDirs[strings.ToLower(rules.NameKey(part))] {
			return "", forbidPath(path, "it is inside a folder that holds secrets ("+part+")")
		}
	}
	if len(names) > 0 && secretFile(rules.NameKey(names[len(names)-1])) {
		return "", forbidPath(path, "it looks like a secret (key, certificate or credentials)")
	}
	for _, rr := range g.roots {
		pre, ok := rules.Prefix(real, rr)
		if ok && (rules.Exact().Equal(pre, rr) || same(pre, rr)) {
			return real, nil
		}
	}
	return "", forbidPath(path, "it is outside the watched folders and allowed roots")
}

// sameFile reports whether a and b are one file on disk (a case-folded match of a root).
func sameFile(a, b string) bool {
	ai, err := os.Stat(a)
	if err != nil {
		return false
	}
	bi, err := os.Stat(b)
	return err == nil && os.SameFile(ai, bi)
}

// resolve returns the absolute path with every symlink resolved. For a path that does not
// exist yet, the existing part is resolved and the rest appended, so "a/link/../x" cannot
// slip out through a link.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	dir, base := filepath.Split(abs)
	if dir == abs || base == "" {
		return abs, nil
	}
	parent, err := resolve(filepath.Clean(dir))
	if err != nil {
		return "", err
	}
	return filepath.Join(parent, base), nil
}

// remoteRoots are the watched folders and the allowed roots.
func (e *Engine) remoteRoots(ctx context.Context) ([]string, error) {
	roots, err := store.WatchRoots(ctx, e.db.Reader())
	if err != nil {
		return nil, queryErr(err, "watched folders")
	}
	extra, err := e.AllowedRoots(ctx)
	if err != nil {
		return nil, err
	}
	return append(roots, extra...), nil
}

// AllowedRoots lists the folders remote callers may read besides the watched folders.
func (e *Engine) AllowedRoots(ctx context.Context) ([]string, error) {
	v, err := store.Setting(ctx, e.db.Reader(), allowedRootsKey)
	if err != nil {
		return nil, queryErr(err, "settings")
	}
	roots := []string{}
	if v != "" {
		if err := json.Unmarshal([]byte(v), &roots); err != nil {
			return nil, errs.Wrap(errs.DBQueryFailed, err, "the allowed roots setting is damaged").WithHint("set them again with `strata mcp roots add DIR`")
		}
	}
	return roots, nil
}

// SetAllowedRoot adds (or, with remove, removes) a folder remote callers may read. Only the
// local user may change what is shared: a remote caller that could add a root could read
// anything.
func (e *Engine) SetAllowedRoot(ctx context.Context, who Caller, dir string, remove bool) ([]string, error) {
	if !who.Local() {
		e.log.Info("remote change of allowed roots refused", "caller", who.String(), "path", dir)
		return nil, errs.New(errs.ForbiddenPath, "%s: only the local user can change the allowed roots", dir).With("path", dir).
			WithHint("add the folder yourself with `strata mcp roots add DIR`")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, errs.New(errs.Validation, "cannot resolve %q", dir)
	}
	if !remove {
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, errs.New(errs.Validation, "%s is not a folder", abs).With("path", abs)
		}
	}
	roots, err := e.AllowedRoots(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	found := false
	for _, r := range roots {
		if paths.Host.Equal(r, abs) {
			found = true
			if remove {
				continue
			}
		}
		out = append(out, r)
	}
	switch {
	case remove && !found:
		return nil, errs.New(errs.Validation, "%s is not an allowed root", abs).WithHint("list them with `strata mcp roots`")
	case !remove && !found:
		out = append(out, abs)
	}
	sort.Strings(out)
	b, _ := json.Marshal(out) // a []string always marshals
	err = e.db.WriteTx(ctx, func(tx *store.Tx) error { return store.SetSetting(ctx, tx, allowedRootsKey, string(b)) })
	if err != nil {
		return nil, errs.Wrap(errs.DBInsertFailed, err, "could not save the allowed roots")
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}
