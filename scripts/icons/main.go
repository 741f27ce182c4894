// Command icons writes the desktop icon in the sizes of the freedesktop hicolor theme from
// build/appicon.png, into build/linux/icons/ (committed, installed by scripts/package-deb.sh):
//
//	go run ./scripts/icons            (make icons)
//	go run ./scripts/icons -o DIR     (elsewhere; the freshness test compares the two)
//
// Why Go and not ImageMagick: the result depends only on the source image and this code (no
// tool version, no timestamps in the PNG), so the committed icons are reproducible anywhere
// and a test can tell when they are stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
)

// Sizes are the hicolor sizes installed: 16–48 for menus and panels, 64–512 for launchers and
// software centres.
var Sizes = []int{16, 24, 32, 48, 64, 128, 256, 512}

// Name is the icon's name (the desktop entry's Icon=, the app ID).
const Name = "io.github.strata_app.Strata"

func main() {
	src := flag.String("src", "build/appicon.png", "the source icon (square)")
	out := flag.String("o", "build/linux/icons", "the folder that receives hicolor/<n>x<n>/apps/"+Name+".png")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "icons:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	b := img.Bounds()
	if b.Dx() != b.Dy() {
		return fmt.Errorf("%s is %dx%d: an icon must be square", src, b.Dx(), b.Dy())
	}
	for _, n := range Sizes {
		if n > b.Dx() {
			return fmt.Errorf("%s is %dpx: too small for %dpx", src, b.Dx(), n)
		}
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&buf, scale(img, n)); err != nil {
			return err
		}
		dir := filepath.Join(out, "hicolor", fmt.Sprintf("%dx%d", n, n), "apps")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, Name+".png"), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// scale shrinks the square img to n×n by area averaging: each target pixel is the mean of the
// source area it covers (fractional pixels weighted by their overlap), in premultiplied alpha
// so the transparent corners do not darken the rounded edge.
func scale(img image.Image, n int) *image.NRGBA {
	b := img.Bounds()
	size := b.Dx()
	s := float64(size) / float64(n)
	// Premultiplied source, as floats: read once.
	pre := make([][4]float64, size*size)
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA() // premultiplied, 16-bit
			pre[y*size+x] = [4]float64{float64(r), float64(g), float64(bl), float64(a)}
		}
	}
	dst := image.NewNRGBA(image.Rect(0, 0, n, n))
	for ty := 0; ty < n; ty++ {
		y0, y1 := float64(ty)*s, float64(ty+1)*s
		for tx := 0; tx < n; tx++ {
			x0, x1 := float64(tx)*s, float64(tx+1)*s
			var acc [4]float64
			var area float64
			for sy := int(y0); float64(sy) < y1 && sy < size; sy++ {
				wy := overlap(float64(sy), y0, y1)
				for sx := int(x0); float64(sx) < x1 && sx < size; sx++ {
					w := wy * overlap(float64(sx), x0, x1)
					p := pre[sy*size+sx]
					for i := range acc {
						acc[i] += w * p[i]
					}
					area += w
				}
			}
			a := acc[3] / area
			if a == 0 {
				continue // transparent: NRGBA's zero value
			}
			un := func(v float64) uint8 { return uint8(min(255, v/area/a*255+0.5)) }
			dst.SetNRGBA(tx, ty, color.NRGBA{R: un(acc[0]), G: un(acc[1]), B: un(acc[2]), A: uint8(a/0xffff*255 + 0.5)})
		}
	}
	return dst
}

// overlap is how much of the source pixel [p, p+1) lies in [lo, hi).
func overlap(p, lo, hi float64) float64 {
	return max(0, min(p+1, hi)-max(p, lo))
}
