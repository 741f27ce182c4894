package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/extract"
)

// TestSourceCache: the files read again for lines are kept least recently used first out,
// within a count and a size, and a new version of a document replaces its old one.
func TestSourceCache(t *testing.T) {
	var c sourceCache
	key := func(doc, hash string) sourceKey {
		return sourceKey{doc: doc, hash: hash, size: 1, mtime: time.Unix(1, 0)}
	}
	small := func() *extract.Document { return &extract.Document{Text: "x"} }
	c.put(key("a", "h"), small())
	c.put(key("b", "h"), small())
	for i := 2; i < maxCachedSources; i++ {
		c.put(key(fmt.Sprintf("doc%d", i), "h"), small())
	}
	if c.get(key("a", "h")) == nil { // a is now the most recently used
		t.Fatal("a was not kept")
	}
	c.put(key("new", "h"), small()) // evicts the least recently used: b
	if c.get(key("b", "h")) != nil || c.get(key("a", "h")) == nil || c.get(key("new", "h")) == nil || len(c.entries) != maxCachedSources {
		t.Fatalf("eviction: %d entries", len(c.entries))
	}
	c.put(key("a", "h2"), small()) // a new version of a
	if c.get(key("a", "h")) != nil || c.get(key("a", "h2")) == nil {
		t.Fatal("a new version must replace the old one")
	}
	big := &extract.Document{Text: strings.Repeat("x", maxCachedSourceBytes/4+1)}
	c.put(key("big", "h"), big)
	if c.get(key("big", "h")) == nil || c.bytes > maxCachedSourceBytes {
		t.Fatalf("a large file is kept within the size: %d bytes", c.bytes)
	}
	c.put(key("huge", "h"), &extract.Document{Text: strings.Repeat("x", maxCachedSourceBytes/2+1)})
	if c.get(key("huge", "h")) != nil {
		t.Fatal("a file larger than the cache is not kept")
	}
}
