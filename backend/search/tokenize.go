package search

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// This file reproduces, in Go, the tokenizer the full-text index is built with
// (`porter unicode61 remove_diacritics 2`, migrations/0001_init.sql), so that BM25 can be
// computed here for a few hundred candidate chunks instead of by FTS5 for every chunk that
// matches any query word (see keyword.go). The two must agree token for token: a word this
// tokenizer stems differently from FTS5 scores 0 here while FTS5 found it.
// TestTokenizerMatchesFTS5 checks every word of the quality corpus against SQLite itself.
//
// ASCII is reproduced exactly. Outside ASCII, FTS5 uses its own Unicode 6.1 tables for letter
// categories, case folding and diacritics; this uses Go's tables (letters, numbers and private
// use are token characters; diacritics are removed by canonical decomposition). They agree on
// the Latin, Greek and Cyrillic letters seen in practice and may differ on rare characters.

// ftsTokenize calls fn with each token of text, folded (lower case, no diacritics) but not yet
// stemmed (porterStem does that, in place), and returns buf, grown, for reuse. tok is only
// valid during the call. If keep is not nil, a token whose first byte it does not list is
// passed as nil without being copied: stemming never changes a token's first byte, so a caller
// looking for a few stems skips most tokens for the price of finding their end.
func ftsTokenize(text string, buf []byte, keep *[256]bool, fn func(tok []byte)) []byte {
	sc := tokenScanner{text: text, buf: buf, keep: keep}
	for {
		tok, ok := sc.next()
		if !ok {
			return sc.buf
		}
		fn(tok)
	}
}

// tokenScanner is ftsTokenize as an iterator, for loops too hot for a call per token.
type tokenScanner struct {
	text string
	i    int
	buf  []byte
	keep *[256]bool
}

// next returns the next token (nil if keep rules it out) and false at the end of the text.
func (sc *tokenScanner) next() ([]byte, bool) {
	text := sc.text
	i := sc.i
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			l := asciiFold[c]
			if l == 0 {
				i++
				continue
			}
			if sc.keep != nil && !sc.keep[l] {
				i++
				for i < len(text) && text[i] < utf8.RuneSelf && asciiFold[text[i]] != 0 {
					i++
				}
				sc.i = tokenEnd(text, i)
				return nil, true
			}
			break
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if isTokenRune(r) {
			break
		}
		i += n
	}
	if i >= len(text) {
		sc.i = i
		return nil, false
	}
	// A token: fold into buf until a separator.
	buf := sc.buf[:0]
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			l := asciiFold[c]
			if l == 0 {
				break
			}
			buf = append(buf, l)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if !isTokenRune(r) && !isDiacritic(r) {
			break
		}
		if f := foldRune(r); f != 0 {
			buf = utf8.AppendRune(buf, f)
		}
		i += n
	}
	sc.i, sc.buf = i, buf
	if len(buf) == 0 || (sc.keep != nil && !sc.keep[buf[0]]) {
		return nil, true
	}
	return buf, true
}

// tokenEnd is the index just after the token starting at i.
func tokenEnd(text string, i int) int {
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiFold[c] == 0 {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if !isTokenRune(r) && !isDiacritic(r) {
			return i
		}
		i += n
	}
	return i
}

// ftsTokens returns the stemmed tokens of text, as FTS5 indexes them.
func ftsTokens(text string) []string {
	var out []string
	ftsTokenize(text, nil, nil, func(tok []byte) { out = append(out, string(porterStem(tok))) })
	return out
}

// asciiFold maps an ASCII byte to itself lower-cased if unicode61 takes it as part of a token
// (letters and digits), to 0 if it separates tokens.
var asciiFold = func() (t [utf8.RuneSelf]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = c, c
	}
	return
}()

// isTokenRune is unicode61's default "categories L* N* Co".
func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// isDiacritic is FTS5's set of combining marks that are kept inside a token (and then dropped
// by folding): a subset of U+0300–U+0331.
func isDiacritic(r rune) bool {
	const mask0, mask1 = 0x08029FDF, 0x000361F8
	switch {
	case r < 768 || r > 817:
		return false
	case r < 768+32:
		return mask0&(1<<(r-768)) != 0
	default:
		return mask1&(1<<(r-768-32)) != 0
	}
}

// foldRune lower-cases a non-ASCII rune and, as remove_diacritics=2 does, replaces a letter
// with diacritics by its ASCII base letter; combining marks fold to 0 (dropped).
func foldRune(r rune) rune {
	if isDiacritic(r) {
		return 0
	}
	r = unicode.ToLower(r)
	// FTS5 case-folds rather than lower-cases: the micro sign folds to the Greek mu and the long
	// s to s, as they do through upper case and back, but the dotless i stays (its round trip
	// leaves its case-folding orbit).
	if u := unicode.ToLower(unicode.ToUpper(r)); u != r {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f == u {
				r = u
				break
			}
		}
	}
	var b [utf8.UTFMax]byte
	d := norm.NFD.Bytes(b[:utf8.EncodeRune(b[:], r)])
	if len(d) > 1 && d[0] < utf8.RuneSelf && ('a' <= d[0] && d[0] <= 'z') {
		rest := string(d[1:])
		for _, m := range rest {
			if !unicode.Is(unicode.Mn, m) {
				return r
			}
		}
		return rune(d[0])
	}
	return r
}
