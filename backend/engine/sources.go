package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/strata-app/strata/backend/ask"
	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/store"
)

// Files read again: ask and search cite the lines a sentence stands on through the reader's
// source map of the file, read again when it is still the version the store read.

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
		doc, err = extract.Read(rctx, data, d.Path, extract.Limits{MaxBytes: ask.MaxSourceBytes})
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

// fileLines is lines [start, end] of a document's file as one line of text, whitespace
// collapsed; false when the file is not the version the store read (changed, gone, too large).
func (e *Engine) fileLines(ctx context.Context, documentID string, start, end int) (string, bool, error) {
	d, st, err := e.sourceFile(ctx, documentID, ask.MaxSourceBytes)
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
