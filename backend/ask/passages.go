package ask

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// parsed is a question as the pipeline reads it once: its text, kind, required terms and the
// term it asks to define (nil when it asks none).
type parsed struct {
	text string
	kind answer.Kind
	req  answer.Required
	term []string
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
	// above is the chunk before this one in its document, read for its section titles when the
	// question asks a version or a date (answer.Passage.Above); nil otherwise.
	above *passage
	// titlesOnly: this passage was read only as another's above (answer.Passage.TitlesOnly); it
	// is second too, so the chat model is not sent it.
	titlesOnly bool
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

// passages runs the search for the question and loads each result's best chunk and its second
// best, split into sentences. A document often answers in the paragraph after the one that
// matched best (an API's name in its heading's chunk, what it does in the next), so each result
// brings two passages; the chat model is sent the best ones only (see askLLM). The query scores
// sentences with the terms and weights the search ranked by. Each passage notes what of req
// (the question's required terms) it does not say.
func (a *Asker) passages(ctx context.Context, q parsed) ([]*passage, answer.Query, error) {
	res, err := a.Search.SearchPassages(ctx, q.text)
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
	chunks, err := a.Store.ChunksByID(ctx, ids)
	if err != nil {
		return nil, answer.Query{}, err
	}
	byID := make(map[string]store.Chunk, len(chunks))
	var docIDs []string
	for _, c := range chunks {
		byID[c.ChunkID] = c
		docIDs = append(docIDs, c.DocumentID)
	}
	docs, err := a.Store.DocumentsByID(ctx, docIDs)
	if err != nil {
		return nil, answer.Query{}, err
	}
	byDoc := make(map[string]store.Document, len(docs))
	for _, d := range docs {
		byDoc[d.DocumentID] = d
	}
	query := answer.NewQuery(q.text, res.Terms)
	subject, err := a.subjects(ctx, res.Results, q.req)
	if err != nil {
		return nil, answer.Query{}, err
	}
	req := q.req.Strict(subject)
	if q.kind.AsksValue() {
		// A value asked of something the store never names ("the rent for a quarter plot")
		// is not there, whatever values of its neighbours (full and half plots) are. A verb's
		// past ("Which version of sed brought in --debug?") names what happened, not the thing:
		// a document says it in its own words ("new option --debug"); a word naming the kind of
		// value ("release") is not the thing either.
		unknown := map[string]bool{}
		for _, w := range answer.UnknownWords(q.text, query) {
			if !answer.PastForm(w) && !q.kind.NamesKind(w) {
				unknown[w] = true
			}
		}
		req = req.Strict(func(w string) bool { return unknown[w] })
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
	// Where the first results' documents first name the question's defined term or its
	// identifiers: a term is defined where it is introduced, and an identifier (1.9.0,
	// BPS-2024-0117) is exact where search's words are not (1.9.0 is the words 1, 9 and 0).
	// An identifier is looked for in the headings first: the section a changelog heads with
	// "1.9.0 2024-04-04" is 1.9.0's, a mention of it elsewhere is another release's note.
	if q.term != nil {
		if out, err = a.introductions(ctx, out, res.Results, strings.Join(q.term, " "), false, byDoc); err != nil {
			return nil, answer.Query{}, err
		}
	}
	for _, id := range req.Flat().Idents {
		if out, err = a.introductions(ctx, out, res.Results, id, true, byDoc); err != nil {
			return nil, answer.Query{}, err
		}
	}
	for _, p := range out {
		p.missing = req.Missing(passageContext(p))
	}
	if (q.kind == answer.KindVersion || q.kind == answer.KindDate) && len(req.Flat().Idents) == 0 {
		// (after missing: only a passage that may answer needs its section's title)
		if err := a.readAbove(ctx, out, q.kind, byDoc); err != nil {
			return nil, answer.Query{}, err
		}
	}
	return out, query, nil
}

// maxAbove bounds the chunks read above a passage for its section's title.
const maxAbove = 3

// readAbove reads, for each passage that may answer (supports) and does not begin its
// document, the chunks before it (up to maxAbove, each the above of the one below), and the
// chunk that begins the nearest section over it whose heading holds a value of the kind (a
// Markdown "## 2.4.0 (2025-03-01)" over a long section, however far above): "Which version of
// sed brought in --debug?" is answered by the line naming the change and the title of its
// release's section, which a changelog writes once. A chunk is read once for all the passages
// of its document.
func (a *Asker) readAbove(ctx context.Context, ps []*passage, kind answer.Kind, byDoc map[string]store.Document) error {
	type at struct {
		doc string
		ord int
	}
	read := map[at]*passage{}
	titles := func(c store.Chunk, p *passage) *passage {
		q := &passage{result: p.result, rank: p.rank, chunk: c, sents: splitPassage(byDoc[c.DocumentID], c.Text), second: true, titlesOnly: true}
		read[at{c.DocumentID, c.Ordinal}] = q
		return q
	}
	for _, p := range ps {
		if p.supports() && read[at{p.chunk.DocumentID, p.chunk.Ordinal}] == nil {
			read[at{p.chunk.DocumentID, p.chunk.Ordinal}] = p // answers, and is read for its titles too
		}
	}
	for _, p := range ps {
		if !p.supports() {
			continue
		}
		top := p
		for n := 0; n < maxAbove && top.chunk.Ordinal > 0; n++ {
			if top.above == nil {
				top.above = read[at{top.chunk.DocumentID, top.chunk.Ordinal - 1}]
			}
			if top.above == nil {
				c, err := a.Store.ChunkAt(ctx, top.chunk.DocumentID, top.chunk.Ordinal-1)
				if errors.Is(err, store.ErrNotFound) {
					break
				}
				if err != nil {
					return err
				}
				top.above = titles(c, p)
			}
			top = top.above
		}
		if top.above != nil {
			continue // its heading's chunk is linked already (another passage of the document)
		}
		c, ok, err := a.headingWith(ctx, p, kind)
		if err != nil {
			return err
		}
		if ok && c.Ordinal < top.chunk.Ordinal {
			if top.above = read[at{c.DocumentID, c.Ordinal}]; top.above == nil {
				top.above = titles(c, p)
			}
		}
	}
	return nil
}

// headingWith is the chunk that begins the nearest section over p whose heading holds a value
// of kind k, if any.
func (a *Asker) headingWith(ctx context.Context, p *passage, k answer.Kind) (store.Chunk, bool, error) {
	path := strings.Split(p.chunk.Heading, " > ")
	for i := len(path) - 1; i >= 0; i-- {
		if !k.Holds(path[i]) {
			continue
		}
		c, err := a.Store.FirstChunkHeaded(ctx, p.chunk.DocumentID, path[i])
		if errors.Is(err, store.ErrNotFound) {
			return store.Chunk{}, false, nil
		}
		return c, err == nil, err
	}
	return store.Chunk{}, false, nil
}

// maxIntroductions bounds the documents whose first mention of a defined term is read.
const maxIntroductions = 3

// introductions adds the chunk where each of the first few results' documents first names a
// phrase: a document defines a term where it introduces it ("A dpkg trigger is a facility …"
// in the introduction), while the search ranks the chunks that use it most.
func (a *Asker) introductions(ctx context.Context, out []*passage, results []search.Result, phrase string, headed bool, byDoc map[string]store.Document) ([]*passage, error) {
	have := map[string]bool{}
	for _, p := range out {
		have[p.chunk.ChunkID] = true
	}
	seen := map[string]bool{}
	for i, r := range results {
		if len(seen) == maxIntroductions {
			break
		}
		if seen[r.DocumentID] {
			continue
		}
		seen[r.DocumentID] = true
		var c store.Chunk
		err := store.ErrNotFound
		if headed {
			c, err = a.Store.FirstChunkHeaded(ctx, r.DocumentID, phrase)
		}
		if errors.Is(err, store.ErrNotFound) {
			c, err = a.Store.FirstChunkWith(ctx, r.DocumentID, phrase)
		}
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if have[c.ChunkID] {
			continue
		}
		have[c.ChunkID] = true
		out = append(out, &passage{result: r, rank: i, chunk: c, sents: splitPassage(byDoc[c.DocumentID], c.Text), second: true})
	}
	return out, nil
}

// maxSubjectTitles is how many of the store's documents may name a word in their title or
// file name for it to name a subject: a word in many titles ("invoice", "notes", "node") is a
// kind of document, not one's subject.
const maxSubjectTitles = 2

// subjects finds which of the question's content words name the subject of a document: a word
// (or an inflection of it) of the title or file name of one of the results' documents, found
// in those of at most maxSubjectTitles documents of the whole store ("tinyexec" of
// tinyexec-README.md). It reports whether a question's word is one.
func (a *Asker) subjects(ctx context.Context, results []search.Result, req answer.Required) (func(word string) bool, error) {
	titled := map[string]bool{}
	for _, r := range results {
		for _, w := range search.Words(r.Title + " " + strings.TrimSuffix(filepath.Base(r.Path), filepath.Ext(r.Path))) {
			titled[w] = true
		}
	}
	named := map[string]bool{}
	for _, w := range req.Flat().Words {
		for _, f := range answer.Inflections(w) {
			if named[w] || !titled[f] || len(f) < 3 {
				continue
			}
			n, err := a.Store.DocumentsTitled(ctx, f, maxSubjectTitles+1)
			if err != nil {
				return nil, err
			}
			named[w] = n > 0 && n <= maxSubjectTitles
		}
	}
	return func(w string) bool { return named[w] }, nil
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
