package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/ask"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// Ask answers a question from the store with cited passages (issue 15, seed ADR-037's query).
//
// The passages are the engine's own hybrid search with the request's filters: each result's
// best chunk and its second best, never a document Strata wrote itself (generated answers and
// lint reports: an answer must rest on what the user's documents say, not on an earlier
// answer). Without a chat model the answer is extractive: the few sentences of the passages
// that hold most of the question, in reading order, each ending with the citation of the file
// lines it stands on. With a local chat model the answer is written from the numbered passages
// and every sentence is checked against the passages it cites; a sentence that fails is
// removed and listed in Unsupported. When the question names an entity the store knows, its
// snapshot facts come with their provenance, stated first. The same store and question give
// the same answer.
//
// The pipeline is package ask's; the engine checks the request, gives it the search, the store,
// the files, the chat model and the facts through small adapters, files the answer back when
// asked, and wraps errors in their envelopes.
func (e *Engine) Ask(ctx context.Context, r AskRequest) (*AskResponse, error) {
	if err := checkAsk(&r); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, askCancelled(err)
	}
	a := &ask.Asker{Search: askSearch{e, r}, Store: askStore{e}, Files: askFiles{e}, Chat: e.chat, Facts: askFacts{e},
		Options: e.askOptions, Log: e.log}
	ans, err := a.Answer(ctx, r.Question)
	if err != nil {
		return nil, askErr(ctx, err)
	}
	resp := &AskResponse{Question: r.Question, Answer: ans.Text, Citations: ans.Citations, Facts: ans.Facts, Mode: ans.Mode,
		Model: ans.Model, Unsupported: ans.Unsupported, Notice: ans.Notice, Closest: ans.Closest}
	if r.Format == AskSummaryWithSource && ans.Text != "" {
		resp.Answer += "\n\n" + ask.SourcesList(resp.Citations)
	}
	if r.Persist {
		if ans.Text == "" {
			resp.Notice = ask.JoinNotice(resp.Notice, "nothing was filed: there is no answer to keep")
		} else if err := e.persistAnswer(ctx, r, ans.Text, resp); err != nil {
			return nil, askErr(ctx, err)
		}
	}
	if resp.Embedder, err = e.cachedEmbeddingStatus(ctx); err != nil {
		return nil, askErr(ctx, err)
	}
	return resp, nil
}

// askSearch is the engine's hybrid search for ask, with the request's filters (ask.Searcher).
type askSearch struct {
	e *Engine
	r AskRequest
}

// SearchPassages runs the search with the request's filters, never over the documents Strata
// wrote itself (generated answers and lint reports: an answer must rest on what the user's
// documents say, not on an earlier answer).
func (s askSearch) SearchPassages(ctx context.Context, question string) (*search.Response, error) {
	f := s.r.Filters
	q, err := searchQuery(SearchRequest{Query: question, Limit: Limit(s.r.MaxPassages), Type: f.Type, Path: f.Path, Tag: f.Tag, Mime: f.Mime, From: f.From, To: f.To})
	if err != nil {
		ee := errs.As(err)
		fld, _ := ee.Details["field"].(string)
		switch fld {
		case "query":
			ee.Details["field"] = "question"
		case "from", "to", "type", "path", "tag", "mime":
			ee.Details["field"] = "filters." + fld
		}
		return nil, ee
	}
	q.Filter.ExcludePathPrefix = s.e.GeneratedDir() + string(filepath.Separator)
	// No floor of evidence per document: every sentence of an answer must pass ask's own
	// (answer.Pick, on IDF without FTS5's floor). Search's floor weighs words with FTS5's BM25,
	// whose IDF drops to almost nothing for a word in half the chunks: in a small store, the
	// answer filed back for a question (which repeats its words) pushed the source itself under
	// the floor, and asking again found nothing.
	q.Floor = &search.Floor{}
	return s.e.runSearch(ctx, q)
}

// askStore reads the store for ask over the reader (ask.Store): asking never takes the write lock.
type askStore struct{ e *Engine }

func (s askStore) ChunksByID(ctx context.Context, ids []string) ([]store.Chunk, error) {
	return store.ChunksByID(ctx, s.e.db.Reader(), ids)
}

func (s askStore) DocumentsByID(ctx context.Context, ids []string) ([]store.Document, error) {
	return store.DocumentsByID(ctx, s.e.db.Reader(), ids)
}

func (s askStore) GetDocument(ctx context.Context, id string) (store.Document, error) {
	return store.GetDocument(ctx, s.e.db.Reader(), id)
}

func (s askStore) ChunkCovering(ctx context.Context, documentID string, line, page int) (store.Chunk, error) {
	return store.ChunkCovering(ctx, s.e.db.Reader(), documentID, line, page)
}

func (s askStore) ChunkAt(ctx context.Context, documentID string, ordinal int) (store.Chunk, error) {
	return store.ChunkAt(ctx, s.e.db.Reader(), documentID, ordinal)
}

func (s askStore) FirstChunkWith(ctx context.Context, documentID, phrase string) (store.Chunk, error) {
	return store.FirstChunkWith(ctx, s.e.db.Reader(), documentID, phrase)
}

func (s askStore) FirstChunkHeaded(ctx context.Context, documentID, phrase string) (store.Chunk, error) {
	return store.FirstChunkHeaded(ctx, s.e.db.Reader(), documentID, phrase)
}

func (s askStore) DocumentsTitled(ctx context.Context, word string, limit int) (int, error) {
	return store.DocumentsTitled(ctx, s.e.db.Reader(), word, limit)
}

// askFiles reads documents' files again for ask (ask.Files), through the engine's cache.
type askFiles struct{ e *Engine }

func (f askFiles) ReadSource(ctx context.Context, c store.Chunk, maxBytes int64) (*extract.Document, error) {
	return f.e.readSource(ctx, c, maxBytes)
}

func (f askFiles) FileLines(ctx context.Context, documentID string, start, end int) (string, bool, error) {
	return f.e.fileLines(ctx, documentID, start, end)
}

// askFacts finds what the store holds of the entities a question names (ask.Facts).
type askFacts struct{ e *Engine }

func (f askFacts) Facts(ctx context.Context, question string) (ask.FactSet, error) {
	return f.e.askFacts(ctx, question)
}

func (f askFacts) Disagreements(ctx context.Context, ids []string) ([]string, error) {
	return f.e.factDisagreements(ctx, ids)
}

// People are the persons whose name or alias begins with one of the words, as their names' words.
func (f askFacts) People(ctx context.Context, words []string) ([][]string, error) {
	ents, err := store.EntitiesNaming(ctx, f.e.db.Reader(), words, DocumentType, maxNameCandidates)
	if err != nil {
		return nil, err
	}
	var out [][]string
	for _, ent := range ents {
		if ent.EntityType != "person" {
			continue
		}
		for _, n := range append([]string{ent.CanonicalName}, ent.Aliases...) {
			if nw := answer.NameWords(n); len(nw) > 0 && !strings.Contains(n, "@") {
				out = append(out, nw)
			}
		}
	}
	return out, nil
}

// askCancelled is the envelope of an ask whose caller went away.
func askCancelled(err error) error {
	return errs.Wrap(errs.Cancelled, err, "asking was cancelled before it finished").WithHint("nothing was half-written; ask again")
}

// askErr keeps an envelope as it is, turns a cancelled context into CANCELLED, and anything
// else into a read failure.
func askErr(ctx context.Context, err error) error {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return askCancelled(err)
	}
	if ee := (*errs.Error)(nil); errors.As(err, &ee) {
		return ee
	}
	return errs.Wrap(errs.DBQueryFailed, err, "could not read what the answer needs").WithHint("retry; if it persists the database may be damaged")
}
