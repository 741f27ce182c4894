package answer

import (
	"slices"
	"strings"
	"testing"
)

func TestMarkers(t *testing.T) {
	for _, c := range []struct {
		in    string
		cites []int
		text  string
	}{
		{"It returns a Promise [2].", []int{2}, "It returns a Promise."},
		{"Both say so [1, 3][2].", []int{1, 3, 2}, "Both say so."},
		{"A range [2-4] and a repeat [3].", []int{2, 3, 4}, "A range and a repeat."},
		{"No citation here.", nil, "No citation here."},
		{"An index like a[0] is no marker [1].", []int{1}, "An index like a[0] is no marker."},
	} {
		cites, text := Markers(c.in)
		if !slices.Equal(cites, c.cites) || text != c.text {
			t.Errorf("%q: %v %q, want %v %q", c.in, cites, text, c.cites, c.text)
		}
	}
}

func TestSplitAnswer(t *testing.T) {
	got := SplitAnswer("The fs.readFile() method reads a file. [1] It returns a Promise [2]. E.g. this one has no citation.\n\n- A listed point [3]\n## Heading [4]")
	want := []string{"The fs.readFile() method reads a file [1].", "It returns a Promise [2].", "E.g. this one has no citation.", "A listed point [3]", "Heading [4]"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("%q", got)
	}
}

func TestEscapeMarkers(t *testing.T) {
	got := EscapeMarkers("read How to use bzip2 [2] as well, or [1, 3], not a[0]")
	if got != `read How to use bzip2 \[2\] as well, or \[1, 3\], not a\[0\]` {
		t.Fatalf("%s", got)
	}
	if cites, _ := Markers(got + " [4]."); len(cites) != 1 || cites[0] != 4 {
		t.Fatalf("escaped markers must not count: %v", cites)
	}
}
