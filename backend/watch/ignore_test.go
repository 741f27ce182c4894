package watch

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestBuiltinRules(t *testing.T) {
	t.Parallel()
	ig := NewIgnorer("/data/strata")
	for _, tc := range []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"/r/.git", true, true},
		{"/r/node_modules", true, true},
		{"/r/node_modules", false, false}, // a file of that name is content
		{"/r/.hidden", false, true},
		{"/r/.config", true, true},
		{"/r/notes.txt~", false, true},
		{"/r/x.tmp", false, true},
		{"/r/x.TMP", false, true},
		{"/r/.x.swp", false, true},
		{"/r/x.swo", false, true},
		{"/r/x.swx", false, true},
		{"/r/#x.org#", false, true},
		{"/r/#", false, false},
		{"/r/x.part", false, true},
		{"/r/x.crdownload", false, true},
		{"/r/4913", false, true},
		{"/r/.DS_Store", false, true},
		{"/r/Thumbs.db", false, true},
		{"/r/thumbs.db", false, true},
		{"/r/~$budget.xlsx", false, true},
		{"/r/x.txt___jb_tmp___", false, true},
		{"/data/strata", true, true},
		{"/data/strata/strata.db", false, true},
		{"/data/strata-other/x", false, false},
		{"/r/notes.md", false, false},
		{"/r/tmp", true, false},
		{"/r/x.tmp", true, false}, // temp rules are for files
		{"/r/4913.txt", false, false},
	} {
		if got := ig.Ignored(tc.path, tc.isDir); got != tc.want {
			t.Errorf("Ignored(%q, dir=%v) = %v, want %v", tc.path, tc.isDir, got, tc.want)
		}
	}
}

func TestStrataignorePatterns(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, IgnoreFileName), `
# comment
*.log
!important.log
build/
/anchored.txt
docs/*.pdf
**/cache/**
a/**/z.txt
file?.csv
[Tt]emp*
\#literal
\!bang
trailing   
spaced\ 
!.github/
`)
	write(t, filepath.Join(root, "sub", IgnoreFileName), "!keep.log\nlocal.txt\n/rooted.md\n")
	ig := NewIgnorer()
	j := func(p ...string) string { return filepath.Join(append([]string{root}, p...)...) }
	for _, tc := range []struct {
		path  string
		isDir bool
		want  bool
	}{
		{j("x.log"), false, true},
		{j("deep", "er", "x.log"), false, true},
		{j("important.log"), false, false},
		{j("build"), true, true},
		{j("src", "build"), true, true},
		{j("build"), false, false}, // trailing slash: directories only
		{j("anchored.txt"), false, true},
		{j("sub", "anchored.txt"), false, false},
		{j("docs", "a.pdf"), false, true},
		{j("docs", "deeper", "a.pdf"), false, false},
		{j("x", "cache", "y"), false, true},
		{j("x", "cache"), true, false}, // trailing /** matches inside, not the directory
		{j("a", "z.txt"), false, true},
		{j("a", "b", "c", "z.txt"), false, true},
		{j("file1.csv"), false, true},
		{j("file10.csv"), false, false},
		{j("Temporary.md"), false, true},
		{j("temp"), true, true},
		{j("#literal"), false, true},
		{j("!bang"), false, true},
		{j("trailing"), false, true},
		{j("spaced "), false, true},
		{j(".github"), true, false}, // a built-in default brought back
		{j(".gitignore"), false, true},
		{j("sub", "keep.log"), false, false}, // deeper file wins
		{j("sub", "other.log"), false, true},
		{j("sub", "local.txt"), false, true},
		{j("local.txt"), false, false},
		{j("sub", "rooted.md"), false, true},
		{j("sub", "x", "rooted.md"), false, false},
		{j("readme.md"), false, false},
	} {
		if got := ig.Ignored(tc.path, tc.isDir); got != tc.want {
			rel, _ := filepath.Rel(root, tc.path)
			t.Errorf("Ignored(%q, dir=%v) = %v, want %v", rel, tc.isDir, got, tc.want)
		}
	}

	if !ig.IgnoredUnder(root, j("build", "out", "a.txt"), false) {
		t.Error("IgnoredUnder: file inside an ignored directory not ignored")
	}
	if ig.IgnoredUnder(root, j("src", "a.txt"), false) {
		t.Error("IgnoredUnder: plain file ignored")
	}
	if ig.IgnoredUnder(root, root, true) {
		t.Error("IgnoredUnder: the root itself ignored")
	}
}

func TestWalk(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	for _, f := range []string{"a.txt", "sub/b.md", ".git/config", "node_modules/x/y.js", "sub/c.tmp", "skip/d.txt"} {
		write(t, filepath.Join(root, f), "x")
	}
	write(t, filepath.Join(root, IgnoreFileName), "skip/\n")
	write(t, filepath.Join(outside, "linked.txt"), "x")
	must(t, os.Symlink(outside, filepath.Join(root, "outside")))                         // followed
	must(t, os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "sub-again")))    // inside: not
	must(t, os.Symlink(root, filepath.Join(root, "sub", "loop")))                        // loop
	must(t, os.Symlink(filepath.Join(root, "a.txt"), filepath.Join(root, "a-link.txt"))) // file link
	must(t, os.Symlink(filepath.Join(root, "gone"), filepath.Join(root, "dangling")))
	must(t, os.Symlink("self", filepath.Join(root, "self"))) // ELOOP

	var got []string
	err := Walk(context.Background(), root, nil, func(p string, info fs.FileInfo) error {
		rel, _ := filepath.Rel(root, p)
		got = append(got, filepath.ToSlash(rel))
		if !info.Mode().IsRegular() {
			t.Errorf("%s: not a regular file info", rel)
		}
		return nil
	})
	want := []string{"a-link.txt", "a.txt", "outside/linked.txt", "sub/b.md"}
	if !slices.Equal(got, want) {
		t.Errorf("visited %v, want %v", got, want)
	}
	var se *SkipError
	if !errors.As(err, &se) {
		t.Fatalf("Walk = %v, want a *SkipError", err)
	}
	skipped := map[string]error{}
	for _, s := range se.Skipped {
		rel, _ := filepath.Rel(root, s.Path)
		skipped[filepath.ToSlash(rel)] = s.Err
	}
	if !errors.Is(skipped["sub/loop"], ErrSymlinkLoop) || !errors.Is(skipped["self"], ErrSymlinkLoop) {
		t.Errorf("loops not reported as ErrSymlinkLoop: %v", skipped)
	}
	if skipped["dangling"] == nil || len(skipped) != 3 {
		t.Errorf("skipped = %v, want sub/loop, self, dangling", skipped)
	}

	// fn can stop the walk, cleanly with fs.SkipAll, or with its own error.
	n := 0
	must(t, Walk(context.Background(), filepath.Join(root, "sub"), nil, func(string, fs.FileInfo) error {
		n++
		return fs.SkipAll
	}))
	boom := errors.New("boom")
	if err := Walk(context.Background(), root, nil, func(string, fs.FileInfo) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("Walk = %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Walk(ctx, root, nil, func(string, fs.FileInfo) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Walk(cancelled) = %v", err)
	}
	if err := Walk(context.Background(), filepath.Join(root, "missing"), nil, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Walk(missing) = %v", err)
	}
}

// A .strataignore edited between two walks is re-read (that is how polling and reconciliation
// see it without notifications).
func TestWalkRereadsChangedStrataignore(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "a.log"), "x")
	write(t, filepath.Join(root, "b.txt"), "x")
	ig := NewIgnorer()
	count := func() int {
		n := 0
		must(t, Walk(context.Background(), root, ig, func(string, fs.FileInfo) error { n++; return nil }))
		return n
	}
	if n := count(); n != 2 {
		t.Fatalf("walk 1: %d files", n)
	}
	write(t, filepath.Join(root, IgnoreFileName), "*.log\n")
	if n := count(); n != 1 {
		t.Fatalf("walk after adding .strataignore: %d files", n)
	}
	must(t, os.Remove(filepath.Join(root, IgnoreFileName)))
	if n := count(); n != 2 {
		t.Fatalf("walk after removing .strataignore: %d files", n)
	}
}

// TestStrataignoreCase: on file systems that ignore case (Windows, macOS) a pattern matches a
// name whatever its case, as git's core.ignorecase does there; on Linux "build/" leaves "Build"
// alone, since that is another folder.
func TestStrataignoreCase(t *testing.T) {
	t.Parallel()
	const text = "build/\n*.LOG\n!Keep.log\n/Docs/Private/\n[A-C]*.tmp2\n"
	for _, tc := range []struct {
		rel        string
		isDir      bool
		fold, want bool
	}{
		{"Build", true, true, true},
		{"Build", true, false, false},
		{"build", true, false, true},
		{"x.log", false, true, true},
		{"x.log", false, false, false},
		{"X.LOG", false, false, true},
		{"keep.LOG", false, true, false}, // the negation folds too
		{"docs/private", true, true, true},
		{"docs/private", true, false, false},
		{"b.tmp2", false, true, true},
		{"b.tmp2", false, false, false},
	} {
		ignored := false
		for _, r := range parseRules(text, tc.fold) {
			if r.match(tc.rel, tc.isDir) {
				ignored = !r.negate
			}
		}
		if ignored != tc.want {
			t.Errorf("fold=%v: %q ignored = %v, want %v", tc.fold, tc.rel, ignored, tc.want)
		}
	}
}

// Assets of a site or an app (fonts, images, media, archives, minified code, source maps,
// search indexes) are skipped by default and counted apart from the other ignored files; a
// "!" pattern in a .strataignore brings a kind back.
func TestAssetsAreSkippedAndCounted(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"note.md", "site/logo.png", "site/fonts/inter.woff2", "site/app.min.js", "site/searchindex-3f2a.js",
		"site/app.js.map", "site/photos.zip", "site/intro.mp4", "site/page.html", "site/.cache"} {
		write(t, filepath.Join(dir, name), "x")
	}
	var seen []string
	n, err := WalkCounting(context.Background(), dir, NewIgnorer(), func(p string, _ fs.FileInfo) error {
		rel, _ := filepath.Rel(dir, p)
		seen = append(seen, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"note.md", "site/page.html"}; !slices.Equal(seen, want) || n.Assets != 7 || n.Files != 1 {
		t.Fatalf("walked %v, ignored %+v; want %v, 7 assets and 1 other file (.cache)", seen, n, want)
	}
	write(t, filepath.Join(dir, IgnoreFileName), "!*.png\n")
	seen = nil
	n, err = WalkCounting(context.Background(), dir, NewIgnorer(), func(p string, _ fs.FileInfo) error {
		seen = append(seen, filepath.Base(p))
		return nil
	})
	if err != nil || !slices.Contains(seen, "logo.png") || n.Assets != 6 {
		t.Fatalf("with !*.png: walked %v, ignored %+v, %v", seen, n, err)
	}
}
