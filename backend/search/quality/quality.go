// Package quality measures how well a search mode finds the right document
// for a question a person would actually ask.
//
// It exists so that ranking changes (fusion weights, tokenisers, embedders)
// are judged by numbers on a fixed corpus rather than by eye. The corpus in
// testdata/corpus is real public documentation (Debian's, a book as chapters
// and on one page, an API reference with exports, PDFs, copies), and the
// questions in testdata/questions.json and testdata/questions-mixed.json are
// deliberately worded differently from the text they point at: a benchmark whose questions quote the documents would reward
// exact matching and say nothing about meaning.
//
// The harness lives in a non-test file so that benchmarks in other packages
// (the search engine, the CLI) can evaluate their own rankers against it.
package quality

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/strata-app/strata/backend/paths"
)

// Cut-offs of the reported metrics. Recall is taken at 5 because that is
// roughly what a person reads of a result list; reciprocal rank and nDCG look
// a little further so that a near miss still counts for something.
const (
	recallCutoff = 5
	mrrCutoff    = 10
	ndcgCutoff   = 10
)

// Question is one benchmark query with the documents that answer it.
// Relevant paths are relative to the testdata directory (e.g.
// "corpus/man-tar.txt"), so that questions.json reads naturally next to it.
type Question struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Relevant []string `json:"relevant"`
}

// Ranker answers a query with document paths, best first. Paths may be
// absolute (inside CorpusDir) or relative to CorpusDir. k is the number of
// distinct documents wanted; a ranker that returns chunks may return the same
// document several times (only its first occurrence counts), so it should
// fetch enough chunks to cover k documents.
type Ranker func(ctx context.Context, query string, k int) ([]string, error)

// GroupRanker answers a query with results that may each stand for several
// documents: a search that shows one passage held by several documents as one
// result (the most specific document cited first, the others named with it)
// returns that result as one group. Each group takes one rank; a relevant
// document anywhere in a group counts at that rank, so copies folded into one
// result are neither lost to recall nor allowed to take two places.
type GroupRanker func(ctx context.Context, query string, k int) ([][]string, error)

// Score is the result of evaluating one search mode over all questions.
type Score struct {
	Mode        string
	Questions   int
	RecallAt5   float64
	MRRAt10     float64
	NDCGAt10    float64
	PerQuestion []QScore
}

// QScore is one question's outcome, kept so that a regression can be traced
// to the questions that caused it instead of only a moved average.
type QScore struct {
	ID                string
	FirstRelevantRank int // 1-based; 0 if no relevant document is in the top 10
	RecallAt5         float64
	NDCGAt10          float64
}

// String renders the score on one line, for logs and benchmark output.
func (s Score) String() string {
	return fmt.Sprintf("%-8s recall@5=%.3f MRR@10=%.3f nDCG@10=%.3f (%d questions)",
		s.Mode, s.RecallAt5, s.MRRAt10, s.NDCGAt10, s.Questions)
}

// testdataDir locates testdata from this source file rather than from the
// working directory, because `go test` runs each package in its own directory
// and benchmarks elsewhere in the module must find the same corpus.
func testdataDir() string {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		return filepath.Join(filepath.Dir(file), "testdata")
	}
	// Built with -trimpath: the source path is not absolute, so look for the
	// module root above the working directory instead.
	dir, err := os.Getwd()
	if err != nil {
		return "testdata"
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "backend", "search", "quality", "testdata")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "testdata"
		}
		dir = parent
	}
}

// CorpusDir is the absolute path of the benchmark corpus.
func CorpusDir() string { return filepath.Join(testdataDir(), "corpus") }

// QuestionsFile is the absolute path of the benchmark questions, so that
// callers in other packages need not know the testdata layout.
func QuestionsFile() string { return filepath.Join(testdataDir(), "questions.json") }

// MixedQuestionsFile is the absolute path of the questions over the documents
// of other shapes (a book as chapters and on one page, an API reference with
// exports, PDFs, copies; issue 13). They are kept apart from QuestionsFile so
// that the figures of the original set stay comparable across releases.
func MixedQuestionsFile() string { return filepath.Join(testdataDir(), "questions-mixed.json") }

// HeldOutQuestionsFile is the absolute path of questions written by an author
// who saw neither the other question files nor any search output, and kept out
// of the ranking's fitting (TestFitFusion never reads them): the figures on it
// say how the ranking does on questions it was not tuned to.
func HeldOutQuestionsFile() string { return filepath.Join(testdataDir(), "questions-heldout.json") }

// LoadQuestions reads and checks a questions file. It refuses a file with a
// missing id or question, a duplicate id, no relevant documents, or a relevant
// path that does not exist next to the file: a broken judgement would silently
// lower every mode's score and hide real regressions.
func LoadQuestions(path string) ([]Question, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var qs []Question
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&qs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	base := filepath.Dir(path)
	seen := make(map[string]bool, len(qs))
	for i, q := range qs {
		if q.ID == "" {
			return nil, fmt.Errorf("%s: question %d has no id", path, i+1)
		}
		if seen[q.ID] {
			return nil, fmt.Errorf("%s: duplicate id %q", path, q.ID)
		}
		seen[q.ID] = true
		if strings.TrimSpace(q.Question) == "" {
			return nil, fmt.Errorf("%s: %s has no question text", path, q.ID)
		}
		if len(q.Relevant) == 0 {
			return nil, fmt.Errorf("%s: %s lists no relevant document", path, q.ID)
		}
		for _, rel := range q.Relevant {
			if filepath.IsAbs(rel) {
				return nil, fmt.Errorf("%s: %s: relevant path %q must be relative", path, q.ID, rel)
			}
			fi, err := os.Stat(filepath.Join(base, filepath.FromSlash(rel)))
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", path, q.ID, err)
			}
			if fi.IsDir() {
				return nil, fmt.Errorf("%s: %s: relevant path %q is a directory", path, q.ID, rel)
			}
		}
	}
	return qs, nil
}

// docKey turns a path into the form used for comparison: slash-separated and
// relative to the corpus root. Relative input is taken as relative to the
// corpus root; absolute input must lie inside it, because a path elsewhere
// (for instance a temporary copy of the corpus) can never match a judgement
// and would otherwise score as a silent miss.
func docKey(corpus, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(corpus, filepath.FromSlash(p))
	}
	rel, ok := paths.Host.Rel(corpus, p)
	if !ok {
		return "", fmt.Errorf("path %q is outside the corpus %s", p, corpus)
	}
	return filepath.ToSlash(rel), nil
}

// Evaluate asks rank every question and scores the answers. recall@5 is the
// share of a question's relevant documents found among its first 5 distinct
// documents; MRR@10 is 1/rank of the first relevant document within the first
// 10 (0 if none); nDCG@10 is the discounted cumulative gain of the first 10
// distinct documents (gain 1 for a relevant document, 0 otherwise, discounted
// by log2(rank+1)) divided by the gain of an ideal list that puts every
// relevant document first (at most 10 of them). nDCG is reported next to MRR
// because a question can have several relevant documents (a page and its
// export, a file and its copy): MRR sees only the first of them, nDCG also
// rewards ranking the others high. All three are averaged over questions. Repeated paths (several
// chunks of one document) are collapsed to their first occurrence before
// ranks are counted, so chunk-level rankers are not penalised for returning
// the same document twice, nor rewarded for it.
func Evaluate(ctx context.Context, mode string, qs []Question, rank Ranker) (Score, error) {
	if rank == nil {
		return Score{}, errors.New("quality: nil ranker")
	}
	return EvaluateGroups(ctx, mode, qs, func(ctx context.Context, query string, k int) ([][]string, error) {
		paths, err := rank(ctx, query, k)
		groups := make([][]string, len(paths))
		for i, p := range paths {
			groups[i] = []string{p}
		}
		return groups, err
	})
}

// EvaluateGroups is Evaluate for a ranker whose results may each hold several
// documents (see GroupRanker). In nDCG a group's relevant documents count as if
// listed one after another from its rank, so one result naming both copies of a
// relevant text scores as two results for them would at the same ranks (capped
// at 1, since a later group may then share a counted rank).
func EvaluateGroups(ctx context.Context, mode string, qs []Question, rank GroupRanker) (Score, error) {
	if len(qs) == 0 {
		return Score{}, errors.New("quality: no questions")
	}
	if rank == nil {
		return Score{}, errors.New("quality: nil ranker")
	}
	corpus := CorpusDir()
	testdata := filepath.Dir(corpus)
	s := Score{Mode: mode, Questions: len(qs), PerQuestion: make([]QScore, 0, len(qs))}
	for _, q := range qs {
		relevant := make(map[string]bool, len(q.Relevant))
		for _, r := range q.Relevant {
			key, err := docKey(corpus, filepath.Join(testdata, filepath.FromSlash(r)))
			if err != nil {
				return Score{}, fmt.Errorf("quality: %s: relevant %w", q.ID, err)
			}
			relevant[key] = true
		}
		if len(relevant) == 0 {
			return Score{}, fmt.Errorf("quality: %s lists no relevant document", q.ID)
		}
		groups, err := rank(ctx, q.Question, max(mrrCutoff, ndcgCutoff))
		if err != nil {
			return Score{}, fmt.Errorf("quality: %s: %w", q.ID, err)
		}
		one := QScore{ID: q.ID}
		seen := make(map[string]bool)
		found, pos := 0, 0
		dcg := 0.0
		for _, g := range groups {
			gain := 0
			fresh := false
			for _, p := range g {
				key, err := docKey(corpus, p)
				if err != nil {
					return Score{}, fmt.Errorf("quality: %s: ranker returned %w", q.ID, err)
				}
				if seen[key] {
					continue
				}
				seen[key] = true
				fresh = true
				if relevant[key] {
					gain++
				}
			}
			if !fresh {
				continue // a document already ranked: only its first occurrence counts
			}
			pos++
			if pos > max(mrrCutoff, ndcgCutoff) {
				break
			}
			if gain == 0 {
				continue
			}
			if one.FirstRelevantRank == 0 {
				one.FirstRelevantRank = pos
			}
			if pos <= recallCutoff {
				found += gain
			}
			// The group's relevant documents count as if listed one after another from its
			// rank (a result naming two copies is worth the two of them at ranks p and p+1).
			for i := range gain {
				if pos+i <= ndcgCutoff {
					dcg += 1 / math.Log2(float64(pos+i)+1)
				}
			}
		}
		one.NDCGAt10 = min(1, dcg/idealDCG(len(relevant)))
		one.RecallAt5 = float64(found) / float64(len(relevant))
		s.RecallAt5 += one.RecallAt5
		s.NDCGAt10 += one.NDCGAt10
		if one.FirstRelevantRank > 0 {
			s.MRRAt10 += 1 / float64(one.FirstRelevantRank)
		}
		s.PerQuestion = append(s.PerQuestion, one)
	}
	s.RecallAt5 /= float64(len(qs))
	s.MRRAt10 /= float64(len(qs))
	s.NDCGAt10 /= float64(len(qs))
	return s, nil
}

// idealDCG is the DCG of a list that ranks all n relevant documents first,
// counting at most ndcgCutoff of them: the best a ranker can do, so that
// nDCG@10 is 1 exactly when every relevant document that fits is on top.
func idealDCG(n int) float64 {
	ideal := 0.0
	for i := 1; i <= min(n, ndcgCutoff); i++ {
		ideal += 1 / math.Log2(float64(i)+1)
	}
	return ideal
}
