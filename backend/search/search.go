package search

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
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

// Weights balance the evidence a result is ranked by. Keyword and Vector weigh each half's
// score of a chunk (each scaled between the worst and the best of its candidates); Context
// weighs the document's further matching chunks (the second best counts a half, the third a
// third, …): a document that is about the question answers it in several places, where a lucky
// chunk of an unrelated one answers once; Title weighs the share of the query's IDF mass found
// in the document's title or file name; Coverage weighs the share of the document's chunks that
// the query found (how much of the document answers: a page about DNS matches all over, a
// networking reference that mentions a lookup once does not); Document weighs a document-level
// BM25 (docBM25).
type Weights struct{ Keyword, Vector, Context, Title, Coverage, Document float64 }

// DefaultWeights follow the actual embedder (seed 004): a static space leans on BM25, a
// semantic one on vectors (ADR-014's 0.35/0.65 between the halves). The static figures were
// fitted by TestFitFusion (backend/engine, -fit): see fittedStatic.
func DefaultWeights(semantic bool) Weights {
	if semantic {
		return Weights{Keyword: 0.35, Vector: 0.65, Context: fittedStatic.Context, Title: fittedStatic.Title, Coverage: fittedStatic.Coverage, Document: fittedStatic.Document}
	}
	return fittedStatic
}

// fittedStatic are the weights for the static embedder, chosen by TestFitFusion (backend/engine,
// -fit) over the quality corpus's 235 questions (71 dev + 164 mixed), objective recall@5 +
// MRR@10 + nDCG@10 of hybrid, on a grid of Keyword {0.6, 0.8, 1} (Vector = 1 − Keyword),
// Context {0, 0.25}, Coverage {0, 0.5}, Document {0, 0.5, 1}, then Keyword {0.5, 0.6} ×
// Document {0.5, 1, 2}; Title 0.3 from a first fit in which it made no difference on the dev
// questions. Cross-validated (fit on one half of the questions, measured on the other):
// held-out hybrid 0.795/0.724/0.745 against keyword-only 0.752/0.690/0.712, and 0.903/0.860/
// 0.855 against 0.894/0.858/0.856 (recall@5/MRR@10/nDCG@10). Fitted on all: 0.874/0.806/0.814.
// Static vectors keep a real weight (0.4): with document-level evidence they no longer pull
// the answer down. (Fitted with docPostings 4000; at 600, TestRetrievalQuality measures dev
// hybrid 0.754/0.653/0.681 against keyword-only 0.718/0.631/0.659, mixed hybrid 0.924/0.869/
// 0.869 against 0.890/0.850/0.852.)
var fittedStatic = Weights{Keyword: 0.6, Vector: 0.4, Context: 0.25, Title: 0.3, Coverage: 0.5, Document: 0.5}

// Floor is the least evidence a result must have to be shown: KeywordShare of the query's IDF
// mass matched by its best chunk (BM25 / Σ IDF: a chunk of average length holding every query
// term once scores 1), or a cosine of at least Vector while at least Known of the query's
// words occur in the index. Below it, a result is filler.
//
// Known is for the static space: its vectors are hashes of words and their pieces, so a query
// whose words the index does not hold ("zzzzqqq") still gets cosines of 0.3 from pieces
// shared by accident, as high as real questions get (measured on the quality corpus: the top
// cosine of 8 filler queries 0.22–0.33, standing 0.8–5.5 standard deviations above the other
// candidates, against a median of 3.7 for the 235 questions: cosines alone cannot tell them
// apart). A semantic space finds meaning without shared words: Known is 0 there.
type Floor struct{ KeywordShare, Vector, Known float64 }

// DefaultFloor is calibrated on the quality corpus by TestFitFusion (-fit), which prints, for a
// grid of floors, the questions' recall@5 and MRR@10 against the results 8 filler queries still
// get: the highest floor that costs no question. A semantic space has its own scale of cosines,
// not calibrated here (tests have no Ollama): only the keyword floor applies there.
func DefaultFloor(semantic bool) Floor {
	if semantic {
		return Floor{KeywordShare: fittedFloor.KeywordShare}
	}
	return fittedFloor
}

// Measured (TestFitFusion, 235 questions, 8 filler queries): no floor leaves the filler queries
// 52 results; 0.2 / 0.3 leaves 36 and costs no question; 0.3 / 0.3 leaves 21 but costs recall@5
// (0.874 → 0.866).
var fittedFloor = Floor{KeywordShare: 0.2, Vector: 0.3, Known: 0.5}

// Query is one search.
type Query struct {
	Text        string
	Mode        string
	Limit       int
	PerDocument bool // kept for callers: results are one per document (group) either way
	Filter      store.SearchFilter
	Weights     *Weights // nil: DefaultWeights for the active space
	Floor       *Floor   // nil: DefaultFloor for the active space
	Fusion      string   // "rrf" or "weighted" (default)
}

// Fusion methods.
const (
	FusionRRF      = "rrf"      // weighted reciprocal rank
	FusionWeighted = "weighted" // weighted sum of each half's scores, each scaled by its best
)

// Result is one cited hit: the best chunk of a document, or of a group of documents that hold
// the same passage (then it cites the most specific one and names the others in AlsoIn).
type Result struct {
	DocumentID  string             `json:"document_id"`
	Path        string             `json:"path,omitempty"`
	Title       string             `json:"title"`
	ChunkID     string             `json:"chunk_id"`
	Snippet     string             `json:"snippet"`    // plain text: prose around the best matches, no markers
	Highlights  []Span             `json:"highlights"` // the matched words in Snippet, in UTF-16 code units (see Span)
	LineStart   int                `json:"line_start"`
	LineEnd     int                `json:"line_end"`
	Line        int                `json:"line,omitempty"` // the file's line of the snippet's first highlighted word (of its paragraph where a reader folded one, as in HTML), within LineStart–LineEnd: what a citation names
	Page        int                `json:"page,omitempty"`
	Heading     string             `json:"heading,omitempty"`
	Score       float64            `json:"score"`
	Modes       map[string]float64 `json:"modes"`                   // which halves found it, with their own scores
	AlsoIn      []AlsoIn           `json:"also_in,omitempty"`       // other documents holding the same passage, most specific first (at most maxAlsoIn)
	AlsoInCount int                `json:"also_in_count,omitempty"` // how many other documents hold it (AlsoIn may list fewer)
	// OtherPassages are further places of the cited document that the query found, each
	// with its own lines and snippet: the best maxPassages by score (ties by chunk ID), in
	// the document's order. OtherPassagesCount is how many there are (OtherPassages may list
	// fewer). A place counts when it passes the floor of evidence on its own and has prose to
	// show, among the chunks each half of the search brought (candidateDepth): "4 more in this
	// document" means four more passages as good as a result needs to be.
	OtherPassages      []Passage `json:"other_passages,omitempty"`
	OtherPassagesCount int       `json:"other_passages_count,omitempty"`
	// Next are the cited document's further chunks that the query found, best first (at most
	// maxNext): a caller that reads more than one passage of a document (ask) takes them from
	// here rather than search again. Not part of any transport.
	Next []string `json:"-"`
	// Fold is set when Line is the first line of a folded paragraph (see Fold).
	Fold *Fold `json:"-"`
	// lines are the citations whose Line fillLines still has to read from line maps.
	lines []lineAt
}

// AlsoIn is another document that holds a result's passage, with where it holds it.
type AlsoIn struct {
	DocumentID string `json:"document_id"`
	Path       string `json:"path,omitempty"`
	Title      string `json:"title"`
	LineStart  int    `json:"line_start"`
	LineEnd    int    `json:"line_end"`
	Line       int    `json:"line,omitempty"` // the line there of the words the result's snippet shows, as Result.Line
	Page       int    `json:"page,omitempty"`
	Fold       *Fold  `json:"-"` // as Result.Fold
	// The chunk that holds the passage there, whose text places Line.
	rowid   int64
	chunkID string
}

// Passage is one more place in a result's document that the query found.
type Passage struct {
	ChunkID    string `json:"chunk_id"`
	LineStart  int    `json:"line_start"`
	LineEnd    int    `json:"line_end"`
	Line       int    `json:"line,omitempty"` // as Result.Line
	Page       int    `json:"page,omitempty"`
	Heading    string `json:"heading,omitempty"`
	Snippet    string `json:"snippet"`    // as Result.Snippet, shorter (passageWidth words)
	Highlights []Span `json:"highlights"` // as Result.Highlights
	Fold       *Fold  `json:"-"`          // as Result.Fold
}

// maxPassages bounds a result's OtherPassages: enough to see where else a document answers,
// few enough that a search of ten results stays a page an AI client reads whole.
const maxPassages = 5

// passageWidth is the words of an other passage's snippet (a result's own has 32).
const passageWidth = 20

// maxNext bounds a result's Next list.
const maxNext = 2

// maxAlsoIn bounds a result's AlsoIn list: a passage in a hundred copies is one result naming a
// few of them and counting the rest.
const maxAlsoIn = 10

// Response is a search's answer.
type Response struct {
	Mode    string   `json:"mode"`
	Results []Result `json:"results"`
	Dropped int      `json:"dropped,omitempty"` // documents found but left out for too little evidence (Floor)
	TookMS  float64  `json:"took_ms"`
	Notice  string   `json:"notice,omitempty"` // e.g. semantic asked but only keyword available; weaker results left out
	// Terms are the query's terms with the IDF keyword search weighed them by (none when the
	// keyword half did not run or the index is empty), for callers that score text against the
	// query the way the results were ranked (ask); not part of any transport.
	Terms []Term `json:"-"`
}

// rrfK is reciprocal-rank fusion's constant: it flattens the advantage of the very first
// ranks so that agreement between the two halves matters more than either's top pick.
const rrfK = 60

// candidateDepth is how many chunks each half brings to fusion, whatever the limit: the
// ranking of the first results must not depend on how many were asked for (it did when the
// depth was max(limit×4, 50)). 100 covers the largest limit with room for grouping.
const candidateDepth = 100

// Searcher answers queries.
type Searcher struct {
	DB      *store.DB
	Vectors Vectors // nil: keyword only
}

// chunkCand is a candidate chunk with its evidence.
type chunkCand struct {
	hit    store.SearchHit
	score  float64            // fused chunk evidence
	share  float64            // keyword: share of the query's IDF mass (0 if not found by keyword)
	cosine float64            // vector: cosine similarity (0 if not found by vectors)
	byVec  bool               // found by the vector half
	strong bool               // passes the floor of evidence on its own (Floor)
	modes  map[string]float64 // for the result

	shingles []uint64 // of its text, when its document is compared for shared passages
}

// Search runs q. Keyword and vector candidates are gathered side by side (a fixed depth),
// fused per chunk, ranked per document (rank.go), near-identical documents grouped, results
// below the floor of evidence dropped, and the rest cited by their best chunk. Ties are broken
// by IDs.
func (s *Searcher) Search(ctx context.Context, q Query) (*Response, error) {
	start := time.Now()
	resp := &Response{Mode: q.Mode, Results: []Result{}}
	depth := candidateDepth
	useKeyword := q.Mode != ModeSemantic
	useVector := q.Mode != ModeKeyword && s.Vectors != nil
	if q.Mode == ModeSemantic && s.Vectors == nil {
		useKeyword, resp.Notice = true, "no vector index yet: answered by keyword search"
	}
	semantic := useVector && s.Vectors.Semantic()
	w := DefaultWeights(semantic)
	if q.Weights != nil {
		w = *q.Weights
	}
	if !useVector || !useKeyword {
		// One half alone carries the whole chunk weight, so that keyword-only (or vector-only)
		// search is the same ranking with the other half's evidence taken away, whatever the
		// split between the halves.
		w.Keyword, w.Vector = w.Keyword+w.Vector, w.Keyword+w.Vector
	}
	floor := DefaultFloor(semantic)
	if q.Floor != nil {
		floor = *q.Floor
	}
	cands := map[int64]*chunkCand{}
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
	var (
		khits []store.SearchHit
		stats kwStats
		kerr  error
	)
	if useKeyword {
		if khits, stats, kerr = keywordSearch(hctx, s.DB.Reader(), q.Text, q.Filter, depth, defaultKeywordBudget); kerr != nil {
			cancel()
		}
	}
	wg.Wait()
	if err := firstCause(ctx, kerr, verr); err != nil {
		return nil, err
	}
	known := 1.0
	switch {
	case floor.Known <= 0 || !useVector:
	case useKeyword:
		known = stats.known
	default: // vectors alone: which of the query's words does the index hold?
		k, err := knownShare(ctx, s.DB.Reader(), q.Text)
		if err != nil {
			return nil, err
		}
		known = k
	}
	vectorFloor := floor.Vector
	if !useKeyword {
		// Vectors alone: the static space's cosines do not tell filler from answers (see
		// Floor; the cosine floor cost semantic-only search half its recall@5 on the 71
		// questions), so only the known-words rule applies.
		vectorFloor = math.Inf(-1)
	}
	if known < floor.Known {
		vectorFloor = math.Inf(1) // no vector evidence counts: see Floor
	}
	for rank, h := range khits {
		c := &chunkCand{hit: h, share: stats.share(h.Score), modes: map[string]float64{ModeKeyword: round(h.Score)}}
		if stats.mass <= 0 {
			c.share = 1 // the query's terms could not be weighed here (FTS5 ranked alone): no floor
		}
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
				c = &chunkCand{hit: h, modes: map[string]float64{}}
				cands[v.RowID] = c
			}
			c.modes["vector"] = round(v.Score)
			c.cosine, c.byVec = v.Score, true
			c.score += contrib(w.Vector, rank, v.Score, best, worst)
			rank++
			if rank >= depth {
				break
			}
		}
	}
	// The floor of evidence, chunk by chunk: a group is kept if some chunk of it passes, and a
	// document's other passages are those that pass.
	for _, c := range cands {
		c.strong = useKeyword && c.share > 0 && c.share >= floor.KeywordShare || useVector && c.byVec && c.cosine >= vectorFloor
	}
	groups, texts, err := s.rank(ctx, cands, stats, w)
	if err != nil {
		return nil, err
	}
	kept := groups[:0]
	for _, g := range groups {
		if g.passes() {
			kept = append(kept, g)
		} else {
			resp.Dropped++
		}
	}
	groups = kept
	resp.Terms = stats.terms
	if resp.Dropped > 0 {
		n := fmt.Sprintf("%d weaker results left out", resp.Dropped)
		if resp.Dropped == 1 {
			n = "1 weaker result left out"
		}
		resp.Notice = strings.TrimPrefix(resp.Notice+"; "+n, "; ")
	}
	results, err := s.cite(ctx, q, groups, texts)
	if err != nil {
		return nil, err
	}
	resp.Results = append(resp.Results, results...)
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
