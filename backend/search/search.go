package search

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/strata-app/strata/backend/store"
)

// Modes of a search.
const (
	ModeHybrid   = "hybrid"
	ModeKeyword  = "keyword"
	ModeSemantic = "semantic"
)

// VectorHit is one chunk found by the vector index.
type VectorHit struct {
	RowID int64
	Score float64 // cosine similarity
}

// Vectors is the vector half of search, as the searcher needs it.
type Vectors interface {
	// Search embeds the query in the active space and returns the nearest chunks.
	Search(ctx context.Context, query string, k int) ([]VectorHit, error)
	// Semantic reports whether the active space is a semantic one (not the static fallback).
	Semantic() bool
}

// Weights balance the two halves in fusion.
type Weights struct{ Keyword, Vector float64 }

// DefaultWeights follow the actual embedder (seed 004): a static space leans on BM25, a
// semantic one on vectors (ADR-014's 0.35/0.65). The static split was measured on the quality
// corpus (backend/search/quality, 71 questions in other words than the text): with weighted
// fusion, keyword 0.7 / vector 0.3 scored best (recall@5 0.789, MRR@10 0.660, against
// keyword-only 0.789 / 0.651 and vector-only 0.401 / 0.303); reciprocal-rank fusion raised
// recall@5 to 0.817 at 0.85/0.15 but lost MRR (0.601), so weighted is the default.
func DefaultWeights(semantic bool) Weights {
	if semantic {
		return Weights{Keyword: 0.35, Vector: 0.65}
	}
	return Weights{Keyword: 0.7, Vector: 0.3}
}

// Query is one search.
type Query struct {
	Text        string
	Mode        string
	Limit       int
	PerDocument bool
	Filter      store.SearchFilter
	Weights     *Weights // nil: DefaultWeights for the active space
	Fusion      string   // "rrf" or "weighted" (default)
}

// Fusion methods.
const (
	FusionRRF      = "rrf"      // weighted reciprocal rank
	FusionWeighted = "weighted" // weighted sum of each half's scores, each scaled by its best
)

// Result is one cited hit.
type Result struct {
	DocumentID string             `json:"document_id"`
	Path       string             `json:"path,omitempty"`
	Title      string             `json:"title"`
	ChunkID    string             `json:"chunk_id"`
	Snippet    string             `json:"snippet"`    // plain text: prose around the best matches, no markers
	Highlights []Span             `json:"highlights"` // the matched words in Snippet, in UTF-16 code units (see Span)
	LineStart  int                `json:"line_start"`
	LineEnd    int                `json:"line_end"`
	Page       int                `json:"page,omitempty"`
	Heading    string             `json:"heading,omitempty"`
	Score      float64            `json:"score"`
	Modes      map[string]float64 `json:"modes"` // which halves found it, with their own scores
}

// Response is a search's answer.
type Response struct {
	Mode    string   `json:"mode"`
	Results []Result `json:"results"`
	TookMS  float64  `json:"took_ms"`
	Notice  string   `json:"notice,omitempty"` // e.g. semantic asked but only keyword available
}

// rrfK is reciprocal-rank fusion's constant: it flattens the advantage of the very first
// ranks so that agreement between the two halves matters more than either's top pick.
const rrfK = 60

// Searcher answers queries.
type Searcher struct {
	DB      *store.DB
	Vectors Vectors // nil: keyword only
}

// Search runs q. Keyword and vector candidates are gathered side by side (more than asked, so
// fusion has room), fused (weighted, or by reciprocal rank), and ordered by score, ties by
// chunk ID.
func (s *Searcher) Search(ctx context.Context, q Query) (*Response, error) {
	start := time.Now()
	resp := &Response{Mode: q.Mode, Results: []Result{}}
	depth := max(q.Limit*4, 50)
	useKeyword := q.Mode != ModeSemantic
	useVector := q.Mode != ModeKeyword && s.Vectors != nil
	if q.Mode == ModeSemantic && s.Vectors == nil {
		useKeyword, resp.Notice = true, "no vector index yet: answered by keyword search"
	}
	w := DefaultWeights(useVector && s.Vectors.Semantic())
	if q.Weights != nil {
		w = *q.Weights
	}
	type cand struct {
		hit   store.SearchHit
		score float64
		modes map[string]float64
	}
	cands := map[int64]*cand{}
	// contribution of a hit at rank (0-based) with raw score, given the half's best and worst
	// scores among its candidates: min-max scaling, because static cosines cluster tightly
	// (scaling by the best alone gave the 50th vector hit most of the weight of the first).
	contrib := func(weight float64, rank int, score, best, worst float64) float64 {
		if q.Fusion == FusionRRF {
			return weight / float64(rrfK+rank+1)
		}
		if best <= worst {
			return weight
		}
		return weight * (score - worst) / (best - worst)
	}
	// The two halves run side by side (one core each on a small machine): the vector half,
	// including loading the chunks it found, in a goroutine this call owns and waits for; a
	// failure of either cancels the other.
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		vhits  []VectorHit
		loaded map[int64]store.SearchHit
		verr   error
		wg     sync.WaitGroup
	)
	if useVector {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vhits, verr = s.Vectors.Search(hctx, q.Text, depth*2) // filters apply after: fetch more
			if verr != nil {
				verr = fmt.Errorf("vector search: %w", verr)
				cancel()
				return
			}
			// Fusion takes the first depth hits that pass the filters: load those, and more
			// only if some did not pass.
			loaded = map[int64]store.SearchHit{}
			for from := 0; from < len(vhits) && len(loaded) < depth; {
				to := min(len(vhits), from+depth-len(loaded))
				ids := make([]int64, 0, to-from)
				for _, v := range vhits[from:to] {
					ids = append(ids, v.RowID)
				}
				part, err := store.HitsByRowID(hctx, s.DB.Reader(), ids, q.Filter)
				if err != nil {
					verr = err
					cancel()
					return
				}
				maps.Copy(loaded, part)
				from = to
			}
		}()
	}
	var khits []store.SearchHit
	var kerr error
	if useKeyword {
		if khits, kerr = keywordSearch(hctx, s.DB.Reader(), q.Text, q.Filter, depth, defaultKeywordBudget); kerr != nil {
			cancel()
		}
	}
	wg.Wait()
	if err := firstCause(ctx, kerr, verr); err != nil {
		return nil, err
	}
	for rank, h := range khits {
		c := &cand{hit: h, modes: map[string]float64{ModeKeyword: round(h.Score)}}
		c.score = contrib(w.Keyword, rank, h.Score, khits[0].Score, khits[len(khits)-1].Score)
		cands[h.ChunkRowID] = c
	}
	if useVector {
		rank := 0
		best, worst := 0.0, 0.0
		if len(vhits) > 0 {
			best, worst = vhits[0].Score, vhits[min(len(vhits), depth)-1].Score
		}
		for _, v := range vhits {
			c, ok := cands[v.RowID]
			if !ok {
				h, pass := loaded[v.RowID]
				if !pass {
					continue // filtered out (or removed since it was indexed)
				}
				c = &cand{hit: h, modes: map[string]float64{}}
				cands[v.RowID] = c
			}
			c.modes["vector"] = round(v.Score)
			c.score += contrib(w.Vector, rank, v.Score, best, worst)
			rank++
			if rank >= depth {
				break
			}
		}
	}
	list := make([]*cand, 0, len(cands))
	for _, c := range cands {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].hit.ChunkID < list[j].hit.ChunkID
	})
	// Highlighted excerpts, only for what is shown. Texts are read a few candidates at a time:
	// a candidate whose chunk holds no prose (only a reference-definition block or an HTML
	// comment, in a document stored from Markdown source) is no result on its own, nor is one
	// that keyword search found only by words inside its markup; the next one takes its place.
	seenDoc := map[string]bool{}
	for next := 0; next < len(list) && len(resp.Results) < q.Limit; {
		var batch []*cand
		for ; next < len(list) && len(batch) < max(q.Limit-len(resp.Results), 8); next++ {
			if c := list[next]; !q.PerDocument || !seenDoc[c.hit.DocumentID] {
				batch = append(batch, c)
			}
		}
		rowids := make([]int64, len(batch))
		for i, c := range batch {
			rowids[i] = c.hit.ChunkRowID
		}
		texts, err := store.ChunkTexts(ctx, s.DB.Reader(), rowids)
		if err != nil {
			return nil, err
		}
		for _, c := range batch {
			if len(resp.Results) == q.Limit {
				break
			}
			h := c.hit
			if q.PerDocument && seenDoc[h.DocumentID] {
				continue
			}
			t, ok := texts[h.ChunkRowID]
			if !ok {
				t = h.Snippet // the chunk's opening, as the store gave it
			}
			snippet, spans, inMarkup := snippet(t, q.Text, 32)
			if _, byMeaning := c.modes["vector"]; snippet == "" || inMarkup && !byMeaning {
				continue // only markup, or found only by words in its markup
			}
			seenDoc[h.DocumentID] = true
			resp.Results = append(resp.Results, Result{DocumentID: h.DocumentID, Path: h.Path, Title: h.Title, ChunkID: h.ChunkID,
				Snippet: snippet, Highlights: spans, LineStart: h.LineStart, LineEnd: h.LineEnd, Page: h.Page, Heading: strings.TrimSpace(inline(h.Heading)),
				Score: round(c.score), Modes: c.modes})
		}
	}
	resp.TookMS = float64(time.Since(start).Microseconds()) / 1000
	return resp, nil
}

// firstCause picks the error to report when halves ran side by side: not a cancellation that
// the other half's failure caused (unless the caller cancelled).
func firstCause(ctx context.Context, errs ...error) error {
	var cancelled error
	for _, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled) && ctx.Err() == nil:
			cancelled = err
		default:
			return err
		}
	}
	return cancelled
}

func round(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }
