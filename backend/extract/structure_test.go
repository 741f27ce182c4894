package extract

import "testing"

func TestSourceMapOffsetsAndLines(t *testing.T) {
	src := "<h1>Title</h1>\n<p>one\ntwo</p>\n"
	m := NewSourceMap(src)
	// Text "Title\n\none\ntwo": "Title" from 4, "one\ntwo" from 18.
	m.Add(0, 4, 5)
	m.Add(7, 18, 7)
	d := &Document{Text: "Title\n\none\ntwo", Source: m}
	for _, c := range []struct{ off, src, line int }{
		{0, 4, 1}, {4, 8, 1}, {5, 18, 2}, {7, 18, 2}, {11, 22, 3}, {13, 24, 3},
	} {
		if got := d.SourceOffset(c.off); got != c.src {
			t.Errorf("SourceOffset(%d) = %d, want %d", c.off, got, c.src)
		}
		if got := d.SourceLine(c.off); got != c.line {
			t.Errorf("SourceLine(%d) = %d, want %d", c.off, got, c.line)
		}
	}
	plain := &Document{Text: "a\nb\nc"}
	if plain.SourceOffset(3) != 3 || plain.SourceLine(4) != 3 {
		t.Fatalf("without a map Text is the source: %d %d", plain.SourceOffset(3), plain.SourceLine(4))
	}
}

func TestProse(t *testing.T) {
	d := &Document{Text: "see `x := 1` and http://a/b here", Regions: []Region{{4, 12, RegionCode}, {17, 27, RegionLink}}}
	for _, c := range []struct {
		s, e int
		want bool
	}{{0, 3, true}, {3, 5, false}, {12, 17, true}, {20, 22, false}, {27, 32, true}} {
		if got := d.Prose(c.s, c.e); got != c.want {
			t.Errorf("Prose(%d,%d) = %v, want %v", c.s, c.e, got, c.want)
		}
	}
}
