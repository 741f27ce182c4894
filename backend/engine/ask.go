package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/errs"
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
func (e *Engine) Ask(ctx context.Context, r AskRequest) (*AskResponse, error) {
	if err := checkAsk(&r); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, askCancelled(err)
	}
	resp := &AskResponse{Question: r.Question, Citations: []Citation{}, Facts: []Fact{}, Mode: AskExtractive, Unsupported: []Unsupported{}}
	req := answer.RequiredTerms(r.Question)
	passages, query, err := e.askPassages(ctx, r, req)
	if err != nil {
		return nil, askErr(ctx, err)
	}
	facts, err := e.askFacts(ctx, r.Question)
	if err != nil {
		return nil, askErr(ctx, err)
	}
	resp.Facts = facts.list
	disagree, err := e.factDisagreements(ctx, facts.entities)
	if err != nil {
		return nil, askErr(ctx, err)
	}
	for _, d := range disagree {
		resp.Notice = joinNotice(resp.Notice, "the sources disagree: "+d)
	}
	// Only passages that say all the question requires may answer it; the others are the
	// closest passages when none does.
	var answering []*passage
	for _, p := range passages {
		if p.supports() {
			answering = append(answering, p)
		}
	}
	w := &answerWriter{e: e, passages: answering, cites: map[string]int{}, sources: map[string]*sourceText{}}
	factLines, err := w.factSentences(ctx, facts, req)
	if err != nil {
		return nil, askErr(ctx, err)
	}
	body, err := e.modelAnswer(ctx, w, r.Question, resp)
	if err != nil {
		return nil, askErr(ctx, err)
	}
	if resp.Mode == AskExtractive {
		opt := answer.DefaultOptions
		if e.askOptions != nil {
			opt = *e.askOptions
		}
		opt.Mention = facts.named
		opt.Kind, opt.Required, opt.Define = answer.KindOf(r.Question), req, answer.DefinedTerm(r.Question)
		picked := answer.Pick(w.answerPassages(), query, opt)
		if body, err = w.extractive(ctx, picked); err != nil {
			return nil, askErr(ctx, err)
		}
		if req.HasIdents() {
			resp.Notice = joinNotice(resp.Notice, differingValues(opt.Kind, picked, w.passages))
		}
	}
	text := ""
	if all := append(factLines, body...); len(all) == 0 {
		resp.Notice = joinNotice(resp.Notice, notFoundNotice(passages, answering))
		resp.Closest = closestPassages(passages)
	} else {
		text = render(all)
		if words := answer.UnknownWords(r.Question, query); len(words) > 0 {
			resp.Notice = joinNotice(resp.Notice, "no document holds “"+strings.Join(words, "”, “")+"”: the answer says nothing about it")
		}
	}
	resp.Answer = text
	if len(w.list) > 0 { // no citations stay [] on the wire, never null
		resp.Citations = w.list
	}
	if r.Format == AskSummaryWithSource && text != "" {
		resp.Answer += "\n\n" + sourcesList(resp.Citations)
	}
	if r.Persist {
		if text == "" {
			resp.Notice = joinNotice(resp.Notice, "nothing was filed: there is no answer to keep")
		} else if err := e.persistAnswer(ctx, r, text, resp); err != nil {
			return nil, askErr(ctx, err)
		}
	}
	if resp.Embedder, err = e.cachedEmbeddingStatus(ctx); err != nil {
		return nil, askErr(ctx, err)
	}
	return resp, nil
}

// differingValues says when the answer's sentences from different documents write different
// values of the kind asked about the one record the question names (issue 24: the invoice
// says £2,184.60, its reminder £2,148.60): each document's values, so that neither is taken
// for the answer alone. "" when they agree or only one document gives any.
func differingValues(k answer.Kind, picked []answer.Picked, ps []*passage) string {
	type doc struct {
		name    string
		written []string
		norm    map[string]bool
	}
	var docs []*doc
	byPath := map[string]*doc{}
	for _, pk := range picked {
		p := ps[pk.Passage]
		written, norm := k.Values(p.sents[pk.Index].Text)
		if len(norm) == 0 {
			continue
		}
		d := byPath[p.result.Path]
		if d == nil {
			d = &doc{name: filepath.Base(p.result.Path), norm: map[string]bool{}}
			byPath[p.result.Path] = d
			docs = append(docs, d)
		}
		for i, n := range norm {
			if !d.norm[n] {
				d.norm[n] = true
				d.written = append(d.written, written[i])
			}
		}
	}
	differ := false
	for _, d := range docs[min(1, len(docs)):] {
		differ = differ || !maps.Equal(d.norm, docs[0].norm)
	}
	if !differ {
		return ""
	}
	what := map[answer.Kind]string{answer.KindMoney: "amounts", answer.KindDate: "dates"}[k]
	parts := make([]string, len(docs))
	for i, d := range docs {
		parts[i] = strings.Join(d.written[:min(3, len(d.written))], ", ") + " (" + d.name + ")"
	}
	return "the sources give different " + what + ": " + strings.Join(parts, "; ")
}

// notFoundNotice says why there is no answer: no passage was found, or none says all the
// question requires — then what the closest one leaves out.
func notFoundNotice(all, answering []*passage) string {
	if len(all) == 0 || len(answering) > 0 {
		return "not found: nothing in the store answers this question"
	}
	best := all[0]
	for _, p := range all[1:] {
		if len(p.missing) < len(best.missing) {
			best = p
		}
	}
	return "not found: no passage says “" + strings.Join(best.missing, "”, “") + "” of what the question asks"
}

// maxClosest bounds the passages a "not found" returns.
const maxClosest = 3

// closestPassages are the best passages of the search, returned apart from an answer when
// there is none: where to read on, not what the store says.
func closestPassages(ps []*passage) []ClosestPassage {
	out := []ClosestPassage{}
	seen := map[string]bool{}
	for _, p := range ps {
		if len(out) == maxClosest {
			break
		}
		if p.second || seen[p.result.DocumentID] {
			continue
		}
		seen[p.result.DocumentID] = true
		out = append(out, ClosestPassage{DocumentID: p.result.DocumentID, Path: p.result.Path, Title: p.result.Title,
			LineStart: p.result.LineStart, LineEnd: p.result.LineEnd, Page: p.result.Page, Snippet: p.result.Snippet, Missing: p.missing})
	}
	return out
}

// modelAnswer asks the local chat model, when there is one and there are passages, and returns
// the sentences of its answer that the check kept, setting resp's mode and model. When the
// model fails, finds no answer, or writes nothing the passages bear out, it returns none and
// resp stays extractive, its notice saying why (and Unsupported listing what was removed).
func (e *Engine) modelAnswer(ctx context.Context, w *answerWriter, question string, resp *AskResponse) ([]answerSentence, error) {
	if len(w.passages) == 0 {
		return nil, nil
	}
	if ok, _ := e.chat.Available(ctx); !ok {
		return nil, nil
	}
	var sent []*passage
	for _, p := range w.passages {
		if !p.second {
			sent = append(sent, p)
		}
	}
	out, err := e.askLLM(ctx, question, sent)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		// Not a failure of the ask: the extractive answer stands in, and the notice says so.
		resp.Notice = joinNotice(resp.Notice, "the local chat model did not answer; this answer is extracted from the passages")
		e.log.Warn("ask: the chat model failed, answering extractively", "err", err)
		return nil, nil
	}
	resp.Unsupported = out.unsupported
	switch {
	case len(out.sentences) > 0:
		body, err := w.llmSentences(ctx, sent, out.sentences)
		if err != nil {
			return nil, err
		}
		resp.Mode, resp.Model = AskLLM, e.chat.Model()
		return body, nil
	case out.noAnswer:
		resp.Notice = joinNotice(resp.Notice, "the local chat model found no answer in the passages; this answer is extracted from them")
	default:
		resp.Notice = joinNotice(resp.Notice, fmt.Sprintf("none of the %d sentences the chat model wrote is borne out by the passages it cites; this answer is extracted from the passages", len(out.unsupported)))
	}
	return nil, nil
}

func joinNotice(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
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

// passage is one retrieved passage: a search result's best chunk, or its second best.
type passage struct {
	result search.Result
	rank   int // the result's rank (0 for the best)
	chunk  store.Chunk
	sents  []answer.Sentence
	second bool // the result's second-best chunk
	// missing is what of the question this passage does not say (answer.Required.Missing, over
	// its text, heading, title and file name): a passage that misses anything answers nothing.
	missing []string
}

// supports reports whether the passage says everything the question requires.
func (p *passage) supports() bool { return len(p.missing) == 0 }

// passageContext is what a passage is read with when deciding whether it answers: its text,
// its heading, its document's title and file name (a changelog's "1.9.0" section names its
// project only in the file's name).
func passageContext(p *passage) string {
	return p.chunk.Heading + "\n" + p.result.Title + "\n" + filepath.Base(p.result.Path) + "\n" + p.chunk.Text
}

// subjectLines are how many of a document's first lines say what it is about: a letter's
// heading and subject line, an invoice's number.
const subjectLines = 12

// passageSubject is what a passage's document says it is about (answer.Passage.Subject): its
// title, file name and the heading over the passage, and, when the passage is the document's
// first chunk, its first lines.
func passageSubject(p *passage) string {
	s := p.chunk.Heading + "\n" + p.result.Title + "\n" + filepath.Base(p.result.Path)
	if p.chunk.Ordinal == 0 {
		lines := strings.SplitN(p.chunk.Text, "\n", subjectLines+1)
		s += "\n" + strings.Join(lines[:min(len(lines), subjectLines)], "\n")
	}
	return s
}

// askPassages runs the search for the question and loads each result's best chunk and its
// second best, split into sentences. A document often answers in the paragraph after the one
// that matched best (an API's name in its heading's chunk, what it does in the next), so each
// result brings two passages; the chat model is sent the best ones only (see askLLM). The query
// scores sentences with the terms and weights the search ranked by. Each passage notes what of
// req (the question's required terms) it does not say.
func (e *Engine) askPassages(ctx context.Context, r AskRequest, req answer.Required) ([]*passage, answer.Query, error) {
	f := r.Filters
	q, err := searchQuery(SearchRequest{Query: r.Question, Limit: Limit(r.MaxPassages), Type: f.Type, Path: f.Path, Tag: f.Tag, Mime: f.Mime, From: f.From, To: f.To})
	if err != nil {
		ee := errs.As(err)
		fld, _ := ee.Details["field"].(string)
		switch fld {
		case "query":
			ee.Details["field"] = "question"
		case "from", "to", "type", "path", "tag", "mime":
			ee.Details["field"] = "filters." + fld
		}
		return nil, answer.Query{}, ee
	}
	q.Filter.ExcludePathPrefix = e.GeneratedDir() + string(filepath.Separator)
	// No floor of evidence per document: every sentence of an answer must pass ask's own
	// (answer.Pick, on IDF without FTS5's floor). Search's floor weighs words with FTS5's BM25,
	// whose IDF drops to almost nothing for a word in half the chunks: in a small store, the
	// answer filed back for a question (which repeats its words) pushed the source itself under
	// the floor, and asking again found nothing.
	q.Floor = &search.Floor{}
	res, err := e.runSearch(ctx, q)
	if err != nil {
		return nil, answer.Query{}, err
	}
	var ids []string
	for _, r := range res.Results {
		ids = append(ids, r.ChunkID)
		if len(r.Next) > 0 {
			ids = append(ids, r.Next[0])
		}
	}
	chunks, err := store.ChunksByID(ctx, e.db.Reader(), ids)
	if err != nil {
		return nil, answer.Query{}, err
	}
	byID := make(map[string]store.Chunk, len(chunks))
	var docIDs []string
	for _, c := range chunks {
		byID[c.ChunkID] = c
		docIDs = append(docIDs, c.DocumentID)
	}
	docs, err := store.DocumentsByID(ctx, e.db.Reader(), docIDs)
	if err != nil {
		return nil, answer.Query{}, err
	}
	byDoc := make(map[string]store.Document, len(docs))
	for _, d := range docs {
		byDoc[d.DocumentID] = d
	}
	var out []*passage
	for i, r := range res.Results {
		c, ok := byID[r.ChunkID]
		if !ok {
			continue // removed since the search read it
		}
		out = append(out, &passage{result: r, rank: i, chunk: c, sents: splitPassage(byDoc[c.DocumentID], c.Text)})
		if len(r.Next) > 0 {
			if c, ok := byID[r.Next[0]]; ok {
				out = append(out, &passage{result: r, rank: i, chunk: c, sents: splitPassage(byDoc[c.DocumentID], c.Text), second: true})
			}
		}
	}
	for _, p := range out {
		p.missing = req.Missing(passageContext(p))
	}
	return out, answer.NewQuery(r.Question, res.Terms), nil
}

// splitPassage splits a chunk's text into sentences: the HTML reader writes each block on a line
// of its own (answer.SplitLines), other readers keep a paragraph's wrapped lines (answer.Split).
// A source file has none: all of it is code, where a comment that reads like prose is no
// answer a person can quote (the chat model still reads it as a passage).
func splitPassage(d store.Document, text string) []answer.Sentence {
	switch {
	case d.DocType == "code":
		return nil
	case d.Mime == "text/html" || d.Mime == "application/xhtml+xml":
		return answer.SplitLines(text)
	}
	switch strings.ToLower(filepath.Ext(d.Path)) {
	case ".html", ".htm", ".xhtml":
		return answer.SplitLines(text)
	}
	return answer.Split(text)
}

// answerSentence is one sentence of the answer with its citation numbers.
type answerSentence struct {
	text  string
	cites []int
	code  bool // a code block, quoted verbatim in a fence of its own
}

// render writes the answer's sentences as one paragraph, each ending with its citations:
// "… returns a Promise [2]." (the marker before the sentence's own final stop).
func render(list []answerSentence) string {
	var b strings.Builder
	for i, s := range list {
		switch {
		case s.code:
			// A fence long enough for the code's own backticks, the citation after it.
			fence := "```"
			for strings.Contains(s.text, fence) {
				fence += "`"
			}
			b.WriteString("\n\n" + fence + "\n" + s.text + "\n" + fence + "\n" + strings.TrimSpace(withMarkers("", s.cites)) + "\n\n")
		default:
			if i > 0 && !strings.HasSuffix(b.String(), "\n") {
				b.WriteByte(' ')
			}
			b.WriteString(withMarkers(s.text, s.cites))
		}
	}
	return strings.TrimSpace(b.String())
}

func withMarkers(text string, cites []int) string {
	text = answer.EscapeMarkers(text)
	if len(cites) == 0 {
		return text
	}
	var m strings.Builder
	for _, n := range cites {
		fmt.Fprintf(&m, "[%d]", n)
	}
	if n := len(text); n > 0 && strings.IndexByte(".!?", text[n-1]) >= 0 {
		return strings.TrimRight(text[:n-1], " ") + " " + m.String() + text[n-1:] // "der ." (a PDF's spacing) → "der [1]."
	}
	return text + " " + m.String()
}

// sourcesList is the "Sources" section of summary_with_sources: one line per citation,
// "[n] title — path:line" (or "p.N" for a page of a PDF).
func sourcesList(cs []Citation) string {
	var b strings.Builder
	b.WriteString("Sources:")
	for _, c := range cs {
		fmt.Fprintf(&b, "\n[%d] %s — %s", c.N, c.Title, citePlace(c))
	}
	return b.String()
}

// citePlace is where a citation points: path:line, path:line–line, or path p.N.
func citePlace(c Citation) string {
	where := c.Path
	if where == "" {
		where = c.DocumentID
	}
	switch {
	case c.Page > 0:
		return fmt.Sprintf("%s p.%d", where, c.Page)
	case c.LineEnd > c.LineStart:
		return fmt.Sprintf("%s:%d-%d", where, c.LineStart, c.LineEnd)
	default:
		return fmt.Sprintf("%s:%d", where, c.LineStart)
	}
}
