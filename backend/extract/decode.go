package extract

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Text files in a real folder are not all UTF-8: Windows tools still write UTF-16 with a BOM
// (PowerShell redirects, Excel "Unicode text") and old notes are Windows-1252. Reading them
// instead of refusing keeps "nothing lost"; refusing binary keeps junk out of the index.

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// maxControlRatio is the share of control characters above which decoded "text" is treated as
// binary. Real text has almost none (tabs and line breaks do not count).
const maxControlRatio = 0.10

// looksBinary reports whether the start of a file is binary rather than text: NUL bytes
// outside UTF-16, or many control characters. It is cheap and runs on the first few KB only.
func looksBinary(head []byte) bool {
	if bytes.HasPrefix(head, bomUTF16LE) || bytes.HasPrefix(head, bomUTF16BE) {
		s := decodeUTF16(head)
		return strings.IndexByte(s, 0) >= 0 || controlRatio(s) > maxControlRatio
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if utf8.Valid(trimPartialRune(head)) {
		return controlRatio(string(head)) > maxControlRatio
	}
	// Not UTF-8: it will be read as Windows-1252, where stray control bytes are the tell of
	// binary data; genuine Latin-1 prose has none, so the bar is much lower.
	return bytesControlRatio(head) > 0.02
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of a prefix cut from a file,
// so a head that ends mid-character is not mistaken for invalid UTF-8.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < 0x80 {
			return b
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

var errBinary = errors.New("the content is binary (NUL bytes or control characters), not text")

// decodeText turns file bytes into UTF-8 text and names the encoding it found. It fails with
// errBinary when the bytes are not text in any encoding it tries.
func decodeText(data []byte) (text, encoding string, err error) {
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		data = data[len(bomUTF8):]
	case bytes.HasPrefix(data, bomUTF16LE) || bytes.HasPrefix(data, bomUTF16BE):
		enc := "utf-16le"
		if data[0] == 0xFE {
			enc = "utf-16be"
		}
		s := decodeUTF16(data)
		if strings.IndexByte(s, 0) >= 0 || controlRatio(s) > maxControlRatio {
			return "", "", errBinary
		}
		return s, enc, nil
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", "", errBinary
	}
	if utf8.Valid(data) {
		s := string(data)
		if controlRatio(s) > maxControlRatio {
			return "", "", errBinary
		}
		return s, "utf-8", nil
	}
	// Invalid UTF-8. A UTF-8 file with a few broken bytes (a log cut mid-character) keeps its
	// many valid multi-byte characters; re-reading it as Windows-1252 would garble them all, so
	// it is repaired with U+FFFD instead. A file with no valid multi-byte sequence is legacy
	// 8-bit text.
	valid, invalid := utf8Census(data)
	if valid >= invalid {
		s := strings.ToValidUTF8(string(data), "\uFFFD")
		if controlRatio(s) > maxControlRatio {
			return "", "", errBinary
		}
		return s, "utf-8 (repaired)", nil
	}
	if bytesControlRatio(data) > 0.02 {
		return "", "", errBinary
	}
	b, err := charmap.Windows1252.NewDecoder().Bytes(data)
	if err != nil {
		return "", "", err
	}
	return string(b), "windows-1252", nil
}

// decodeUTF16 decodes BOM-prefixed UTF-16; a dangling odd byte is dropped.
func decodeUTF16(b []byte) string {
	be := b[0] == 0xFE
	b = b[2:]
	u := make([]uint16, len(b)/2)
	for i := range u {
		if be {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u))
}

// utf8Census counts valid multi-byte sequences and invalid bytes.
func utf8Census(b []byte) (valid, invalid int) {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && n == 1:
			invalid++
		case n > 1:
			valid++
		}
		b = b[n:]
	}
	return valid, invalid
}

// isControl reports characters that do not occur in text: C0 controls other than the usual
// whitespace and ESC (ANSI colours in logs), DEL, C1 controls and U+FFFD.
func isControl(r rune) bool {
	switch r {
	case '\t', '\n', '\r', '\f', '\v', 0x1B:
		return false
	}
	return r < 0x20 || (r >= 0x7F && r <= 0x9F) || r == utf8.RuneError
}

func controlRatio(s string) float64 {
	n, bad := 0, 0
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		n++
		if isControl(r) {
			bad++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(bad) / float64(n)
}

// bytesControlRatio counts, for 8-bit text, C0 controls and the bytes Windows-1252 leaves
// undefined.
func bytesControlRatio(b []byte) float64 {
	if len(b) == 0 {
		return 0
	}
	bad := 0
	for _, c := range b {
		switch {
		case c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0x1B:
		case c < 0x20 || c == 0x7F || c == 0x81 || c == 0x8D || c == 0x8F || c == 0x90 || c == 0x9D:
			bad++
		}
	}
	return float64(bad) / float64(len(b))
}
