package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

func withStaticEmbedder(c *engine.Config) { c.Embedder = "static" }

func pollStatus(t testing.TB, e *engine.Engine) *engine.Status {
	t.Helper()
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Status polls without a write answer the embedding census from its cache; a write — in this
// process or in another one on the same folder — shows up at the next poll.
func TestStatusPollsDoNotRecountTheEmbeddingCensus(t *testing.T) {
	dir := t.TempDir()
	e := open(t, withDir(dir), withStaticEmbedder)
	ingest(t, e, "", map[string]any{"text": "The first note, about census caching."})

	first := pollStatus(t, e).Embeddings.Reembed
	if first.Total == 0 || first.Done != first.Total {
		t.Fatalf("census after one note: %+v", first)
	}
	counted := e.Recounts()
	for range 20 {
		if got := pollStatus(t, e).Embeddings.Reembed; got != first {
			t.Fatalf("census changed without a write: %+v → %+v", first, got)
		}
	}
	if n := e.Recounts() - counted; n != 0 {
		t.Fatalf("20 polls without a write counted the census %d times", n)
	}

	ingest(t, e, "", map[string]any{"text": "A second note, written between two polls."})
	second := pollStatus(t, e).Embeddings.Reembed
	if second.Total <= first.Total || second.Done != second.Total {
		t.Fatalf("a write did not show up in the next poll: %+v → %+v", first, second)
	}
	if n := e.Recounts() - counted; n != 1 {
		t.Fatalf("one write, %d recounts", n)
	}

	// Another process on the same folder writes: this one's next poll sees it.
	other := open(t, withDir(dir), withStaticEmbedder)
	ingest(t, other, "", map[string]any{"text": "A third note, from another process."})
	if third := pollStatus(t, e).Embeddings.Reembed; third.Total <= second.Total {
		t.Fatalf("another process's write did not show up: %+v → %+v", second, third)
	}
}

// BenchmarkStatus is one status poll on a folder of 2,000 notes with nothing changing, the
// window's steady state.
func BenchmarkStatus(b *testing.B) {
	e := open(b, withStaticEmbedder)
	for i := range 2000 {
		ingest(b, e, "", map[string]any{"text": fmt.Sprintf("Note %d: a few words so that it makes a chunk of its own.", i)})
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Status(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
