package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/lint"
)

// TestPrintAnswer: what a person reads from `strata ask`: the answer with its [n], each source
// as [n] path:line (p.N for a page, the title for a note without a file) with its quote, the
// facts with where they came from, the sentences removed, the mode and what --persist saved.
func TestPrintAnswer(t *testing.T) {
	yes, no := true, false
	a := &engine.AskResponse{
		Question: "what did Acme invoice in March?",
		Answer:   "Acme invoiced 1,540.00 EUR for widgets [1]. The invoice is due on 15 April [2].",
		Citations: []engine.Citation{
			{N: 1, DocumentID: "doc_a", Path: "/home/ada/invoices/acme-march.md", Title: "Acme March", LineStart: 7, LineEnd: 8, Quote: "Amount:\n 1,540.00 EUR (widgets)"},
			{N: 2, DocumentID: "doc_b", Path: "/home/ada/scan.pdf", Title: "Scan", LineStart: 3, Page: 2, Quote: "Due 15 April"},
			{N: 3, DocumentID: "doc_c", Title: "Call notes", LineStart: 1, Quote: ""},
		},
		Facts: []engine.Fact{{EntityID: "ent_1", EntityType: "invoice", EntityName: "INV-42", Field: "amount", Value: json.RawMessage(`1540`),
			ObservationID: "obs_1", DocumentID: "doc_a", Path: "/home/ada/invoices/acme-march.md", Line: 7},
			{EntityID: "ent_2", EntityType: "company", EntityName: "Acme GmbH", Field: "city", Value: json.RawMessage(`"Berlin"`), ObservationID: "obs_2", Agent: "claude"}},
		Mode: engine.AskLLM, Model: "llama3.2",
		Unsupported: []engine.Unsupported{{Sentence: "Acme is the largest vendor.", Reason: "no citation"}},
		DocumentID:  "doc_answer", Created: &yes,
	}
	var b strings.Builder
	printAnswer(&b, a, false)
	want := `Acme invoiced 1,540.00 EUR for widgets [1]. The invoice is due on 15 April [2].

Sources
  [1] /home/ada/invoices/acme-march.md:7  Acme March
      “Amount: 1,540.00 EUR (widgets)”
  [2] /home/ada/scan.pdf p.2:3  Scan
      “Due 15 April”
  [3] Call notes:1

Facts
  INV-42 (invoice): amount = 1540  from /home/ada/invoices/acme-march.md:7
  Acme GmbH (company): city = Berlin  submitted by claude

Removed: sentences the sources do not bear out
  “Acme is the largest vendor.” (no citation)

(llm, llama3.2)
saved as document doc_answer
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}

	a.Created = &no
	b.Reset()
	printAnswer(&b, a, false)
	if !strings.HasSuffix(b.String(), "saved before as document doc_answer (the same answer)\n") {
		t.Fatalf("a second persist:\n%s", b.String())
	}

	b.Reset()
	printAnswer(&b, &engine.AskResponse{Mode: engine.AskExtractive, Notice: "nothing in the store answers this question"}, false)
	if b.String() != "No answer: nothing in the store answers this question.\n\n(extractive)\n" {
		t.Fatalf("no answer:\n%q", b.String())
	}

	// Not found: what is missing, then the closest passages, marked as no answer.
	b.Reset()
	printAnswer(&b, &engine.AskResponse{Mode: engine.AskExtractive, Notice: "not found: no passage says “3.9” of what the question asks",
		Closest: []engine.ClosestPassage{{DocumentID: "doc_n", Path: "/usr/share/doc/grep/NEWS", Title: "NEWS", LineStart: 40, Snippet: "Noteworthy changes in release 3.8 (2022-09-02)", Missing: []string{"3.9"}}}}, false)
	want = "Not found: no passage says “3.9” of what the question asks.\n\nClosest passages (not an answer)\n  /usr/share/doc/grep/NEWS:40  does not say: 3.9\n      Noteworthy changes in release 3.8 (2022-09-02)\n\n(extractive)\n"
	if b.String() != want {
		t.Fatalf("not found:\n%q\nwant\n%q", b.String(), want)
	}

	// summary_with_sources: the answer lists its sources itself; they are not printed twice
	// (issue 24).
	b.Reset()
	printAnswer(&b, &engine.AskResponse{Mode: engine.AskExtractive, Answer: "It is 130 bytes [1].\n\nSources:\n[1] Nano ID — /n/README.md:13",
		Citations: []engine.Citation{{N: 1, DocumentID: "doc_n", Path: "/n/README.md", Title: "Nano ID", LineStart: 13, Quote: "130 bytes"}}}, true)
	if strings.Count(b.String(), "Sources") != 1 {
		t.Fatalf("sources twice:\n%s", b.String())
	}
}

// TestPrintLint: counts per kind, then the findings grouped by kind in the order of lint.Kinds,
// each with severity, title, values and their sources ("shown today" on the snapshot's),
// evidence, hint and fixes (a link to create as the command that creates it).
func TestPrintLint(t *testing.T) {
	r := &engine.LintReport{
		Total: 3, Limit: 2, Offset: 0, Scope: "all", StalenessDays: 90, DocumentID: "doc_report", Pending: 2,
		Counts: map[string]int{lint.Contradiction: 1, lint.Stale: 0, lint.MissingLink: 2, lint.UndocumentedConcept: 0, lint.Orphan: 0},
		Findings: []engine.Finding{
			{ID: "lint_1", Kind: lint.Contradiction, Severity: lint.High, Title: "INV-42 (Acme GmbH): amount is 1500 in a.md and 1540 in b.md",
				Field: "amount", Values: []engine.FindingValue{
					{Value: json.RawMessage(`1500`), Source: engine.FindingSource{DocumentID: "doc_a", Path: "a.md", LineStart: 7, Date: "2025-03-01"}},
					{Value: json.RawMessage(`1540`), Shown: true, Source: engine.FindingSource{Source: "mcp:cursor"}},
				},
				Evidence: []engine.FindingSource{{DocumentID: "doc_a", Path: "a.md", LineStart: 7, Quote: "Amount: 1,500.00"},
					{DocumentID: "doc_b", Path: "b.md", LineStart: 3, Quote: "Amount: 1,540.00"}},
				Hint: "if one corrects the other, link them",
				Fixes: []engine.FindingFix{{Action: "open", Label: "Open a.md at line 7", DocumentID: "doc_a", Line: 7},
					{Action: "create_relationship", Label: "Mark b.md as correcting a.md", RelationshipType: "CORRECTS", SourceEntityID: "ent_b", TargetEntityID: "ent_a"}}},
			{ID: "lint_2", Kind: lint.MissingLink, Severity: lint.Medium, Title: "notes.md names Ada Lovelace without a link", Hint: "link them"},
		},
	}
	var b strings.Builder
	printLint(&b, r)
	want := `3 finding(s): contradiction 1, stale 0, missing_link 2, undocumented_concept 0, orphan 0  (scope all, stale after 90 days)

Contradictions: one field, different values from different sources (1)
  high   INV-42 (Acme GmbH): amount is 1500 in a.md and 1540 in b.md
         1500  a.md:7 (2025-03-01)
           “Amount: 1,500.00”
         1540  from mcp:cursor  (shown today)
         evidence: b.md:3 “Amount: 1,540.00”
         hint: if one corrects the other, link them
         fix: Open a.md at line 7
         fix: Mark b.md as correcting a.md: strata rel create CORRECTS ent_b ent_a

Missing links: a document names a known entity without a link to it (1)
  medium notes.md names Ada Lovelace without a link
         hint: link them

(1–2 of 3; use --offset to see more)
(2 document(s) still being read or linked: not checked for orphans and missing links until then)
report published as document doc_report
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}

	b.Reset()
	printLint(&b, &engine.LintReport{Scope: "all", StalenessDays: 90, Counts: map[string]int{lint.Orphan: 0}})
	if !strings.Contains(b.String(), "Nothing to report") {
		t.Fatalf("a clean store:\n%s", b.String())
	}
}

// TestOtherPassagesLine: `strata search` names the other places of a result's document that the
// query found, lines or page:line, and counts those it does not list.
func TestOtherPassagesLine(t *testing.T) {
	res := engine.SearchResult{OtherPassagesCount: 7, OtherPassages: []engine.SearchPassage{{LineStart: 3}, {LineStart: 11}, {Page: 2, LineStart: 14}}}
	if got, want := otherPassages(res), "7 more in this document, at lines 3, 11, p.2:14 and 4 more"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	res = engine.SearchResult{OtherPassagesCount: 1, OtherPassages: []engine.SearchPassage{{LineStart: 40}}}
	if got, want := otherPassages(res), "1 more in this document, at line 40"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
