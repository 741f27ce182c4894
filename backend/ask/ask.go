// Package ask answers a question from the store with cited passages (issue 15, seed ADR-037's
// query; issue 24): an answer, or an honest "not found", never something else.
//
// The pipeline: the search's results for the question become passages (each result's best
// chunk and its second best, split into sentences); a passage may answer only if it says what
// the question requires (answer.Required); the facts of the entities the question names come
// first, when they say what is asked; then either the local chat model writes the answer from
// the qualifying passages and every sentence is checked, or the answer is extractive — the few
// sentences that hold most of the question, by its kind (answer.Pick). Every sentence ends with
// the citation of the file lines it stands on. When nothing qualifies, the answer is empty, the
// notice says what is missing, and the closest passages are returned apart from an answer.
//
// The package sees the rest of Strata through the small interfaces below, each declared here
// for what ask needs of it; the engine implements them and keeps the use case (validation,
// filing an answer back, the error envelopes).
package ask

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// Modes of an answer.
const (
	ModeExtractive = "extractive" // sentences copied from the passages (no language model)
	ModeLLM        = "llm"        // written by the local chat model from the passages, each sentence checked
)

// Searcher runs the search for a question, with the filters the caller was asked for.
type Searcher interface {
	SearchPassages(ctx context.Context, question string) (*search.Response, error)
}

// Store reads what passages and citations are made of.
type Store interface {
	ChunksByID(ctx context.Context, ids []string) ([]store.Chunk, error)
	DocumentsByID(ctx context.Context, ids []string) ([]store.Document, error)
	GetDocument(ctx context.Context, id string) (store.Document, error)
	ChunkCovering(ctx context.Context, documentID string, line, page int) (store.Chunk, error)
	// ChunkAt is a document's chunk of that ordinal (store.ErrNotFound: none).
	ChunkAt(ctx context.Context, documentID string, ordinal int) (store.Chunk, error)
	// FirstChunkWith is a document's first chunk holding the phrase (store.ErrNotFound: none);
	// FirstChunkHeaded the first whose heading holds it.
	FirstChunkWith(ctx context.Context, documentID, phrase string) (store.Chunk, error)
	FirstChunkHeaded(ctx context.Context, documentID, phrase string) (store.Chunk, error)
	// DocumentsTitled counts the documents whose title or file name holds a word, up to limit.
	DocumentsTitled(ctx context.Context, word string, limit int) (int, error)
}

// Files reads a document's file again, when it is still the version the store read: for the
// lines a sentence of a folded paragraph stands on, and a spreadsheet row's own line.
type Files interface {
	// ReadSource is the file of a chunk's document read again with its source map, nil when
	// it cannot be (changed, gone, larger than maxBytes, not a file).
	ReadSource(ctx context.Context, c store.Chunk, maxBytes int64) (*extract.Document, error)
	// FileLines is lines [start, end] of a document's file as one line of text; false when
	// the file is not the version the store read.
	FileLines(ctx context.Context, documentID string, start, end int) (string, bool, error)
}

// Chat is the local chat model.
type Chat interface {
	Available(ctx context.Context) (bool, string)
	Chat(ctx context.Context, system, user string) (string, error)
	Model() string
}

// Facts finds the entities a question names and what the store holds of them.
type Facts interface {
	Facts(ctx context.Context, question string) (FactSet, error)
	// Disagreements are lint's contradiction findings about the entities, as their titles.
	Disagreements(ctx context.Context, entityIDs []string) ([]string, error)
	// People are the names (answer.NameWords) of the persons the store knows whose name or
	// alias begins with one of the words (lower case).
	People(ctx context.Context, words []string) ([][]string, error)
}

// Asker answers questions. Options replaces the extractive answer's options when not nil (for
// fitting them); Log receives what goes wrong without failing the answer.
type Asker struct {
	Search  Searcher
	Store   Store
	Files   Files
	Chat    Chat
	Facts   Facts
	Options *answer.Options
	Log     *slog.Logger
}

// Answer is what ask says: the answer's text ("" when nothing answers), its citations, the
// facts of the entities named, how it was written, what the chat model wrote that was removed,
// a notice, and the closest passages when there is no answer.
type Answer struct {
	Text        string
	Citations   []Citation
	Facts       []Fact
	Mode        string
	Model       string
	Unsupported []Unsupported
	Notice      string
	Closest     []ClosestPassage
}

// Citation is one [n] of an answer: the passage a sentence rests on, at the source's own lines.
type Citation struct {
	N          int    `json:"n"`
	DocumentID string `json:"document_id"`
	Path       string `json:"path,omitempty"`
	Title      string `json:"title"`
	LineStart  int    `json:"line_start"`
	LineEnd    int    `json:"line_end"`
	Page       int    `json:"page,omitempty"`
	ChunkID    string `json:"chunk_id"`
	Quote      string `json:"quote"` // the cited words, as the source has them
}

// Unsupported is a sentence the chat model wrote that its citations do not bear out, removed
// from the answer.
type Unsupported struct {
	Sentence  string `json:"sentence"`
	Citations []int  `json:"citations"` // the [n] it carried (none: it carried none)
	Reason    string `json:"reason"`    // e.g. "no citation", "[2] does not say 1,540", "cites no passage [9]"
}

// Answer answers a question (trimmed and checked by the caller).
func (a *Asker) Answer(ctx context.Context, question string) (*Answer, error) {
	out := &Answer{Citations: []Citation{}, Facts: []Fact{}, Mode: ModeExtractive, Unsupported: []Unsupported{}}
	kind := answer.KindOf(question)
	req := answer.RequiredTerms(question).ForKind(kind)
	term := answer.DefinedTerm(question)
	passages, query, err := a.passages(ctx, parsed{text: question, kind: kind, req: req, term: term})
	if err != nil {
		return nil, err
	}
	facts, err := a.Facts.Facts(ctx, question)
	if err != nil {
		return nil, err
	}
	if facts.List != nil {
		out.Facts = facts.List
	}
	ids := make([]string, len(facts.Entities))
	for i, fe := range facts.Entities {
		ids[i] = fe.ID
	}
	disagree, err := a.Facts.Disagreements(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, d := range disagree {
		out.Notice = JoinNotice(out.Notice, "the sources disagree: "+d)
	}
	// Only passages that say all the question requires may answer it; the others are the
	// closest passages when none does.
	var answering []*passage
	added := map[*passage]bool{}
	for _, p := range passages {
		if p.supports() {
			// with the chunks above it, read for their titles (readAbove), in reading order
			// just before it; a chunk several passages share is there once
			chain := []*passage{p}
			for q := p.above; q != nil; q = q.above {
				chain = append(chain, q)
			}
			slices.Reverse(chain)
			for _, q := range chain {
				if !added[q] {
					added[q] = true
					answering = append(answering, q)
				}
			}
		}
	}
	w := &writer{a: a, passages: answering, cites: map[string]int{}, sources: map[string]*sourceText{}}
	factLines, err := w.factSentences(ctx, facts, req)
	if err != nil {
		return nil, err
	}
	var unsaid []string // what the picked sentences leave out of what the question requires
	body, err := a.modelAnswer(ctx, w, question, out)
	if err != nil {
		return nil, err
	}
	if out.Mode == ModeExtractive {
		opt := answer.DefaultOptions
		if a.Options != nil {
			opt = *a.Options
		}
		opt.Mention = facts.Named
		opt.Kind, opt.Required, opt.Define = kind, req, term
		if kind == answer.KindPerson {
			if opt.People, err = a.Facts.People(ctx, capitalWords(w.passages)); err != nil {
				return nil, err
			}
		}
		picked := answer.Pick(w.answerPassages(), query, opt)
		if unsaid = unsaidBy(req, w.passages, picked); len(unsaid) > 0 {
			picked = nil
		}
		if body, err = w.extractive(ctx, picked); err != nil {
			return nil, err
		}
		if len(req.Flat().Idents) > 0 {
			out.Notice = JoinNotice(out.Notice, differingValues(opt.Kind, picked, w.passages))
		}
	}
	if all := append(factLines, body...); len(all) == 0 {
		if len(unsaid) > 0 {
			out.Notice = JoinNotice(out.Notice, "not found: the closest sentences do not say “"+strings.Join(unsaid, "”, “")+"” of what the question asks")
		} else {
			out.Notice = JoinNotice(out.Notice, notFoundNotice(passages, answering))
		}
		out.Closest = closestPassages(passages)
	} else {
		out.Text = render(all)
		if words := answer.UnknownWords(question, query); len(words) > 0 {
			out.Notice = JoinNotice(out.Notice, "no document holds “"+strings.Join(words, "”, “")+"”: the answer says nothing about it")
		}
	}
	if len(w.list) > 0 { // no citations stay [] on the wire, never null
		out.Citations = w.list
	}
	return out, nil
}

// maxPeopleWords bounds the capitalised words of the passages looked up as persons.
const maxPeopleWords = 200

// capitalWords are the distinct capitalised words of the passages' sentences, lower case, in
// order: the first names and surnames a "who" question's answer may hold.
func capitalWords(ps []*passage) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range ps {
		for _, s := range p.sents {
			for _, w := range strings.Fields(s.Text) {
				w = strings.Trim(w, ",;:.()!?'\"’")
				if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) {
					continue
				}
				if l := strings.ToLower(w); !seen[l] && len(out) < maxPeopleWords {
					seen[l] = true
					out = append(out, l)
				}
			}
		}
	}
	return out
}

// JoinNotice joins two notices ("" is none).
func JoinNotice(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// unsaidBy is what of the question the picked sentences do not say, read with what each one's
// passage says it is about (its heading, title, file name, a first chunk's opening lines):
// the rule for a passage (answer.Required.Missing) over the answer itself, less the names,
// which the passage has said already. A passage may hold every required word while the
// sentences picked from it hold the subject and none of what is asked of it ("When is the car
// due for its next service?" answered by the last service's line); then there is no answer.
func unsaidBy(req answer.Required, ps []*passage, picked []answer.Picked) []string {
	if len(picked) == 0 {
		return nil
	}
	var b strings.Builder
	seen := map[int]bool{}
	for _, k := range picked {
		p := ps[k.Passage]
		if !seen[k.Passage] {
			seen[k.Passage] = true
			b.WriteString(passageSubject(p) + "\n")
		}
		b.WriteString(p.sents[k.Index].Text + "\n")
	}
	return req.Unnamed().Missing(b.String())
}
