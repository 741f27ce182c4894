package ask

import (
	"maps"
	"path/filepath"
	"strings"

	"github.com/strata-app/strata/backend/answer"
)

// ClosestPassage is a passage near a question that did not answer it.
type ClosestPassage struct {
	DocumentID string   `json:"document_id"`
	Path       string   `json:"path,omitempty"`
	Title      string   `json:"title"`
	LineStart  int      `json:"line_start"`
	LineEnd    int      `json:"line_end"`
	Page       int      `json:"page,omitempty"`
	Snippet    string   `json:"snippet"`
	Missing    []string `json:"missing,omitempty"` // what of the question it does not say
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
