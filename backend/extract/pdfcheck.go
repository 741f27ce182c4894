package extract

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
)

// pdfPrecheck looks at the cross-reference chain before the library does, because two kinds of
// malformed file do damage that recover() cannot undo: an xref entry numbered in the billions
// makes the library allocate a table that size (the process dies of out-of-memory), and a /Prev
// pointer that leads back to an earlier section makes it loop forever. The check follows the
// chain the way the library will (from the last startxref, through each /Prev) with a simple
// scanner; whatever it cannot make sense of is left to the library, which reports it as an
// ordinary error.
func pdfPrecheck(data []byte) error {
	tail := data[max(0, len(data)-1024):]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return nil
	}
	off, ok := leadingInt(tail[i+len("startxref"):])
	seen := map[int]bool{}
	for steps := 0; ok; steps++ {
		if steps > 1000 || seen[off] {
			return errors.New("the cross-reference chain loops")
		}
		seen[off] = true
		if off < 0 || off >= len(data) {
			return nil
		}
		sec := data[off:]
		sec = sec[len(sec)-len(bytes.TrimLeft(sec, " \t\r\n\f\x00")):]
		var dict []byte
		switch {
		case bytes.HasPrefix(sec, []byte("xref")):
			var err error
			if dict, err = checkXrefTable(sec[len("xref"):]); err != nil {
				return err
			}
		default: // an xref stream: "N G obj << ... >> stream"
			end := bytes.Index(sec[:min(len(sec), 64<<10)], []byte("stream"))
			if end < 0 {
				return nil
			}
			dict = sec[:end]
			if n, ok := dictInt(dict, sizeKey); ok && n > maxPDFObjects {
				return errors.New("the cross-reference stream declares too many objects")
			}
			if m := indexKey.FindSubmatch(dict); m != nil {
				nums := bytes.Fields(m[1])
				for j := 0; j+1 < len(nums); j += 2 {
					start, _ := strconv.Atoi(string(nums[j]))
					count, _ := strconv.Atoi(string(nums[j+1]))
					if start < 0 || count < 0 || start > maxPDFObjects || count > maxPDFObjects {
						return errors.New("the cross-reference stream numbers objects out of range")
					}
				}
			}
		}
		off, ok = dictInt(dict, prevKey)
	}
	return nil
}

// maxPDFObjects bounds the object numbers a PDF may use (each costs the library about 40 bytes
// of table); real documents stay far below a million.
const maxPDFObjects = 4_000_000

var (
	sizeKey  = regexp.MustCompile(`/Size\s+(\d+)`)
	prevKey  = regexp.MustCompile(`/Prev\s+(\d+)`)
	indexKey = regexp.MustCompile(`/Index\s*\[([\d\s]*)\]`)
)

func dictInt(dict []byte, re *regexp.Regexp) (int, bool) {
	m := re.FindSubmatch(dict)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(string(m[1]))
	return n, err == nil
}

// checkXrefTable reads a classic table's subsection headers ("start count" followed by count
// entries) up to "trailer", and returns the trailer dictionary's text.
func checkXrefTable(b []byte) ([]byte, error) {
	toks := pdfTokens{b: b}
	for {
		t := toks.next()
		if t == nil {
			return nil, nil
		}
		if string(t) == "trailer" {
			rest := toks.b[toks.pos:]
			end := bytes.Index(rest[:min(len(rest), 64<<10)], []byte("startxref"))
			if end < 0 {
				end = min(len(rest), 64<<10)
			}
			return rest[:end], nil
		}
		start, err1 := strconv.Atoi(string(t))
		count, err2 := strconv.Atoi(string(toks.next()))
		if err1 != nil || err2 != nil {
			return nil, nil // not a table the library can read either; it will say so
		}
		if start < 0 || count < 0 || start > maxPDFObjects || count > maxPDFObjects {
			return nil, errors.New("the cross-reference table numbers objects out of range")
		}
		for i := 0; i < 3*count; i++ {
			if toks.next() == nil {
				return nil, nil
			}
		}
	}
}

// pdfTokens splits bytes at PDF whitespace.
type pdfTokens struct {
	b   []byte
	pos int
}

func (t *pdfTokens) next() []byte {
	isWS := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == 0 }
	for t.pos < len(t.b) && isWS(t.b[t.pos]) {
		t.pos++
	}
	start := t.pos
	for t.pos < len(t.b) && !isWS(t.b[t.pos]) {
		t.pos++
	}
	if start == t.pos {
		return nil
	}
	return t.b[start:t.pos]
}

func leadingInt(b []byte) (int, bool) {
	f := bytes.Fields(b[:min(len(b), 64)])
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(string(f[0]))
	return n, err == nil
}
