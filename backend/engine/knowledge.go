package engine

import (
	"github.com/strata-app/strata/backend/ask"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/lint"
	"github.com/strata-app/strata/backend/paths"
	"github.com/strata-app/strata/backend/search"
)

// Ask and lint (issue 15, seed ADR-037): answer a question from the store with checked
// citations, and report what the store believes that does not hold together. One MCP tool
// (knowledge) serves both; the CLI (strata ask, strata lint) and the app call the same methods.

// Ask formats.
const (
	AskMarkdown          = "markdown"             // the answer's sentences, each ending with its [n]
	AskSummaryWithSource = "summary_with_sources" // the same, then one "[n] path:line" line per citation
)

// Answer modes: how the answer was written.
const (
	AskExtractive = ask.ModeExtractive // sentences copied from the passages (no language model)
	AskLLM        = ask.ModeLLM        // written by the local chat model from the passages, each sentence checked
)

// Ask limits.
const (
	DefaultAskPassages = 8
	MaxAskPassages     = 20
)

// AskRequest is one question.
type AskRequest struct {
	Question    string        `json:"question"`
	MaxPassages int           `json:"max_passages,omitempty"` // 1–20; 0: 8
	Format      string        `json:"format,omitempty"`       // markdown (default) | summary_with_sources
	Filters     SearchFilters `json:"filters,omitempty"`
	Persist     bool          `json:"persist,omitempty"` // file the answer back into the store as a document
}

// SearchFilters narrow the passages an answer may use: the search tool's filters.
type SearchFilters struct {
	Type string `json:"type,omitempty"`
	Path string `json:"path,omitempty"`
	Tag  string `json:"tag,omitempty"`
	Mime string `json:"mime,omitempty"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// The answer's parts are package ask's (the pipeline's own types), named here too so that the
// engine's API stays whole.
type (
	Citation       = ask.Citation
	Fact           = ask.Fact
	Unsupported    = ask.Unsupported
	ClosestPassage = ask.ClosestPassage
)

// AskResponse is an answer with its citations.
type AskResponse struct {
	Question    string        `json:"question"`
	Answer      string        `json:"answer"` // "" when nothing in the store answers it (Notice says so)
	Citations   []Citation    `json:"citations"`
	Facts       []Fact        `json:"facts"`
	Mode        string        `json:"mode"` // extractive | llm
	Model       string        `json:"model,omitempty"`
	Unsupported []Unsupported `json:"unsupported"`
	Notice      string        `json:"notice,omitempty"` // e.g. "not found: no passage says “turkey” of what the question asks"
	// Closest are the search's best passages when there is no answer: shown apart from one,
	// each with what of the question it does not say. Empty when there is an answer.
	Closest    []ClosestPassage `json:"closest,omitempty"`
	DocumentID string           `json:"document_id,omitempty"` // persist: the answer's document
	Created    *bool            `json:"created,omitempty"`     // persist: false when the same answer was filed before
	Embedder   *EmbeddingStatus `json:"embedder,omitempty"`
}

// checkAsk validates a question and fills the defaults.
func checkAsk(r *AskRequest) error {
	r.Question = strings.TrimSpace(r.Question)
	if r.Question == "" {
		return errs.New(errs.Validation, "question is empty").With("field", "question").WithHint("ask a question in a sentence or a few words")
	}
	if n := utf8.RuneCountInString(r.Question); n > search.MaxQueryChars {
		return errs.New(errs.Validation, "question is %d characters long, more than the %d asking takes", n, search.MaxQueryChars).
			With("field", "question").With("limit", search.MaxQueryChars).WithHint("ask one question, not a whole text")
	}
	switch {
	case r.MaxPassages == 0:
		r.MaxPassages = DefaultAskPassages
	case r.MaxPassages < 1 || r.MaxPassages > MaxAskPassages:
		return errs.New(errs.Validation, "max_passages %d is not between 1 and %d", r.MaxPassages, MaxAskPassages).
			With("field", "max_passages").WithHint("omit max_passages for %d", DefaultAskPassages)
	}
	switch r.Format {
	case "":
		r.Format = AskMarkdown
	case AskMarkdown, AskSummaryWithSource:
	default:
		return errs.New(errs.Validation, "format %q is not markdown or summary_with_sources", r.Format).With("field", "format").
			WithHint("omit format for markdown")
	}
	return nil
}

// Lint scopes.
const (
	LintAll       = "all"
	LintEntities  = "entities"
	LintDocuments = "documents"
	LintConcepts  = "concepts"
)

// Lint limits.
const (
	DefaultStalenessDays = 90
	MaxStalenessDays     = 3650
	DefaultLintLimit     = 100
	MaxLintLimit         = 1000
)

// LintRequest asks for a health check of the store.
type LintRequest struct {
	Scope         string `json:"scope,omitempty"`          // all (default) | entities | documents | concepts
	StalenessDays int    `json:"staleness_days,omitempty"` // 1–3650; 0: 90
	Limit         int    `json:"limit,omitempty"`          // 1–1000; 0: 100
	Offset        int    `json:"offset,omitempty"`
	Kind          string `json:"kind,omitempty"`    // only findings of this kind (the app's tabs); "" all
	Publish       bool   `json:"publish,omitempty"` // write the report into the store as a document
}

// Finding is one thing lint found; LintReport pages through them.
type (
	Finding       = lint.Finding
	FindingValue  = lint.Value
	FindingSource = lint.Evidence
	FindingFix    = lint.Fix
)

// LintReport is one page of findings, in a fixed order: severity, kind, ID.
type LintReport struct {
	Findings      []Finding      `json:"findings"`
	Total         int            `json:"total"`
	Limit         int            `json:"limit"`
	Offset        int            `json:"offset"`
	Counts        map[string]int `json:"counts"` // every kind (in scope), found or not: kind → findings
	Scope         string         `json:"scope"`
	StalenessDays int            `json:"staleness_days"`
	DocumentID    string         `json:"document_id,omitempty"` // publish: the report's document
	Checked       lint.Checked   `json:"checked"`               // how much was looked at, and how much of it again
	// Pending counts documents still being read or enriched: until their links are all there,
	// they are left out of the checks that read links (orphan, missing_link, versions, concept
	// uses), which would call them connected to nothing when they are only not linked yet.
	Pending int `json:"pending"`
}

func checkLint(r *LintRequest) error {
	switch r.Scope {
	case "":
		r.Scope = LintAll
	case LintAll, LintEntities, LintDocuments, LintConcepts:
	default:
		return errs.New(errs.Validation, "scope %q is not all, entities, documents or concepts", r.Scope).With("field", "scope").
			WithHint("omit scope to check everything")
	}
	switch {
	case r.StalenessDays == 0:
		r.StalenessDays = DefaultStalenessDays
	case r.StalenessDays < 1 || r.StalenessDays > MaxStalenessDays:
		return errs.New(errs.Validation, "staleness_days %d is not between 1 and %d", r.StalenessDays, MaxStalenessDays).
			With("field", "staleness_days").WithHint("omit staleness_days for %d", DefaultStalenessDays)
	}
	switch {
	case r.Limit == 0:
		r.Limit = DefaultLintLimit
	case r.Limit < 1 || r.Limit > MaxLintLimit:
		return errs.New(errs.Validation, "limit %d is not between 1 and %d", r.Limit, MaxLintLimit).With("field", "limit").
			WithHint("omit limit for %d, or page with limit and offset", DefaultLintLimit)
	}
	if r.Offset < 0 {
		return errs.New(errs.Validation, "offset %d is negative", r.Offset).With("field", "offset")
	}
	if r.Kind != "" && !lint.KnownKind(r.Kind) {
		return errs.New(errs.Validation, "kind %q is not one of %s", r.Kind, strings.Join(lint.Kinds, ", ")).With("field", "kind")
	}
	return nil
}

// Generated documents: what Strata writes into the store itself (answers filed back by ask
// with persist, lint reports published) are files under <data>/generated/. They are searchable
// and have history like any file, but ask never cites them as a source (an answer must rest on
// what the user's documents say, not on an earlier answer) and lint does not check them.
const generatedDirName = "generated"

// GeneratedDir is the folder of generated documents.
func (e *Engine) GeneratedDir() string { return filepath.Join(e.cfg.DataDir, generatedDirName) }

// IsGenerated reports whether path is a document Strata wrote itself.
func (e *Engine) IsGenerated(path string) bool { return generatedIn(e.cfg.DataDir)(path) }

// generatedIn is IsGenerated for the data folder dir (the ingester gets it before the engine
// exists).
func generatedIn(dir string) func(string) bool {
	gen := filepath.Join(dir, generatedDirName)
	return func(path string) bool { return paths.Host.Inside(path, gen) }
}
