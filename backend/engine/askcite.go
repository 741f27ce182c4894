package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/store"
)

// answerWriter turns the sentences an answer is made of (picked from the passages, written by
// the chat model and checked, or stated from facts) into the answer's sentences and its
// citations, numbered in order of first use: one citation per cited stretch of a passage.
type answerWriter struct {
	e        *Engine
	passages []*passage
	cites    map[string]int // stretch (chunk and byte range) → its number
	list     []Citation
	sources  map[string]*sourceText // document → its file read again (sourceOf), nil when it cannot be
}

// answerPassages are the passages as the answer package sees them.
func (w *answerWriter) answerPassages() []answer.Passage {
	out := make([]answer.Passage, len(w.passages))
	for i, p := range w.passages {
		out[i] = answer.Passage{Sentences: p.sents, Rank: p.rank, Subject: passageSubject(p)}
		if top := w.passages[0].result.Score; top > 0 {
			out[i].Score = p.result.Score / top
		}
	}
	return out
}

// extractive writes picked sentences: a run of sentences of one passage that follow each other
// in its text, with nothing but space between them, is one stretch and one citation, which each
// of its sentences ends with. Sentences with anything between them (a heading, a table, a
// skipped line) are cited apart: a quote is one contiguous span of the file (issue 24). A code
// block is a stretch of its own.
func (w *answerWriter) extractive(ctx context.Context, picked []answer.Picked) ([]answerSentence, error) {
	var out []answerSentence
	for i := 0; i < len(picked); {
		j := i + 1
		for j < len(picked) && picked[j].Passage == picked[i].Passage && picked[j].Index == picked[j-1].Index+1 {
			p := w.passages[picked[i].Passage]
			prev, next := p.sents[picked[j-1].Index], p.sents[picked[j].Index]
			if prev.Unit != answer.UnitProse || next.Unit != answer.UnitProse || strings.TrimSpace(p.chunk.Text[prev.End:next.Start]) != "" {
				break
			}
			j++
		}
		p := w.passages[picked[i].Passage]
		quote := make([]string, 0, j-i)
		for _, k := range picked[i:j] {
			quote = append(quote, p.sents[k.Index].Text)
		}
		n, err := w.cite(ctx, p, p.sents[picked[i].Index].Start, p.sents[picked[j-1].Index].End, strings.Join(quote, " "))
		if err != nil {
			return nil, err
		}
		for _, k := range picked[i:j] {
			out = append(out, answerSentence{text: p.sents[k.Index].Text, cites: []int{n}, code: p.sents[k.Index].Unit == answer.UnitCode})
		}
		i = j
	}
	return out, nil
}

// cite returns the number of the citation of chunk text [from, to) of a passage, adding it on
// first use.
func (w *answerWriter) cite(ctx context.Context, p *passage, from, to int, quote string) (int, error) {
	key := p.chunk.ChunkID + ":" + strconv.Itoa(from) + ":" + strconv.Itoa(to)
	if n, ok := w.cites[key]; ok {
		return n, nil
	}
	start, end, err := w.lines(ctx, p, from, to)
	if err != nil {
		return 0, err
	}
	if tabular(p.result.Path) {
		// The CSV reader writes a row as "name: … | email: …"; the quote is the file's own line.
		raw, ok, err := w.e.fileLines(ctx, p.result.DocumentID, start, end)
		if err != nil {
			return 0, err
		}
		if ok {
			quote = raw
		}
	}
	n := len(w.list) + 1
	w.cites[key] = n
	w.list = append(w.list, Citation{N: n, DocumentID: p.result.DocumentID, Path: p.result.Path, Title: p.result.Title,
		LineStart: start, LineEnd: end, Page: p.chunk.Page, ChunkID: p.chunk.ChunkID, Quote: quote})
	return n, nil
}

// lines are the file's lines of chunk text [from, to). The chunk knows the file line of each of
// its text's lines (store.Chunk.FileLine, from the reader's source map): a stretch that starts
// and ends on lines of their own cites them as they are. A reader that folded several lines of
// the file into one line of text (an HTML paragraph wrapped in the file) leaves only the first
// of them known; then the file is read again (sourceOf) and the stretch's own offsets are
// mapped through the reader's source map, so a sentence in the middle of a paragraph cites its
// own lines. When the file cannot be read again as it was (changed, gone, not a file), the
// stretch cites every line of the folded text: wider, but still lines that hold its words.
// A PDF has no file lines: it cites its page (and the text's lines, as search results do).
func (w *answerWriter) lines(ctx context.Context, p *passage, from, to int) (int, int, error) {
	c := p.chunk
	text := c.Text
	to = max(min(to, len(text)), from+1)
	li := strings.Count(text[:min(from, len(text))], "\n")
	last := lastWordByte(text, from, to)
	lj := strings.Count(text[:last], "\n")
	nLines := strings.Count(text, "\n") + 1
	// next is the first file line after those text line i stands for: the line of the next text
	// line that starts further down the file (a blank line the reader wrote has the line of the
	// text before it), else the line after the chunk's last.
	next := func(i int) int {
		for j := i + 1; j < nLines; j++ {
			if l := c.FileLine(j); l > c.FileLine(i) {
				return l
			}
		}
		return max(c.LineEnd, c.FileLine(i)) + 1
	}
	lineStart := strings.LastIndexByte(text[:min(from, len(text))], '\n') + 1
	start, end := c.FileLine(li), c.FileLine(lj)
	foldedStart := next(li)-start > 1 && strings.TrimSpace(text[lineStart:from]) != ""
	foldedEnd := next(lj)-end > 1
	if c.Page > 0 || !foldedStart && !foldedEnd {
		return start, max(end, start), nil
	}
	src, err := w.sourceOf(ctx, c)
	if err != nil {
		return 0, 0, err
	}
	if src != nil {
		s := src.line(c.TextStart + from)
		e := src.line(c.TextStart + last)
		return s, max(e, s), nil
	}
	if foldedEnd {
		end = next(lj) - 1
	}
	return start, max(end, start), nil
}

// lastWordByte is the offset of the last letter or digit of text[from:to] (to-1 if none): a
// sentence's final stop or closing quote may be a character the reader wrote itself, which maps
// to the next piece of the file.
func lastWordByte(text string, from, to int) int {
	for i := to; i > from; {
		r, n := utf8.DecodeLastRuneInString(text[:i])
		i -= n
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return i
		}
	}
	return to - 1
}

// sourceText is a document's file read again, with the reader's source map.
type sourceText struct{ doc *extract.Document }

func (s *sourceText) line(off int) int { return s.doc.SourceLine(off) }

// maxSourceBytes bounds the files read again for lines (a few HTML pages per answer; a
// one-page book is a few MB).
const maxSourceBytes = 16 << 20

// sourceOf is the file of a chunk's document read again (readSource), once per answer.
func (w *answerWriter) sourceOf(ctx context.Context, c store.Chunk) (*sourceText, error) {
	if s, ok := w.sources[c.DocumentID]; ok {
		return s, nil
	}
	w.sources[c.DocumentID] = nil
	doc, err := w.e.readSource(ctx, c, maxSourceBytes)
	if err != nil || doc == nil {
		return nil, err
	}
	s := &sourceText{doc: doc}
	w.sources[c.DocumentID] = s
	return s, nil
}

// readSource reads the file of a chunk's document again, when it still has the bytes the chunk
// was read from: the same SHA-256, and the reader gives the same text at the chunk's offsets. It
// returns nil (no error) when it cannot: the file changed or is gone, is bigger than maxBytes,
// or is not a file. Only documents already in the store are read, and nothing of them leaves
// but line numbers. A read file is kept for the next asks and searches (sourceCache): reading
// the Rust book's one page again costs 130 ms, which every question citing it paid.
func (e *Engine) readSource(ctx context.Context, c store.Chunk, maxBytes int64) (*extract.Document, error) {
	d, st, err := e.sourceFile(ctx, c.DocumentID, maxBytes)
	if d == nil || err != nil {
		return nil, err
	}
	key := sourceKey{doc: d.DocumentID, hash: d.ContentHash, size: st.Size(), mtime: st.ModTime()}
	doc := e.sources.get(key)
	if doc == nil {
		data := sameBytes(d, st)
		if data == nil {
			return nil, nil
		}
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		doc, err = extract.Read(rctx, data, d.Path, extract.Limits{MaxBytes: maxSourceBytes})
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, nil
		}
		e.sources.put(key, doc)
	}
	if c.TextStart < 0 || c.TextEnd > len(doc.Text) || c.TextStart > c.TextEnd || doc.Text[c.TextStart:c.TextEnd] != c.Text {
		return nil, nil // the reader reads it differently now: its map is not the chunk's
	}
	return doc, nil
}

// sourceFile is a document's file, when it is a file of at most maxBytes that is still there
// (nil, no error, otherwise: the lines the chunk knows will do).
func (e *Engine) sourceFile(ctx context.Context, documentID string, maxBytes int64) (*store.Document, os.FileInfo, error) {
	d, err := store.GetDocument(ctx, e.db.Reader(), documentID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if d.Kind != "file" || d.Path == "" || d.Size > maxBytes {
		return nil, nil, nil
	}
	st, err := os.Stat(d.Path)
	if err != nil || st.Size() > maxBytes {
		return nil, nil, nil // gone or unreadable since
	}
	return &d, st, nil
}

// sameBytes reads a document's file and returns its bytes when they are the version the store
// read (the same size and SHA-256), else nil.
func sameBytes(d *store.Document, st os.FileInfo) []byte {
	data, err := os.ReadFile(d.Path)
	if err != nil || int64(len(data)) != st.Size() {
		return nil
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != d.ContentHash {
		return nil
	}
	return data
}

// sourceCache keeps the last files ask read again (sourceOf), least recently used out first,
// within a count and a size: an answer cites a few documents, and the next question about the
// same subject cites them again.
type sourceCache struct {
	mu      sync.Mutex
	entries map[sourceKey]*sourceEntry
	tick    uint64
	bytes   int
}

// sourceKey is a file as read: a document at one version, and the size and time the file had
// when it was read (a change to either is another file, read and checked again).
type sourceKey struct {
	doc, hash string
	size      int64
	mtime     time.Time
}

type sourceEntry struct {
	doc   *extract.Document
	used  uint64
	bytes int
}

const (
	maxCachedSources     = 64 // a page of search results cites up to ten files; a person types several
	maxCachedSourceBytes = 64 << 20
)

func (c *sourceCache) get(k sourceKey) *extract.Document {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok {
		return nil
	}
	c.tick++
	e.used = c.tick
	return e.doc
}

func (c *sourceCache) put(k sourceKey, doc *extract.Document) {
	n := 2 * len(doc.Text) // the text and its map, roughly
	if doc.Source != nil {
		n += 24 * len(doc.Source.Segments)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[sourceKey]*sourceEntry{}
	}
	for key, e := range c.entries { // an older version of the document is no use any more
		if key.doc == k.doc {
			c.bytes -= e.bytes
			delete(c.entries, key)
		}
	}
	for len(c.entries) > 0 && (len(c.entries) >= maxCachedSources || c.bytes+n > maxCachedSourceBytes) {
		var oldest sourceKey
		var at uint64 = ^uint64(0)
		for key, e := range c.entries {
			if e.used < at {
				oldest, at = key, e.used
			}
		}
		c.bytes -= c.entries[oldest].bytes
		delete(c.entries, oldest)
	}
	if n > maxCachedSourceBytes {
		return
	}
	c.tick++
	c.entries[k] = &sourceEntry{doc: doc, used: c.tick, bytes: n}
	c.bytes += n
}

// tabular reports whether a file is a table the reader rewrites row by row (CSV, TSV).
func tabular(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv":
		return true
	}
	return false
}

// fileLines is lines [start, end] of a document's file as one line of text, whitespace
// collapsed; false when the file is not the version the store read (changed, gone, too large).
func (e *Engine) fileLines(ctx context.Context, documentID string, start, end int) (string, bool, error) {
	d, st, err := e.sourceFile(ctx, documentID, maxSourceBytes)
	if d == nil || err != nil || start < 1 {
		return "", false, err
	}
	data := sameBytes(d, st)
	if data == nil {
		return "", false, nil
	}
	ls := strings.Split(string(data), "\n")
	if end > len(ls) || end < start {
		return "", false, nil
	}
	return strings.Join(strings.Fields(strings.Join(ls[start-1:end], " ")), " "), true, nil
}
