package ingest

import (
	"context"
	"fmt"

	"github.com/strata-app/strata/backend/store"
)

// ChunkEmbedder embeds chunk texts into one vector space inline, as chunks are written (the
// fast static embedder; a slower semantic space is built in the background instead).
type ChunkEmbedder interface {
	EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error)
	Space() string
}

// embedChunks computes the chunks' vectors (nil when there is no embedder).
func (in *Ingester) embedChunks(ctx context.Context, chunks []store.Chunk) ([][]float32, error) {
	if in.Embedder == nil || len(chunks) == 0 {
		return nil, nil
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Heading + "\n" + c.Text // the heading path gives a chunk its context
	}
	vecs, err := in.Embedder.EmbedDocuments(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed %d chunks: %w", len(chunks), err)
	}
	return vecs, nil
}

// writeVectors stores the vectors of freshly inserted chunks.
func (in *Ingester) writeVectors(ctx context.Context, tx *store.Tx, chunks []store.Chunk, vecs [][]float32) error {
	if in.Embedder == nil || len(vecs) == 0 {
		return nil
	}
	ids := make([]string, len(chunks))
	for i, c := range chunks {
		ids[i] = c.ChunkID
	}
	rowids, err := store.ChunkRowIDs(ctx, tx, ids)
	if err != nil {
		return err
	}
	list := make([]store.Embedding, 0, len(chunks))
	for i, c := range chunks {
		if rid, ok := rowids[c.ChunkID]; ok && i < len(vecs) && vecs[i] != nil {
			list = append(list, store.Embedding{ChunkRowID: rid, Vector: vecs[i]})
		}
	}
	return store.InsertEmbeddings(ctx, tx, in.Embedder.Space(), list)
}
