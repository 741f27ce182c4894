package engine

import (
	"context"

	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// maxSearchSourceBytes bounds the files a search reads again to place a citation inside a
// folded paragraph: a chapter is tens of KB (a few ms), the Rust book on one page 1.9 MB (130 ms
// once, then cached); Node's all.html (8 MB) keeps the paragraph's first line.
const maxSearchSourceBytes = 4 << 20

// unfoldLines moves each citation whose line is a folded paragraph (search.Fold: the HTML reader
// made one text line of a paragraph the file wraps over several) to the file's own line of its
// words, through the reader's source map of the file read again (readSource, cached). A file
// that changed, is gone or is too big keeps the paragraph's first line.
func (e *Engine) unfoldLines(ctx context.Context, results []search.Result) error {
	type place struct {
		fold       *search.Fold
		line       *int
		start, end int
	}
	var places []place
	var ids []string
	for i := range results {
		r := &results[i]
		if r.Fold != nil {
			places = append(places, place{r.Fold, &r.Line, r.LineStart, r.LineEnd})
			ids = append(ids, r.Fold.ChunkID)
		}
		for j := range r.OtherPassages {
			p := &r.OtherPassages[j]
			if p.Fold != nil {
				places = append(places, place{p.Fold, &p.Line, p.LineStart, p.LineEnd})
				ids = append(ids, p.Fold.ChunkID)
			}
		}
		for j := range r.AlsoIn {
			a := &r.AlsoIn[j]
			if a.Fold != nil {
				places = append(places, place{a.Fold, &a.Line, a.LineStart, a.LineEnd})
				ids = append(ids, a.Fold.ChunkID)
			}
		}
	}
	if len(places) == 0 {
		return nil
	}
	chunks, err := store.ChunksByID(ctx, e.db.Reader(), ids)
	if err != nil {
		return err
	}
	byID := make(map[string]store.Chunk, len(chunks))
	for _, c := range chunks {
		byID[c.ChunkID] = c
	}
	docs := map[string]*extract.Document{} // each file once per search
	for _, p := range places {
		c, ok := byID[p.fold.ChunkID]
		if !ok {
			continue
		}
		doc, seen := docs[c.DocumentID]
		if !seen {
			if doc, err = e.readSource(ctx, c, maxSearchSourceBytes); err != nil {
				return err
			}
			docs[c.DocumentID] = doc
		}
		if doc != nil && p.fold.Offset >= 0 && p.fold.Offset < len(c.Text) {
			*p.line = min(max(doc.SourceLine(c.TextStart+p.fold.Offset), p.start), max(p.end, p.start))
		}
	}
	return nil
}
