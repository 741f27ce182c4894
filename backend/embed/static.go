package embed

import (
	"context"
	"fmt"
	"math"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Static embedder parameters. The model name is part of the space key, so any change to the
// features, weights, hashing or stop words below must bump StaticModel: old vectors would
// otherwise sit in the same space as new ones that mean something else.
const (
	StaticProvider   = "static"
	StaticModel      = "strata-hash-v1"
	StaticDimensions = 256
)

// Feature weights: a shared word says more than a shared word pair's worth of fuzzy evidence,
// and a word contributes one trigram per letter, so trigrams get the smallest weight to keep a
// long word from outvoting the words around it. Bigrams reward shared phrases ("acme corp").
const (
	weightWord    = 1.0
	weightBigram  = 0.7
	weightTrigram = 0.35
)

// Seeds keep the three feature kinds in separate hash families, so the word "abc" and the
// trigram "abc" are different features.
const (
	seedWord    uint64 = 0x9e3779b97f4a7c15
	seedBigram  uint64 = 0xc2b2ae3d27d4eb4f
	seedTrigram uint64 = 0x165667b19e3779f9
)

const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

// Word boundary markers for trigrams. Tokens only hold letters and digits, so these control
// characters can never occur inside a word.
const (
	markStart = rune(0x02)
	markEnd   = rune(0x03)
)

// Static is a deterministic feature-hashing embedder: lowercased word unigrams and bigrams plus
// character trigrams of each word, each hashed to a signed bucket of a 256-dimensional vector,
// weighted by sublinear term frequency and L2-normalised.
//
// It is the embedder Strata works with offline from the first run: no model, no download, the
// same vector for the same text on every machine. It knows spelling, not meaning, so it finds
// shared words and word forms ("invoice"/"invoices"), not synonyms.
//
// A text without any letter or digit embeds to the zero vector (length 256, all zeros), which
// is similar to nothing. Purpose does not change the vector.
//
// A Static is safe for concurrent use.
type Static struct {
	scratch sync.Pool // *staticScratch, reused so embedding allocates only the result
}

// NewStatic returns the static embedder.
func NewStatic() *Static {
	return &Static{}
}

// Info implements Embedder.
func (s *Static) Info() Info {
	return Info{
		Provider:   StaticProvider,
		Model:      StaticModel,
		Dimensions: StaticDimensions,
		Key:        SpaceKey(StaticProvider, StaticModel, StaticDimensions),
	}
}

// Embed implements Embedder. The vectors share one backing array but are capped, so appending
// to one cannot overwrite another.
func (s *Static) Embed(ctx context.Context, texts []string, p Purpose) ([][]float32, error) {
	if err := p.valid(); err != nil {
		return nil, err
	}
	sc, _ := s.scratch.Get().(*staticScratch)
	if sc == nil {
		sc = newStaticScratch()
	}
	defer s.scratch.Put(sc)

	backing := make([]float32, len(texts)*StaticDimensions)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("static embed: %w", err)
			}
		}
		v := backing[i*StaticDimensions : (i+1)*StaticDimensions : (i+1)*StaticDimensions]
		sc.embed(t, v)
		out[i] = v
	}
	return out, nil
}

// EmbedOne embeds a single text into a new vector; a convenience for callers that embed one
// query at a time and have no use for the context or the error.
func (s *Static) EmbedOne(text string) []float32 {
	sc, _ := s.scratch.Get().(*staticScratch)
	if sc == nil {
		sc = newStaticScratch()
	}
	defer s.scratch.Put(sc)
	v := make([]float32, StaticDimensions)
	sc.embed(text, v)
	return v
}

// feature is one distinct hashed feature of a text and how often it occurred.
type feature struct {
	key   uint64 // mixed hash: low bits pick the table slot, high bits the bucket and sign
	count uint32
	kind  uint32 // 0 word, 1 bigram, 2 trigram
}

var kindWeight = [3]float32{weightWord, weightBigram, weightTrigram}

// staticScratch holds the per-call working memory: a small open-addressing table that counts
// features (term frequency needs counts) and the features in first-seen order. Iterating in
// first-seen order, never over a Go map, keeps the float sums, and so the vectors, bit-identical
// across runs.
type staticScratch struct {
	feats []feature
	slots []int32 // 0: empty; otherwise index into feats + 1
	mask  uint64
	word  []rune // markStart, the current word's runes, then room for markEnd
}

func newStaticScratch() *staticScratch {
	sc := &staticScratch{}
	sc.resize(1024)
	sc.word = make([]rune, 1, 64)
	sc.word[0] = markStart
	return sc
}

func (sc *staticScratch) resize(n int) {
	sc.slots = make([]int32, n)
	sc.mask = uint64(n - 1)
	for i := range sc.feats {
		sc.place(int32(i))
	}
}

func (sc *staticScratch) place(i int32) {
	j := sc.feats[i].key & sc.mask
	for sc.slots[j] != 0 {
		j = (j + 1) & sc.mask
	}
	sc.slots[j] = i + 1
}

// add counts one occurrence of a feature.
func (sc *staticScratch) add(key uint64, kind uint32) {
	j := key & sc.mask
	for {
		k := sc.slots[j]
		if k == 0 {
			break
		}
		if f := &sc.feats[k-1]; f.key == key {
			f.count++
			return
		}
		j = (j + 1) & sc.mask
	}
	sc.feats = append(sc.feats, feature{key: key, count: 1, kind: kind})
	n := int32(len(sc.feats))
	if uint64(n)*2 > sc.mask+1 {
		sc.resize(int(sc.mask+1) * 2) // re-places every feature, including this one
		return
	}
	sc.slots[j] = n
}

// reset empties the table by clearing only the slots in use, so one huge text does not make
// every later small text pay for clearing a huge table.
func (sc *staticScratch) reset() {
	if len(sc.feats)*16 < len(sc.slots) {
		for _, f := range sc.feats {
			j := f.key & sc.mask
			for sc.slots[j] == 0 || sc.feats[sc.slots[j]-1].key != f.key {
				j = (j + 1) & sc.mask
			}
			sc.slots[j] = 0
		}
	} else {
		clear(sc.slots)
	}
	sc.feats = sc.feats[:0]
}

// embed writes the normalised vector of text into v (length StaticDimensions, zeroed).
func (sc *staticScratch) embed(text string, v []float32) {
	sc.reset()
	var prev uint64 // key of the previous non-stop word, 0 at the start
	sc.word = sc.word[:1]
	flush := func() {
		if len(sc.word) == 1 {
			return
		}
		prev = sc.emitWord(prev)
		sc.word = sc.word[:1]
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
				sc.word = append(sc.word, rune(c))
			case c >= 'A' && c <= 'Z':
				sc.word = append(sc.word, rune(c+'a'-'A'))
			default:
				flush()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if d := norm.NFD.PropertiesString(text[i : i+size]).Decomposition(); d != nil {
			// Fold accents: "é" decomposes to "e" + a combining mark, which the loop below
			// drops, so "café" and "cafe" are the same word. Per rune rather than
			// norm.NFD.String on the whole text: no copy of the text, ASCII costs nothing.
			for _, r := range string(d) {
				sc.addRune(r, flush)
			}
		} else {
			sc.addRune(r, flush)
		}
		i += size
	}
	flush()

	for _, f := range sc.feats {
		// The explicit conversion rounds the product before the sum below, which stops the
		// compiler fusing them into one FMA on some CPUs (arm64) and not others (amd64):
		// vectors stay bit-identical across machines.
		w := float32(kindWeight[f.kind] * tfWeight(f.count))
		b := f.key >> 56 // top 8 bits: the bucket (StaticDimensions is 256)
		if f.key&(1<<55) != 0 {
			w = -w
		}
		v[b] += w
	}
	normalize(v)
}

// addRune handles one non-ASCII rune: part of a word, a combining mark to drop (it belongs to
// the letter before it and must not split the word), or a separator that ends the word.
func (sc *staticScratch) addRune(r rune, flush func()) {
	switch {
	case unicode.Is(unicode.Mn, r):
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		sc.word = append(sc.word, unicode.ToLower(r))
	default:
		flush()
	}
}

// emitWord adds the features of the word in sc.word[1:] and returns the key that the next
// word's bigram should pair with.
func (sc *staticScratch) emitWord(prev uint64) uint64 {
	w := sc.word[1:]
	h := hashRunes(seedWord, w)
	// Trigrams over the word with boundary markers, so prefixes and suffixes ("in…", "…ing")
	// are features of their own. A one-letter word still yields one trigram.
	sc.word = append(sc.word, markEnd)
	padded := sc.word
	for i := 0; i+3 <= len(padded); i++ {
		sc.add(mix(hashRunes(seedTrigram, padded[i:i+3])), 2)
	}
	sc.word = sc.word[:len(sc.word)-1]

	mh := mix(h)
	if isStopWord(w, h, mh) {
		// Function words are in nearly every English text: as words or pairs they make
		// unrelated texts look alike. Skipping them also lets "invoice for the client" pair
		// "invoice client". Their trigrams stay, at the smallest weight.
		return prev
	}
	sc.add(mh, 0)
	if prev != 0 {
		b := (fnvOffset ^ seedBigram ^ prev) * fnvPrime
		b = (b ^ h) * fnvPrime
		sc.add(mix(b), 1)
	}
	return h
}

// hashRunes is FNV-1a over rune values (one step per rune instead of per byte), started from
// a seed that separates the feature kinds.
func hashRunes(seed uint64, rs []rune) uint64 {
	h := fnvOffset ^ seed
	for _, r := range rs {
		h ^= uint64(r)
		h *= fnvPrime
	}
	if h == 0 {
		h = 1 // 0 means "no previous word"
	}
	return h
}

// mix is the splitmix64 finaliser: FNV's high bits, which pick the bucket and sign, depend
// weakly on the last rune; mixing spreads every input bit over the whole word.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// tfTable caches 1+ln(tf) for small counts; most features occur once or a few times.
var tfTable = func() [64]float32 {
	var t [64]float32
	for i := 1; i < len(t); i++ {
		t[i] = float32(1 + math.Log(float64(i)))
	}
	return t
}()

// tfWeight is sublinear term frequency: a word repeated ten times is stronger evidence than
// once, but not ten times stronger.
func tfWeight(n uint32) float32 {
	if n < uint32(len(tfTable)) {
		return tfTable[n]
	}
	return float32(1 + math.Log(float64(n)))
}

// stopWords are English function words left out of word and bigram features. Kept short:
// every word here becomes invisible to the static embedder except through its trigrams.
var stopWords = []string{
	"a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "in",
	"is", "it", "its", "of", "on", "or", "that", "the", "this", "to", "was", "were", "with",
}

// maxStopRunes is the length of the longest stop word: longer words skip the lookup.
const maxStopRunes = 4

// stopTable holds the stop words' hashes in a tiny open-addressing table; a Go map lookup
// cost an eighth of the embedder's time.
var stopTable = func() (t [64]uint64) {
	for _, w := range stopWords {
		if len(w) > maxStopRunes {
			panic("embed: stop word longer than maxStopRunes: " + w)
		}
		h := hashRunes(seedWord, []rune(w))
		j := mix(h) & 63
		for t[j] != 0 {
			j = (j + 1) & 63
		}
		t[j] = h
	}
	return t
}()

// isStopWord reports whether the word w, with hash h and mixed hash mh, is a stop word.
func isStopWord(w []rune, h, mh uint64) bool {
	if len(w) > maxStopRunes {
		return false
	}
	for j := mh & 63; stopTable[j] != 0; j = (j + 1) & 63 {
		if stopTable[j] == h {
			return true
		}
	}
	return false
}
