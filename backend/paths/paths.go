// Package paths compares file-system paths the way the operating system that holds them does.
//
// Why a package of its own: Strata decides many things by comparing paths — whether a file an
// AI client names lies inside a shared folder or Strata's data folder, whether a folder is
// already watched, which documents a reconcile pass owns, what is a generated document — and
// each place used to compare strings with a "/"-prefix test of its own. That is right on Linux
// and wrong elsewhere: on Windows `C:\Notes`, `c:/notes`, `\\?\C:\Notes` and `C:\Notes.` name
// one folder, and a UNC share `\\server\share` is a volume; on macOS `~/Notes` and `~/notes`
// are one folder (APFS and HFS+ ignore case by default) and a name may arrive decomposed (NFD)
// or composed (NFC). A guard that compares bytes there lets `~/.SSH/config` past a rule about
// `.ssh`.
//
// The rules are a value (Linux, Darwin, Windows; Host is this machine's), and every function is
// pure (no file-system access), so Windows' and macOS' behaviour is tested on Linux. They are
// the OS's defaults: a case-sensitive APFS volume or a case-folding ext4 folder exist but are
// rare; callers that grant access by a case-folded match confirm it on the file system
// (engine's path guard, with os.SameFile).
package paths

import (
	"net/url"
	"path"
	"runtime"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Rules is how one operating system spells and compares paths.
type Rules struct {
	name string
	// windows: `\` and `/` both separate, paths start with a volume (C:, \\server\share,
	// \\?\C:), and Win32 drops trailing dots and spaces from names.
	windows bool
	// fold: names that differ only in letter case name the same file.
	fold bool
	// nfc: names are compared in Unicode normal form C (macOS file systems are
	// normalisation-insensitive; Finder and the terminal may hand over NFD).
	nfc bool
}

var (
	// Linux (and every Unix but macOS): "/" separates, bytes compare.
	Linux = Rules{name: "linux"}
	// Darwin is macOS: "/" separates; case and Unicode normalisation are ignored.
	Darwin = Rules{name: "darwin", fold: true, nfc: true}
	// Windows: drive letters, UNC shares, `\\?\` long-path prefixes, either slash; case is ignored.
	Windows = Rules{name: "windows", windows: true, fold: true}
)

// For returns the rules of the operating system goos (runtime.GOOS's names).
func For(goos string) Rules {
	switch goos {
	case "windows":
		return Windows
	case "darwin", "ios":
		return Darwin
	}
	return Linux
}

// Host is this machine's rules.
var Host = For(runtime.GOOS)

// String names the rules ("linux", "darwin", "windows").
func (r Rules) String() string { return r.name }

// FoldsCase reports whether names differing only in case name one file under these rules.
func (r Rules) FoldsCase() bool { return r.fold }

// Exact is these rules without case folding: how paths compare on a case-sensitive volume of
// this OS (APFS can be formatted so). Volumes, separators, long-path prefixes and Unicode
// normalisation are still the OS's.
func (r Rules) Exact() Rules {
	r.fold = false
	return r
}

// Separator is the separator Clean and Join write.
func (r Rules) Separator() string {
	if r.windows {
		return `\`
	}
	return "/"
}

func (r Rules) isSep(c byte) bool { return c == '/' || (r.windows && c == '\\') }

// VolumeName is the leading volume of p: "C:" for `C:\x`, `\\server\share` for a UNC path,
// `\\?\C:` or `\\?\UNC\server\share` for long-path forms; "" under Unix rules.
func (r Rules) VolumeName(p string) string {
	if !r.windows {
		return ""
	}
	return p[:winVolumeLen(p)]
}

// winVolumeLen is the length of p's volume under Windows rules, following Go's
// path/filepath: a drive letter, a UNC share, or a device path (\\?\ and \\.\) with its
// drive or UNC share.
func winVolumeLen(p string) int {
	isSep := func(c byte) bool { return c == '/' || c == '\\' }
	switch {
	case len(p) >= 2 && p[1] == ':' && isLetter(p[0]):
		return 2
	case len(p) < 2 || !isSep(p[0]) || !isSep(p[1]):
		return 0
	}
	// Two separators: \\server\share, \\?\…, \\.\…
	if len(p) >= 4 && (p[2] == '?' || p[2] == '.') && isSep(p[3]) {
		rest := p[4:]
		switch {
		case len(rest) >= 2 && rest[1] == ':' && isLetter(rest[0]):
			return 4 + 2 // \\?\C:
		case len(rest) >= 4 && strings.EqualFold(rest[:3], "UNC") && isSep(rest[3]):
			return 4 + 4 + uncLen(rest[4:]) // \\?\UNC\server\share
		}
		// \\.\pipe, \\?\Volume{…}: the device name is the volume.
		n := 4
		for n < len(p) && !isSep(p[n]) {
			n++
		}
		return n
	}
	return 2 + uncLen(p[2:])
}

// uncLen is the length of "server\share" at the start of s (a server alone counts too, so
// that `\\server` is never read as a rooted path on the current drive).
func uncLen(s string) int {
	isSep := func(c byte) bool { return c == '/' || c == '\\' }
	n := 0
	for n < len(s) && !isSep(s[n]) {
		n++
	}
	if n == len(s) {
		return n
	}
	m := n + 1
	for m < len(s) && !isSep(s[m]) {
		m++
	}
	return m
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// IsAbs reports whether p is absolute: it starts at a root ("/"; a drive's root `C:\`, a UNC
// share, a `\\?\` path). `\x` and `C:x` are not: they depend on the current drive or folder.
func (r Rules) IsAbs(p string) bool {
	if !r.windows {
		return strings.HasPrefix(p, "/")
	}
	v := winVolumeLen(p)
	if v == 0 {
		return false
	}
	if v > 2 || p[1] != ':' { // UNC and device paths are always absolute
		return true
	}
	return len(p) > v && r.isSep(p[v])
}

// Clean is the shortest spelling of p that names the same path lexically, as filepath.Clean
// gives on that OS: separators collapsed (and written as the OS's), "." removed, ".." folded
// into its parent, no trailing separator except at a root. Case is kept.
func (r Rules) Clean(p string) string {
	if !r.windows {
		return path.Clean(p)
	}
	v := winVolumeLen(p)
	vol, rest := strings.ReplaceAll(p[:v], "/", `\`), strings.ReplaceAll(p[v:], `\`, "/")
	if rest == "" {
		switch v {
		case 0:
			return "."
		case 2:
			return vol + "." // C: alone is the current folder on drive C
		}
		return vol // a share or a device alone
	}
	c := path.Clean(rest)
	if v > 2 && !strings.HasPrefix(c, "/") {
		c = "/" + c // a share's paths are always rooted: \\s\sh\x, never \\s\shx
		c = path.Clean(c)
	}
	return vol + strings.ReplaceAll(c, "/", `\`)
}

// Join joins elements with the OS's separator and cleans the result; empty elements are
// skipped.
func (r Rules) Join(elem ...string) string {
	var parts []string
	for _, e := range elem {
		if e != "" {
			parts = append(parts, e)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return r.Clean(strings.Join(parts, r.Separator()))
}

// split cleans p and returns its volume, whether it is rooted, and its names, in p's own
// spelling.
func (r Rules) split(p string) (vol string, rooted bool, names []string) {
	c := r.Clean(p)
	v := 0
	if r.windows {
		v = winVolumeLen(c)
	}
	vol, rest := c[:v], c[v:]
	if len(rest) > 0 && r.isSep(rest[0]) {
		rooted = true
		rest = rest[1:]
	} else if v > 2 {
		rooted = true // a UNC share alone is its own root
	}
	if rest != "" && rest != "." {
		names = strings.FieldsFunc(rest, func(c rune) bool { return c < 0x80 && r.isSep(byte(c)) })
	}
	return vol, rooted, names
}

// volumeKey is the volume as compared: long-path and device prefixes dropped (\\?\C: is C:,
// \\?\UNC\s\sh is \\s\sh), case folded.
func (r Rules) volumeKey(vol string) string {
	if vol == "" {
		return ""
	}
	v := strings.ReplaceAll(vol, "/", `\`)
	if len(v) >= 4 && (v[2] == '?' || v[2] == '.') && v[3] == '\\' {
		rest := v[4:]
		switch {
		case len(rest) >= 4 && strings.EqualFold(rest[:4], `UNC\`):
			v = `\\` + rest[4:]
		case len(rest) == 2 && rest[1] == ':':
			v = rest
		}
	}
	return strings.ToLower(v)
}

// NameKey is a file name as compared: case folded where the OS ignores case, composed (NFC)
// on macOS, without the trailing dots and spaces Windows drops. Two names with the same key
// name the same file.
func (r Rules) NameKey(name string) string {
	if r.windows && name != "." && name != ".." {
		name = strings.TrimRight(name, ". ")
	}
	if r.nfc && !isASCII(name) {
		name = norm.NFC.String(name)
	}
	if r.fold {
		name = strings.ToLower(name)
	}
	return name
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Key is p as compared: cleaned, with its volume and every name in their key form and the
// OS's separator. Two paths with equal keys name the same path (lexically); use it for map
// keys and sets of paths.
func (r Rules) Key(p string) string {
	if !r.windows && !r.fold && !r.nfc {
		return path.Clean(p) // the byte comparison of Unix, without splitting
	}
	vol, rooted, names := r.split(p)
	if !rooted && vol == "" && len(names) == 0 {
		return "."
	}
	var b strings.Builder
	b.WriteString(r.volumeKey(vol))
	if rooted {
		b.WriteString(r.Separator())
	}
	for i, n := range names {
		if i > 0 {
			b.WriteString(r.Separator())
		}
		b.WriteString(r.NameKey(n))
	}
	return b.String()
}

// Equal reports whether a and b name the same path under these rules.
func (r Rules) Equal(a, b string) bool {
	if a == b {
		return true
	}
	return r.Key(a) == r.Key(b)
}

// Within reports whether p is dir or lies below it, lexically (resolve symlinks first where
// that matters). "/a/bc" is not within "/a/b"; every path on a volume is within its root.
func (r Rules) Within(p, dir string) bool {
	_, ok := r.Rel(dir, p)
	return ok
}

// Inside reports whether p lies strictly below dir.
func (r Rules) Inside(p, dir string) bool {
	rel, ok := r.Rel(dir, p)
	return ok && rel != "."
}

// Rel is p relative to dir when p is dir or below it: the rest of p's names in p's own
// spelling, joined by the OS's separator ("." when p is dir). ok is false when p is not
// within dir, or when one is absolute and the other not.
func (r Rules) Rel(dir, p string) (rel string, ok bool) {
	_, rest, ok := r.cut(p, dir)
	return rest, ok
}

// Prefix is the leading part of p that names dir, in p's own spelling (cleaned), when p is
// within dir. A caller that must know the file system agrees — a case-folded match on a
// volume that might be case-sensitive — can compare Prefix with dir on disk (os.SameFile).
func (r Rules) Prefix(p, dir string) (string, bool) {
	pre, _, ok := r.cut(p, dir)
	return pre, ok
}

// cut splits p into the part that names dir and the rest.
func (r Rules) cut(p, dir string) (prefix, rest string, ok bool) {
	if !r.windows && !r.fold && !r.nfc {
		// Unix rules: byte comparison on cleaned paths, without splitting (the watcher asks
		// this for every event).
		p, dir = path.Clean(p), path.Clean(dir)
		switch {
		case p == dir:
			return p, ".", true
		case dir == "/":
			if strings.HasPrefix(p, "/") {
				return "/", p[1:], true
			}
			return "", "", false
		case dir == ".":
			if !strings.HasPrefix(p, "/") && p != ".." && !strings.HasPrefix(p, "../") {
				return ".", p, true
			}
			return "", "", false
		case len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir:
			return dir, p[len(dir)+1:], true
		}
		return "", "", false
	}
	pv, prooted, pn := r.split(p)
	dv, drooted, dn := r.split(dir)
	if prooted != drooted || r.volumeKey(pv) != r.volumeKey(dv) || len(pn) < len(dn) {
		return "", "", false
	}
	if !drooted && len(dn) == 0 && len(pn) > 0 && pn[0] == ".." {
		return "", "", false // ".." is not within "."
	}
	for i, n := range dn {
		if r.NameKey(n) != r.NameKey(pn[i]) {
			return "", "", false
		}
	}
	sep := r.Separator()
	prefix = pv
	if prooted {
		prefix += sep
	}
	prefix += strings.Join(pn[:len(dn)], sep)
	if prefix == "" {
		prefix = "."
	}
	rest = strings.Join(pn[len(dn):], sep)
	if rest == "" {
		rest = "."
	}
	return prefix, rest, true
}

// Names are p's names after its volume and root, in p's spelling (cleaned): the folders and
// the file that a rule about a folder's name (".ssh") must check.
func (r Rules) Names(p string) []string {
	_, _, names := r.split(p)
	return names
}

// FileURL is p (absolute) as a file:// URL: /a/b → file:///a/b, C:\a → file:///C:/a,
// \\server\share\a → file://server/share/a.
func (r Rules) FileURL(p string) string {
	u := url.URL{Scheme: "file"}
	if !r.windows {
		u.Path = r.Clean(p)
		if !strings.HasPrefix(u.Path, "/") {
			u.Path = "/" + u.Path
		}
		return u.String()
	}
	vol, _, names := r.split(p)
	key := r.volumeKey(vol) // drop \\?\ and \\?\UNC\ …
	rest := strings.Join(names, "/")
	switch {
	case strings.HasPrefix(key, `\\`): // a share: the server is the URL's host
		// The key is folded; take the server and share from the spelling given.
		v := strings.ReplaceAll(vol, "/", `\`)
		if len(v) >= 8 && (v[2] == '?' || v[2] == '.') && strings.EqualFold(v[4:8], `UNC\`) {
			v = `\\` + v[8:]
		}
		server, share, _ := strings.Cut(v[2:], `\`)
		u.Host = server
		u.Path = "/" + share
		if rest != "" {
			u.Path += "/" + rest
		}
	case vol != "":
		drive := vol[len(vol)-2:]
		u.Path = "/" + drive + "/" + rest
	default:
		u.Path = "/" + rest
	}
	return u.String()
}

// ConfigHome is where a person's settings live by the XDG Base Directory spec: xdg
// ($XDG_CONFIG_HOME) when it is absolute (the spec says to ignore a relative one), else
// home/.config. ok is false when neither is usable (home unset or relative, which would name a
// folder under the working directory).
func (r Rules) ConfigHome(home, xdg string) (string, bool) {
	if r.IsAbs(xdg) {
		return xdg, true
	}
	if !r.IsAbs(home) {
		return "", false
	}
	return r.Join(home, ".config"), true
}
