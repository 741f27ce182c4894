package watch

import (
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/strata-app/strata/backend/paths"
)

// IgnoreFileName is the per-directory file of gitignore-style patterns. Its patterns apply to
// the directory it sits in and everything below it.
const IgnoreFileName = ".strataignore"

// maxIgnoreFileSize bounds how much of a .strataignore is read, so a huge file put there by
// mistake cannot stall every lookup.
const maxIgnoreFileSize = 1 << 20

// Ignorer decides what is never watched or ingested: version-control and dependency folders,
// hidden files and folders, editor and download temp files, configured paths (Strata's own data
// folder, which would otherwise ingest its own database), and patterns from .strataignore files.
//
// The built-in rules are defaults: a "!" pattern in a .strataignore can bring a hidden folder
// back (say "!.github/"). Excluded paths cannot be brought back.
//
// Callers never descend into an ignored directory, so Ignored judges a path by its own name and
// by the patterns that apply to it, not by its ancestors; IgnoredUnder checks every component.
//
// An Ignorer caches the .strataignore of every directory it has consulted (including the absent
// ones) and is safe for concurrent use. The watcher and walks notice when a .strataignore under
// a root changes and reload it; one above a root is read once.
type Ignorer struct {
	exclude []string

	mu    sync.Mutex
	cache map[string]*ruleFile // directory → its .strataignore
}

// ruleFile is one directory's parsed .strataignore with the stat it was read at, so a walk can
// tell whether it changed without reading it again.
type ruleFile struct {
	present bool
	size    int64
	mtime   time.Time
	rules   []rule
}

// NewIgnorer returns an Ignorer with the built-in rules that also ignores excludePaths and
// everything under them. Relative paths are made absolute against the working directory.
func NewIgnorer(excludePaths ...string) *Ignorer {
	ig := &Ignorer{cache: map[string]*ruleFile{}}
	for _, p := range excludePaths {
		if p == "" {
			continue
		}
		p = absClean(p)
		ig.exclude = append(ig.exclude, p)
		// The data folder may be reached through a symlink; exclude its real location too.
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			ig.exclude = append(ig.exclude, real)
		}
	}
	return ig
}

// Ignored reports whether path (a file, or a directory when isDir) is to be left alone.
func (ig *Ignorer) Ignored(p string, isDir bool) bool {
	p = absClean(p)
	if ig.excluded(p) {
		return true
	}
	ignored := builtinIgnored(filepath.Base(p), isDir)
	// Shallower files first, so a deeper .strataignore has the last word, as in git.
	for _, dir := range ancestors(filepath.Dir(p)) {
		rf := ig.rulesFor(dir)
		if rf == nil || len(rf.rules) == 0 {
			continue
		}
		rel, _ := paths.Host.Rel(dir, p) // dir is one of p's own ancestors
		rel = filepath.ToSlash(rel)
		for _, r := range rf.rules {
			if r.match(rel, isDir) {
				ignored = !r.negate
			}
		}
	}
	return ignored
}

// IgnoredUnder reports whether p, somewhere below root, is ignored itself or lies inside an
// ignored directory. It is for paths that arrive from outside a walk (a path named by an AI
// client, a row in the store) where the ancestors have not been judged yet.
func (ig *Ignorer) IgnoredUnder(root, p string, isDir bool) bool {
	root, p = absClean(root), absClean(p)
	if ig.excluded(p) {
		return true
	}
	rel, ok := paths.Host.Rel(root, p)
	if !ok || rel == "." {
		return ig.Ignored(p, isDir)
	}
	cur := root
	parts := strings.Split(rel, string(filepath.Separator))
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		last := i == len(parts)-1
		if ig.Ignored(cur, !last || isDir) {
			return true
		}
	}
	return false
}

// excluded reports whether p is an excluded path or below one.
func (ig *Ignorer) excluded(p string) bool {
	for _, ex := range ig.exclude {
		if paths.Host.Within(p, ex) {
			return true
		}
	}
	return false
}

// rulesFor returns dir's .strataignore, reading it on first use.
func (ig *Ignorer) rulesFor(dir string) *ruleFile {
	ig.mu.Lock()
	defer ig.mu.Unlock()
	if rf, ok := ig.cache[dir]; ok {
		return rf
	}
	rf := loadRuleFile(dir)
	ig.cache[dir] = rf
	return rf
}

// invalidate forgets dir's .strataignore so the next lookup reads it again.
func (ig *Ignorer) invalidate(dir string) {
	ig.mu.Lock()
	delete(ig.cache, dir)
	ig.mu.Unlock()
}

// sync is called by walks with the .strataignore found in dir's listing (nil when there is
// none); it reloads the file when that differs from what is cached. This is how polling and
// reconciliation pick up an edited .strataignore without a notification.
func (ig *Ignorer) sync(dir string, info fs.FileInfo) {
	ig.mu.Lock()
	defer ig.mu.Unlock()
	rf, ok := ig.cache[dir]
	if !ok {
		return // read lazily when first needed
	}
	if info == nil {
		if rf.present {
			delete(ig.cache, dir)
		}
		return
	}
	if !rf.present || rf.size != info.Size() || !rf.mtime.Equal(info.ModTime()) {
		delete(ig.cache, dir)
	}
}

// loadRuleFile reads dir's .strataignore. A missing or unreadable file means no patterns: an
// unreadable ignore file must not stop a folder from being watched.
func loadRuleFile(dir string) *ruleFile {
	name := filepath.Join(dir, IgnoreFileName)
	f, err := os.Open(name)
	if err != nil {
		return &ruleFile{}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return &ruleFile{}
	}
	buf := make([]byte, min(info.Size(), maxIgnoreFileSize))
	n, _ := io.ReadFull(f, buf)
	return &ruleFile{present: true, size: info.Size(), mtime: info.ModTime(), rules: parseRules(string(buf[:n]), paths.Host.FoldsCase())}
}

// builtinIgnored holds the rules every root gets. They match names, not paths, so they work at
// any depth.
func builtinIgnored(name string, isDir bool) bool {
	return builtinTemp(name, isDir) || !isDir && Asset(name)
}

// Asset reports whether a file name is an asset of a site or an app rather than a document:
// a font, an image, audio, video, an archive, minified JavaScript or CSS, a source map, or a
// search index a site generator wrote. A watched copy of a generated website is mostly these:
// they are not read (none holds text to search, and each used to become a "failed" document
// or a suggestion pairing two search indexes); a folder's status says how many it skipped, and
// a .strataignore pattern with "!" brings a kind back.
func Asset(name string) bool {
	lower := strings.ToLower(name)
	switch filepath.Ext(lower) {
	case ".woff", ".woff2", ".ttf", ".otf", ".eot", // fonts
		".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".ico", ".tif", ".tiff", ".heic", ".heif", ".avif", ".svg", ".psd", // images
		".mp3", ".wav", ".ogg", ".oga", ".flac", ".m4a", ".aac", ".opus", ".wma", // audio
		".mp4", ".m4v", ".mov", ".avi", ".mkv", ".webm", ".wmv", ".flv", // video
		".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".zst", ".lz", ".lzma", ".jar", ".whl", ".deb", ".rpm", ".dmg", ".iso", // archives
		".map": // source maps
		return true
	}
	for _, suf := range []string{".min.js", ".min.css", ".min.mjs", ".bundle.js", ".chunk.js"} {
		if strings.HasSuffix(lower, suf) {
			return true
		}
	}
	base := strings.TrimSuffix(lower, filepath.Ext(lower))
	for _, pre := range []string{"searchindex", "search-index", "search_index", "lunr-index", "elasticlunr", "pagefind"} {
		if strings.HasPrefix(base, pre) {
			return true
		}
	}
	return false
}

// IgnoredAsset reports whether a file Ignored leaves out is an asset (see Asset) that no
// .strataignore brings back: what an import and a watched folder count apart from the files
// left out by other rules.
func (ig *Ignorer) IgnoredAsset(p string) bool {
	return Asset(filepath.Base(p)) && ig.Ignored(p, false)
}

// builtinTemp is the rules for hidden, temporary and dependency files and folders.
func builtinTemp(name string, isDir bool) bool {
	if strings.HasPrefix(name, ".") {
		// Hidden files and folders: .git, .DS_Store, vim's .x.swp, emacs' .#x locks,
		// LibreOffice's .~lock.x#, gedit's .goutputstream-*, atomic-save temps like .x.tmp123.
		return true
	}
	if isDir {
		return name == "node_modules"
	}
	switch {
	case strings.HasSuffix(name, "~"), // vim/emacs backups
		strings.HasPrefix(name, "~$"), // Office owner/lock files
		name == "4913",                // vim's probe for a writable directory
		len(name) > 1 && name[0] == '#' && name[len(name)-1] == '#',                      // emacs auto-save
		strings.HasSuffix(name, "___jb_tmp___"), strings.HasSuffix(name, "___jb_old___"), // JetBrains safe write
		strings.EqualFold(name, "Thumbs.db"):
		return true
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".tmp", ".swp", ".swo", ".swx", ".kate-swp", ".part", ".crdownload":
		return true
	}
	return false
}

// rule is one .strataignore line. segs is the pattern split on "/", where "**" stands for any
// number of directories; a pattern without a slash gets a leading "**" so it matches at any
// depth, as in git.
type rule struct {
	segs    []string
	negate  bool
	dirOnly bool
	fold    bool // segs are lower case, and names are lowered before matching
}

// parseRules parses gitignore syntax: comments, "!" negation, trailing "/" for directories,
// a leading or inner "/" anchoring the pattern to the file's directory, "*", "?", "[…]" and
// "**". Lines that do not parse as a pattern are skipped rather than matching by accident.
// With fold (Windows, macOS), patterns match names whatever their case, as git's
// core.ignorecase does there: "build/" must keep out the folder Finder shows as "Build".
func parseRules(text string, fold bool) []rule {
	var rules []rule
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
			line = line[:len(line)-1]
		}
		if line == "" || line[0] == '#' {
			continue
		}
		r := rule{fold: fold}
		if fold {
			line = strings.ToLower(line)
		}
		switch {
		case line[0] == '!':
			r.negate = true
			line = line[1:]
		case strings.HasPrefix(line, `\!`), strings.HasPrefix(line, `\#`):
			line = line[1:]
		}
		for strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = line[:len(line)-1]
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		if !anchored {
			r.segs = append(r.segs, "**")
		}
		valid := true
		for _, s := range strings.Split(strings.TrimPrefix(line, "/"), "/") {
			if s == "" || (s == "**" && len(r.segs) > 0 && r.segs[len(r.segs)-1] == "**") {
				continue
			}
			if _, err := path.Match(s, ""); err != nil {
				valid = false
				break
			}
			r.segs = append(r.segs, s)
		}
		if valid && len(r.segs) > 0 {
			rules = append(rules, r)
		}
	}
	return rules
}

// match reports whether rel (slash-separated, relative to the .strataignore's directory)
// matches the rule.
func (r rule) match(rel string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if r.fold {
		rel = strings.ToLower(rel)
	}
	return matchSegs(r.segs, strings.Split(rel, "/"))
}

// matchSegs matches pattern segments against path segments. An inner or leading "**" matches
// zero or more segments; a trailing "**" matches one or more (everything inside, as git does).
func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return len(name) > 0
			}
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// ancestors lists dir and its ancestors, outermost first.
func ancestors(dir string) []string {
	var out []string
	for {
		out = append(out, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// absClean makes p absolute and clean; if the working directory is gone it settles for clean.
func absClean(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}
