package ask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// Fact is a snapshot value of an entity the question names, with the observation it came from.
type Fact struct {
	EntityID      string          `json:"entity_id"`
	EntityType    string          `json:"entity_type"`
	EntityName    string          `json:"entity_name"`
	Field         string          `json:"field"`
	Value         json.RawMessage `json:"value"`
	ObservationID string          `json:"observation_id"`
	DocumentID    string          `json:"document_id,omitempty"`
	Path          string          `json:"path,omitempty"`
	Line          int             `json:"line,omitempty"`
	Page          int             `json:"page,omitempty"`
	// Agent names who submitted a value that came from a payload rather than a document (its
	// agent_id, else its extractor): such a fact has no line to cite, so it says whose word it is.
	Agent string `json:"agent,omitempty"`
}

// maxFactSentences bounds the entities an answer states facts of: a screenful.
const maxFactSentences = 5

// FactSet is what a question's entities say (Facts.Facts).
type FactSet struct {
	List     []Fact
	Entities []*FactEntity // those with facts, in the order their facts are listed
	// Named are the names (as words) by which the question named the entities that have
	// facts: the passages' sentences must name one of them too (answer.Options.Mention).
	Named [][]string
}

// FactEntity is an entity whose facts the answer shows.
type FactEntity struct {
	ID, Type, Name string
	About          string // the named entity it is related to, for a related one ("Acme Corp")
	Date           string // its date value, for ordering related entities
	Facts          []Fact
}

// LineHolds reports whether a line of text writes a value: a number as a number (1,500.00 holds
// 1500), anything else as its words (case and spacing aside); a list by its first item.
func LineHolds(line string, value json.RawMessage) bool {
	v, err := ids.Decode(value)
	if err != nil {
		return false
	}
	if list, ok := v.([]any); ok {
		if len(list) == 0 {
			return false
		}
		v = list[0]
	}
	switch t := v.(type) {
	case json.Number:
		want := answer.Numbers(t.String())
		if len(want) != 1 {
			return false
		}
		for _, n := range answer.Numbers(line) {
			if n.Norm == want[0].Norm {
				return true
			}
		}
		return false
	case string:
		w := strings.ToLower(strings.Join(strings.Fields(t), " "))
		return w != "" && strings.Contains(strings.ToLower(strings.Join(strings.Fields(line), " ")), w)
	}
	return false
}

// factSentences states the facts as sentences, one per entity (at most maxFactSentences): the
// entity, then its values — "Acme Corp invoice INV-001: amount 1500, currency EUR, date
// 2025-03-04." Each value is the snapshot's, so the sentence is what the store holds, not a
// paraphrase of it.
//
// How a fact sentence is cited: a value read from a document line gets a [n] citation of that
// line, like a sentence of a passage, because that is a place a person can open and check. A
// value from a payload (an agent's submission) has no document and no line: its sentence
// carries no [n], and its facts name the observation and the agent instead (Fact.Agent) — a
// citation pointing at no text would look checkable while it is not.
//
// A fact sentence answers only what it says (issue 24): it must hold the question's required
// terms like any passage (req.Missing), so "What's Derek Ashworth's phone number?" is not
// answered by his e-mail address. The facts stay listed apart (AskResponse.Facts): they are
// what the store holds of the entity named, not an answer.
func (w *writer) factSentences(ctx context.Context, fs FactSet, req answer.Required) ([]answerSentence, error) {
	var out []answerSentence
	for _, fe := range fs.Entities {
		if len(out) == maxFactSentences {
			break
		}
		var parts []string
		for _, f := range fe.Facts {
			if v := factValue(f.Value); v != "" {
				parts = append(parts, strings.ReplaceAll(f.Field, "_", " ")+" "+v)
			}
		}
		if len(parts) == 0 {
			continue
		}
		label := fe.Name + " (" + strings.ReplaceAll(fe.Type, "_", " ") + ")"
		if fe.About != "" {
			label = fe.About + " " + strings.ReplaceAll(fe.Type, "_", " ") + " " + fe.Name
		}
		text := label + ": " + strings.Join(parts, ", ") + "."
		if len(req.Missing(text+spelledDates(fe.Facts))) > 0 {
			continue
		}
		var cites []int
		for _, f := range fe.Facts {
			if f.DocumentID != "" && f.Line > 0 {
				n, err := w.citeFact(ctx, f)
				if err != nil {
					return nil, err
				}
				if n > 0 && !containsInt(cites, n) && len(cites) < 3 {
					cites = append(cites, n)
				}
			}
		}
		out = append(out, answerSentence{text: text, cites: cites})
	}
	return out, nil
}

// spelledDates writes the facts' ISO dates in words (" 15 March 2024"), so that a question
// naming a month or a year ("What did Acme invoice in March?") finds it in a fact's 2024-03-15.
func spelledDates(facts []Fact) string {
	var b strings.Builder
	for _, f := range facts {
		var s string
		if json.Unmarshal(f.Value, &s) != nil || len(s) < 10 {
			continue
		}
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
			b.WriteString(" " + t.Format("2 January 2006"))
		}
	}
	return b.String()
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

// factValue writes a snapshot value for a sentence: strings and numbers as they are, a list of
// them joined (the first five, then how many more); nested objects are left to the facts list.
func factValue(raw json.RawMessage) string {
	v, err := ids.Decode(raw)
	if err != nil {
		return ""
	}
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	case bool:
		if t {
			return "yes"
		}
		return "no"
	case []any:
		var items []string
		for _, x := range t {
			switch y := x.(type) {
			case string:
				items = append(items, y)
			case json.Number:
				items = append(items, y.String())
			}
		}
		if len(items) == 0 {
			return ""
		}
		if len(items) > 5 {
			return strings.Join(items[:5], ", ") + fmt.Sprintf(" and %d more", len(items)-5)
		}
		return strings.Join(items, ", ")
	}
	return ""
}

// citeFact cites the document line a fact was read from: the chunk holding that line, quoting
// the line's text as the chunk has it (0 when the line does not write the value).
func (w *writer) citeFact(ctx context.Context, f Fact) (int, error) {
	c, err := w.a.Store.ChunkCovering(ctx, f.DocumentID, f.Line, f.Page)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	d, err := w.a.Store.GetDocument(ctx, f.DocumentID)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	// The text line the fact's file line falls in: the last whose file line is not after it. It
	// is cited only if it writes the value: a citation must land on the words it stands for.
	lines := strings.Split(c.Text, "\n")
	at := 0
	for i := range lines {
		if c.FileLine(i) <= f.Line {
			at = i
		}
	}
	if !LineHolds(lines[at], f.Value) {
		return 0, nil
	}
	from := 0
	for _, l := range lines[:at] {
		from += len(l) + 1
	}
	to := from + len(lines[at])
	p := &passage{result: search.Result{DocumentID: d.DocumentID, Path: d.Path, Title: d.Title}, chunk: c}
	// The sentence of that line that writes the value, when it is prose: a long line of text
	// (an HTML paragraph) stands for many lines of the file.
	for _, s := range splitPassage(d, c.Text) {
		if s.Start < to && s.End > from && LineHolds(s.Text, f.Value) {
			return w.cite(ctx, p, s.Start, s.End, s.Text)
		}
	}
	return w.cite(ctx, p, from, to, strings.Join(strings.Fields(lines[at]), " "))
}
