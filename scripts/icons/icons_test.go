package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestIconsAreFresh: the committed icons are what this program makes from build/appicon.png
// today, in every size, each a square PNG of its size (run `make icons` after changing the
// source icon).
func TestIconsAreFresh(t *testing.T) {
	out := t.TempDir()
	if err := run("../../build/appicon.png", out); err != nil {
		t.Fatal(err)
	}
	for _, n := range Sizes {
		rel := filepath.Join("hicolor", fmt.Sprintf("%dx%d", n, n), "apps", Name+".png")
		want, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("../../build/linux/icons", rel))
		if err != nil {
			t.Fatalf("%s is not committed: run `make icons` (%v)", rel, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("build/linux/icons/%s is stale: run `make icons`", rel)
		}
		img, err := png.Decode(bytes.NewReader(got))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if b := img.Bounds(); b.Dx() != n || b.Dy() != n {
			t.Errorf("%s is %dx%d", rel, b.Dx(), b.Dy())
		}
	}
}
