package extract

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/ledongthuc/pdf"
)

// The library's Page.Content interprets a page for us, but three of its gaps break words:
// it ignores word spacing (Tw), which is how Ghostscript, groff and many others justify
// lines, so every glyph after a space drifts left and words tear apart ("in voices"); it
// knows no widths for CID fonts (what Word, LibreOffice and browsers embed), so glyphs of one
// string all share one X; and it emits a marker glyph after each TJ array that some fonts
// decode as a letter (pdfTeX's "Ω"). It also skips form XObjects and re-parses a font's
// ToUnicode map at every font change, which makes long documents slow. This interpreter runs
// on the library's public content-stream lexer (pdf.Interpret) and font dictionaries, and
// positions glyphs as the PDF specification (§9.4.4) does.

const (
	maxGlyphsPerPage = 2_000_000
	maxFormDepth     = 8
	maxFormCalls     = 2000
	maxGSDepth       = 256
)

var errPageFull = errors.New("page glyph limit reached")

// affine is a PDF transformation matrix [a b c d e f].
type affine [6]float64

var identity = affine{1, 0, 0, 1, 0, 0}

// mul returns m × n (apply m, then n).
func (m affine) mul(n affine) affine {
	return affine{
		m[0]*n[0] + m[1]*n[2],
		m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2],
		m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4],
		m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func translate(x, y float64) affine { return affine{1, 0, 0, 1, x, y} }

// pdfFont is what positioning needs from a font dictionary.
type pdfFont struct {
	enc     pdf.TextEncoding
	twoByte bool      // Type0 fonts: 2-byte codes (Identity-H and the usual CMaps)
	first   int       // simple fonts: code of widths[0]
	widths  []float64 // simple fonts, glyph units
	missing float64   // width of codes outside widths
	cidW    map[int]float64
	cidR    []cidRange
	dw      float64 // CID default width
	scale   float64 // glyph units to text space: 1/1000, or Type3's FontMatrix
	known   bool    // false when the font gives no widths at all
}

type cidRange struct {
	lo, hi int
	w      float64
}

func (f *pdfFont) width(code int) float64 {
	if f.twoByte {
		if w, ok := f.cidW[code]; ok {
			return w
		}
		for _, r := range f.cidR {
			if code >= r.lo && code <= r.hi {
				return r.w
			}
		}
		return f.dw
	}
	if i := code - f.first; i >= 0 && i < len(f.widths) {
		return f.widths[i]
	}
	return f.missing
}

func loadFont(v pdf.Value) (f *pdfFont) {
	f = &pdfFont{scale: 0.001, dw: 1000}
	func() {
		defer func() {
			if recover() != nil { // an unreadable ToUnicode map: show raw codes
				f.enc = nil
			}
		}()
		pf := pdf.Font{V: v}
		f.enc = pf.Encoder()
	}()
	switch v.Key("Subtype").Name() {
	case "Type0":
		f.twoByte, f.known = true, true
		d := v.Key("DescendantFonts").Index(0)
		if dw := d.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
			f.dw = dw.Float64()
		}
		f.cidW = map[int]float64{}
		w := d.Key("W")
		for i := 0; i < w.Len() && len(f.cidW) < 1<<16 && len(f.cidR) < 1<<14; {
			c := int(w.Index(i).Int64())
			next := w.Index(i + 1)
			if next.Kind() == pdf.Array {
				for j := 0; j < next.Len() && j < 1<<16; j++ {
					f.cidW[c+j] = next.Index(j).Float64()
				}
				i += 2
				continue
			}
			f.cidR = append(f.cidR, cidRange{c, int(next.Int64()), w.Index(i + 2).Float64()})
			i += 3
		}
	default:
		f.first = int(v.Key("FirstChar").Int64())
		ws := v.Key("Widths")
		for i := 0; i < ws.Len() && i < 256; i++ {
			f.widths = append(f.widths, ws.Index(i).Float64())
		}
		f.missing = v.Key("FontDescriptor").Key("MissingWidth").Float64()
		f.known = len(f.widths) > 0
		if m := v.Key("FontMatrix"); m.Len() == 6 && m.Index(0).Float64() != 0 {
			f.scale = math.Abs(m.Index(0).Float64())
		}
	}
	return f
}

func (f *pdfFont) decode(code string) string {
	if f.enc == nil {
		return code
	}
	return f.enc.Decode(code)
}

type textState struct {
	ctm                affine
	tc, tw, th, tl, ts float64
	tfs                float64
	font               *pdfFont
}

// contentReader interprets one page's content streams into glyphs.
type contentReader struct {
	ctx     context.Context
	glyphs  []glyph
	rotated []glyph
	run     int // sequence number of the current show operation
	calls   int
	ops     int
}

func pageGlyphs(ctx context.Context, p pdf.Page) (gs, rotated []glyph, err error) {
	c := &contentReader{ctx: ctx}
	defer func() {
		if x := recover(); x != nil {
			// The library panics on malformed objects; the glyphs read before that stay.
			gs, rotated = c.glyphs, c.rotated
			if e, ok := x.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("page content: %v", x)
			}
		}
	}()
	st := textState{ctm: identity, th: 1}
	c.interpret(p.V.Key("Contents"), p.Resources(), &st, 0)
	return c.glyphs, c.rotated, nil
}

func (c *contentReader) interpret(strm, res pdf.Value, st *textState, depth int) {
	if strm.Kind() != pdf.Stream && strm.Kind() != pdf.Array {
		return
	}
	fonts := map[string]*pdfFont{}
	var tm, tlm affine
	var stack []textState
	pdf.Interpret(strm, func(stk *pdf.Stack, op string) {
		n := stk.Len()
		args := make([]pdf.Value, n)
		for i := n - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		c.ops++
		if c.ops%4096 == 0 {
			if err := c.ctx.Err(); err != nil {
				panic(err)
			}
		}
		num := func(i int) float64 {
			if i < len(args) {
				return args[i].Float64()
			}
			return 0
		}
		switch op {
		case "q":
			if len(stack) < maxGSDepth {
				stack = append(stack, *st)
			}
		case "Q":
			if len(stack) > 0 {
				*st = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
		case "cm":
			if n == 6 {
				st.ctm = affine{num(0), num(1), num(2), num(3), num(4), num(5)}.mul(st.ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tf":
			if n == 2 {
				name := args[0].Name()
				f, ok := fonts[name]
				if !ok {
					f = loadFont(res.Key("Font").Key(name))
					fonts[name] = f
				}
				st.font, st.tfs = f, num(1)
			}
		case "Tc":
			st.tc = num(0)
		case "Tw":
			st.tw = num(0)
		case "Tz":
			st.th = num(0) / 100
		case "TL":
			st.tl = num(0)
		case "Ts":
			st.ts = num(0)
		case "Td", "TD":
			if n == 2 {
				if op == "TD" {
					st.tl = -num(1)
				}
				tlm = translate(num(0), num(1)).mul(tlm)
				tm = tlm
			}
		case "Tm":
			if n == 6 {
				tlm = affine{num(0), num(1), num(2), num(3), num(4), num(5)}
				tm = tlm
			}
		case "T*":
			tlm = translate(0, -st.tl).mul(tlm)
			tm = tlm
		case "Tj":
			if n == 1 {
				c.show(args[0].RawString(), st, &tm)
			}
		case "'", "\"":
			if op == "\"" && n == 3 {
				st.tw, st.tc = num(0), num(1)
			}
			tlm = translate(0, -st.tl).mul(tlm)
			tm = tlm
			if n >= 1 {
				c.show(args[n-1].RawString(), st, &tm)
			}
		case "TJ":
			if n == 1 {
				a := args[0]
				for i := 0; i < a.Len(); i++ {
					if x := a.Index(i); x.Kind() == pdf.String {
						c.show(x.RawString(), st, &tm)
					} else {
						tm = translate(-x.Float64()/1000*st.tfs*st.th, 0).mul(tm)
					}
				}
			}
		case "Do":
			if n == 1 && depth < maxFormDepth && c.calls < maxFormCalls {
				x := res.Key("XObject").Key(args[0].Name())
				if x.Key("Subtype").Name() != "Form" {
					return
				}
				c.calls++
				inner := *st
				if m := x.Key("Matrix"); m.Len() == 6 {
					inner.ctm = affine{m.Index(0).Float64(), m.Index(1).Float64(), m.Index(2).Float64(),
						m.Index(3).Float64(), m.Index(4).Float64(), m.Index(5).Float64()}.mul(st.ctm)
				}
				r := x.Key("Resources")
				if r.Kind() != pdf.Dict {
					r = res
				}
				c.interpret(x, r, &inner, depth+1)
			}
		}
	})
}

// show positions each glyph of a string and advances the text matrix by its width plus
// character spacing, plus word spacing after a single-byte space (PDF 32000-1 §9.4.4).
func (c *contentReader) show(raw string, st *textState, tm *affine) {
	f := st.font
	if f == nil {
		f = &pdfFont{scale: 0.001}
	}
	c.run++
	step := 1
	if f.twoByte {
		step = 2
	}
	for i := 0; i+step <= len(raw); i += step {
		code := int(raw[i])
		if step == 2 {
			code = code<<8 | int(raw[i+1])
		}
		w0 := f.width(code) * f.scale
		if !f.known {
			w0 = 0.5 // an average glyph, so the pen still moves forward
		}
		trm := affine{st.tfs * st.th, 0, 0, st.tfs, 0, st.ts}.mul(*tm).mul(st.ctm)
		s := strings.ToValidUTF8(f.decode(raw[i:i+step]), "")
		if s != "" {
			g := glyph{x: trm[4], y: trm[5], fs: math.Hypot(trm[2], trm[3]), s: s, i: len(c.glyphs) + len(c.rotated), run: c.run}
			if f.known {
				g.w = w0 * trm[0] // w0 is in text space per unit of font size; trm[0] is that unit in user space
			}
			if math.Abs(trm[1]) > 0.1*math.Abs(trm[0]) || trm[0] < 0 {
				c.rotated = append(c.rotated, g) // vertical or upside-down text, such as margin notes
			} else {
				c.glyphs = append(c.glyphs, g)
			}
			if len(c.glyphs)+len(c.rotated) > maxGlyphsPerPage {
				panic(errPageFull)
			}
		}
		tx := w0*st.tfs + st.tc
		if step == 1 && code == ' ' {
			tx += st.tw
		}
		*tm = translate(tx*st.th, 0).mul(*tm)
	}
}
