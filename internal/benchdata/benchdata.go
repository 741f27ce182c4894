// Package benchdata fills a store with many chunks of real prose for the search benchmarks
// (backend/search, and the MCP benchmark in cli, which serves a data folder of 100k chunks).
// It writes through the store directly: ingesting 100k chunks through the engine would take
// minutes per benchmark run and measure ingest, not search.
package benchdata

import (
	"context"
	"fmt"
	"html"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/embed"
	"github.com/strata-app/strata/backend/search/quality"
	"github.com/strata-app/strata/backend/store"
)

// Documents are the quality corpus's text, Markdown and HTML files (tags stripped; not the
// byte-identical copies, not PDF bytes) as lists of sentences: real prose, so term statistics and
// static vectors look like a real folder's.
func Documents() ([][]string, error) {
	var out [][]string
	err := filepath.WalkDir(quality.CorpusDir(), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "copies" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if ext != ".txt" && ext != ".md" && ext != ".html" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		if ext == ".html" {
			text = html.UnescapeString(tags.ReplaceAllString(text, " "))
		}
		var sents []string
		for _, s := range strings.Split(strings.Join(strings.Fields(text), " "), ". ") {
			if len(s) > 30 && len(s) < 400 {
				sents = append(sents, s+".")
			}
		}
		if len(sents) > 0 {
			out = append(out, sents)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("benchmark documents: %w", err)
	}
	return out, nil
}

var tags = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>|<[^>]*>`)

// Fill writes n chunks (10 per document) of ~600 bytes with their static vectors. A document
// is a run of consecutive sentences of one corpus file from a random place, cut into chunks as
// a real document is, so that a chunk is about one thing (chunks of sentences drawn at random
// from the whole corpus would be about four unrelated things, which no real folder holds).
// Seeded by n: the same n gives the same store.
func Fill(ctx context.Context, db *store.DB, n int) error {
	docs, err := Documents()
	if err != nil {
		return err
	}
	r := rand.New(rand.NewSource(int64(n)))
	st := embed.NewStatic()
	now := store.FormatTime(time.Now())
	const perTx = 2000
	var sents []string
	next := 0
	for base := 0; base < n; base += perTx {
		var chunks []store.Chunk
		err := db.WriteTx(ctx, func(tx *store.Tx) error {
			for i := base; i < min(base+perTx, n); i++ {
				doc := fmt.Sprintf("doc_%08d", i/10)
				if i%10 == 0 {
					sents = docs[r.Intn(len(docs))]
					next = r.Intn(len(sents))
					if _, err := store.InsertDocument(ctx, tx, store.Document{DocumentID: doc, Kind: "file", Path: "/bench/" + doc + ".md",
						Title: doc, ContentHash: doc, Status: "analyzed", CreatedAt: now, UpdatedAt: now}); err != nil {
						return err
					}
				}
				var sb strings.Builder
				for sb.Len() < 600 {
					sb.WriteString(sents[next%len(sents)] + " ")
					next++
				}
				chunks = append(chunks, store.Chunk{ChunkID: fmt.Sprintf("chk_%08d", i), DocumentID: doc, Ordinal: i % 10, Text: sb.String(),
					LineStart: 1, LineEnd: 5, ByteEnd: sb.Len()})
			}
			return WriteChunks(ctx, tx, st, chunks)
		})
		if err != nil {
			return fmt.Errorf("fill benchmark store: %w", err)
		}
	}
	return nil
}

// WriteChunks inserts chunks and their static vectors, as an analysis writes them, in tx.
func WriteChunks(ctx context.Context, tx *store.Tx, st *embed.Static, chunks []store.Chunk) error {
	if err := store.InsertChunks(ctx, tx, chunks); err != nil {
		return err
	}
	texts := make([]string, len(chunks))
	ids := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i], ids[i] = c.Text, c.ChunkID
	}
	vecs, err := st.Embed(ctx, texts, embed.Document)
	if err != nil {
		return err
	}
	rowids, err := store.ChunkRowIDs(ctx, tx, ids)
	if err != nil {
		return err
	}
	emb := make([]store.Embedding, len(chunks))
	for i, c := range chunks {
		emb[i] = store.Embedding{ChunkRowID: rowids[c.ChunkID], Vector: vecs[i]}
	}
	return store.InsertEmbeddings(ctx, tx, st.Info().Key, emb)
}
