package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// failAfter yields n bytes of data, then fails: a disk that fills up half way.
type failAfter struct{ n int }

func (f *failAfter) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk full")
	}
	k := min(len(p), f.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	f.n -= k
	return k, nil
}

func TestWriteReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	if err := Write(path, bytes.NewReader([]byte("old")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, bytes.NewReader([]byte("new content")), 0o640); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "new content" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640", st.Mode().Perm())
	}
	assertOnly(t, dir, "a.txt")
}

func TestFailedWriteLeavesNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "upload.pdf")
	err := Write(path, io.MultiReader(&failAfter{n: 100_000}), 0o600)
	if err == nil {
		t.Fatal("a failing reader must fail the write")
	}
	assertOnly(t, dir)

	// An existing file survives a failed replacement unchanged.
	if err := Write(path, bytes.NewReader([]byte("kept")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, &failAfter{n: 10}, 0o600); err == nil {
		t.Fatal("a failing reader must fail the write")
	}
	if b, _ := os.ReadFile(path); string(b) != "kept" {
		t.Fatalf("the old file changed to %q", b)
	}
	assertOnly(t, dir, "upload.pdf")
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("folder holds %v, want %v", got, names)
	}
	for i := range names {
		if got[i] != names[i] {
			t.Fatalf("folder holds %v, want %v", got, names)
		}
	}
}
