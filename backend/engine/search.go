package engine

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/paths"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// SearchRequest is one search with its filters.
type SearchRequest struct {
	Query       string `json:"query"`
	Mode        string `json:"mode,omitempty"`  // hybrid (default) | keyword | semantic
	Limit       Limit  `json:"limit,omitempty"` // 1–100; omitted: 10 (limit.go)
	Type        string `json:"type,omitempty"`  // document type: invoice, contract, meeting-notes, …
	Path        string `json:"path,omitempty"`  // path prefix
	Tag         string `json:"tag,omitempty"`
	Mime        string `json:"mime,omitempty"`
	From        string `json:"from,omitempty"` // YYYY-MM-DD
	To          string `json:"to,omitempty"`
	PerDocument bool   `json:"per_document,omitempty"` // kept for callers: results are one per document (or group of documents holding one passage) either way
	// KeywordWeight and VectorWeight override the fusion weights (both 0: the defaults for
	// the active embedder); Fusion is "weighted" (default) or "rrf".
	KeywordWeight float64 `json:"keyword_weight,omitempty"`
	VectorWeight  float64 `json:"vector_weight,omitempty"`
	Fusion        string  `json:"fusion,omitempty"`
	// Ranking and Floor replace the ranking's weights and floor of evidence whole; for fitting
	// them (TestFitFusion), not part of any transport.
	Ranking *search.Weights `json:"-"`
	Floor   *search.Floor   `json:"-"`
}

// SearchResult is one cited hit of a SearchResponse.
type SearchResult = search.Result

// SearchPassage is one more place of a result's document that the query found.
type SearchPassage = search.Passage

// SearchHighlight is one matched word in a result's snippet, in UTF-16 code units.
type SearchHighlight = search.Span

// SearchResponse is a search's results, with the embedder that answered so a client (an AI
// agent especially) can adapt its queries: keywords for a static space, prose for a semantic one.
type SearchResponse struct {
	search.Response
	Embedder *EmbeddingStatus `json:"embedder"`
}

// Search finds chunks matching a query, fused from keyword and vector search, each result
// citing its document, path, lines or page and heading.
func (e *Engine) Search(ctx context.Context, r SearchRequest) (*SearchResponse, error) {
	q, err := searchQuery(r)
	if err != nil {
		return nil, err
	}
	resp, err := e.runSearch(ctx, q)
	if err != nil {
		return nil, err
	}
	if err := e.unfoldLines(ctx, resp.Results); err != nil {
		return nil, err
	}
	emb, err := e.cachedEmbeddingStatus(ctx)
	if err != nil {
		return nil, err
	}
	return &SearchResponse{Response: *resp, Embedder: emb}, nil
}

// searchQuery validates a search request and turns it into the searcher's query.
func searchQuery(r SearchRequest) (search.Query, error) {
	q := search.Query{Text: strings.TrimSpace(r.Query), Mode: r.Mode, Limit: int(r.Limit), PerDocument: r.PerDocument,
		Filter: store.SearchFilter{DocType: r.Type, PathPrefix: folderFilter(r.Path), Tag: r.Tag, Mime: r.Mime, From: r.From, To: r.To, FoldCase: paths.Host.FoldsCase()}, Fusion: r.Fusion}
	if r.KeywordWeight < 0 || r.VectorWeight < 0 {
		return q, errs.New(errs.Validation, "fusion weights must not be negative").With("field", "keyword_weight")
	}
	if r.KeywordWeight+r.VectorWeight > 0 {
		w := search.DefaultWeights(false)
		w.Keyword, w.Vector = r.KeywordWeight, r.VectorWeight
		q.Weights = &w
	}
	if r.Ranking != nil {
		q.Weights = r.Ranking
	}
	q.Floor = r.Floor
	switch q.Fusion {
	case "", search.FusionWeighted, search.FusionRRF:
	default:
		return q, errs.New(errs.Validation, "fusion %q is not weighted or rrf", q.Fusion).With("field", "fusion")
	}
	if q.Text == "" {
		return q, errs.New(errs.Validation, "query is empty").With("field", "query").WithHint("type a few words to search for")
	}
	// A query of punctuation alone (a quote mark, an asterisk) has nothing either half can
	// match: answering it gave "0 results, 44 weaker results left out".
	if !strings.ContainsFunc(q.Text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return q, errs.New(errs.Validation, "query %q has no words", q.Text).With("field", "query").WithHint("type a few words to search for")
	}
	if n := utf8.RuneCountInString(q.Text); n > search.MaxQueryChars {
		return q, errs.New(errs.Validation, "query is %d characters long, more than the %d a search takes", n, search.MaxQueryChars).
			With("field", "query").With("limit", search.MaxQueryChars).WithHint("search with the key words or a sentence, not a whole text")
	}
	if n := search.QueryTerms(q.Text); n > search.MaxQueryTerms {
		return q, errs.New(errs.Validation, "query has %d distinct words, more than the %d a search takes", n, search.MaxQueryTerms).
			With("field", "query").With("limit", search.MaxQueryTerms).WithHint("search with the key words or a sentence, not a whole text")
	}
	switch q.Mode {
	case "":
		q.Mode = search.ModeHybrid
	case search.ModeHybrid, search.ModeKeyword, search.ModeSemantic:
	default:
		return q, errs.New(errs.Validation, "mode %q is not hybrid, keyword or semantic", q.Mode).With("field", "mode")
	}
	switch {
	case q.Limit == 0:
		q.Limit = 10
	case q.Limit < 0 || q.Limit > 100:
		return q, errs.New(errs.Validation, "limit %d is out of range 1–100", q.Limit).With("field", "limit")
	}
	for field, d := range map[string]string{"from": r.From, "to": r.To} {
		if d == "" {
			continue
		}
		if _, err := time.Parse("2006-01-02", d); err != nil {
			return q, errs.New(errs.Validation, "%s %q is not a date (YYYY-MM-DD)", field, d).With("field", field)
		}
	}
	return q, nil
}

// runSearch runs a validated query with the active vector space.
func (e *Engine) runSearch(ctx context.Context, q search.Query) (*search.Response, error) {
	s := &search.Searcher{DB: e.db}
	if v := e.vectors(ctx, q.Text); q.Mode != search.ModeKeyword && v != nil {
		s.Vectors = v
	}
	resp, err := s.Search(ctx, q)
	if err != nil {
		return nil, errs.Wrap(errs.SearchFailed, err, "search failed").WithHint("retry; if it persists, check the log")
	}
	return resp, nil
}
