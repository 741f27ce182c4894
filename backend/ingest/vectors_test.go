package ingest

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// staticSpace is the static embedder as a ChunkEmbedder (the engine's adapter lives there).
type staticSpace struct{ s *embed.Static }

func (a staticSpace) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	return a.s.Embed(ctx, texts, embed.Document)
}
func (a staticSpace) Space() string { return a.s.Info().Key }

// failingSpace stands in for an embedder process that is down.
type failingSpace struct{}

func (failingSpace) EmbedDocuments(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("connection refused")
}
func (failingSpace) Space() string { return "ollama/x/3" }

// Text ingested inline gets a vector per chunk in the embedder's space, in the same
// transaction as its chunks.
func TestIngestWritesAVectorPerChunk(t *testing.T) {
	in := newIngester(t)
	sp := staticSpace{embed.NewStatic()}
	in.Embedder = sp
	ingestJSON(t, in, "", `{"text":"# One\n\nfirst part\n\n# Two\n\nsecond part"}`)
	vecs, chunks, err := store.CountEmbeddings(context.Background(), in.DB.Reader(), sp.Space())
	if err != nil {
		t.Fatal(err)
	}
	if chunks == 0 || vecs != chunks {
		t.Fatalf("%d vectors for %d chunks", vecs, chunks)
	}
}

// When the embedder fails nothing is written: no chunk is left without its vector.
func TestIngestEmbedFailureWritesNothing(t *testing.T) {
	in := newIngester(t)
	in.Embedder = failingSpace{}
	_, err := in.Ingest(context.Background(), "", []byte(`{"text":"a note"}`), nil)
	wantCode(t, err, errs.Internal)
	c, err := store.CountAll(context.Background(), in.DB.ReadDB())
	if err != nil {
		t.Fatal(err)
	}
	if c.Payloads != 0 || c.Chunks != 0 {
		t.Fatalf("counts %+v after a failed embed", c)
	}
}

func TestDecodeObjectRefusesNonObjects(t *testing.T) {
	for _, in := range []string{``, `  `, `{`, `[1]`, `"text"`, `3`, `null`, `true`} {
		if _, err := decodeObject([]byte(in)); errs.CodeOf(err) != errs.Validation {
			t.Errorf("decodeObject(%q) = %v, want VALIDATION_ERROR", in, err)
		}
	}
}
