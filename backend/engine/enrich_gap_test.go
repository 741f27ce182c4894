package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/enrich"
	"github.com/strata-app/strata/backend/errs"
)

// gapNotes is a small folder of notes written as people write them: two meetings and a project
// page about one project (Falcon), worded differently; two unrelated notes; two copyright
// files that share only a licence's clause and the address in it; a file of minified code; a
// one-line stub. Only the Falcon notes are about the same things.
func gapNotes(t testing.TB) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"meetings/2025-03-04 falcon kickoff.md": `# Falcon kickoff

Present: Marisol Vega, Tomasz Wrona, Idris Okafor

We agreed that Brightline Printing will produce the new catalogue and that Marisol owns
the timeline. Tomasz raised the paper shortage; Brightline quoted four weeks for the first
proofs. Idris will check whether Quorum Logistics can deliver the pallets to Ghent.

Action items
- Marisol: send the brief to Brightline by Friday
- Idris: ask Quorum Logistics for a quote
`,
		"meetings/2025-04-15 falcon retro.md": `# Falcon retrospective

Attendees: Marisol Vega, Idris Okafor (Tomasz out sick)

The catalogue shipped two weeks late. Brightline Printing had to redo the cover after the
colour proofs; Quorum Logistics delivered on time. Marisol thinks we should book Brightline
earlier next year, and Idris wants a second printer as a backup.

What went well: the Ghent launch event, the supplier calls.
`,
		"projects/falcon.md": `---
title: Project Falcon
tags: [catalogue]
---
# Project Falcon

The spring catalogue, printed by Brightline Printing and shipped through Quorum Logistics.
Owner: Marisol Vega. Budget agreed with Idris Okafor in January; launch in Ghent in April.
We want the catalogue in the shops before the Easter weekend, with the new paper and the
larger photographs the customers asked for last year.
`,
		"notes/garden.md": `# Garden

Planted tomatoes and basil along the south fence. The neighbour, Henrike Strand, lent us her
rotavator; next weekend we sow the carrots. Remember to buy netting against the pigeons.
`,
		"notes/bike repair.md": `# Bike repair

The rear derailleur skips on the two smallest cogs. The shop on Lange Straat quoted a new
chain and cassette; I will try adjusting the cable tension first, as the manual suggests.
`,
		"legal/alpha-copyright.txt": `Alpha Utilities is maintained by Riku Salonen.

This program is free software; you can redistribute it and/or modify it under the terms of
the GNU General Public License as published by the Free Software Foundation, Inc., 51
Franklin Street, Fifth Floor, Boston, MA 02110-1301, USA.

Alpha Utilities reads sensor logs and writes daily summaries for the greenhouse controller.
`,
		"legal/beta-copyright.txt": `Beta Tools were written by Ines Carvalho for the harbour office.

This program is free software; you can redistribute it and/or modify it under the terms of
the GNU General Public License as published by the Free Software Foundation, Inc., 51 Franklin
Street, Fifth Floor, Boston, MA 02110-1301, USA.

Beta Tools convert tide tables into the harbour master's berth plan.
`,
		"assets/app.min.js": strings.Repeat(`!function(e){var t={};function n(r){if(t[r])return t[r].exports;var o=t[r]={i:r,l:!1,exports:{}};`, 40),
		"inbox/stub.txt":    "moved file 12\n",
	}
	paths := map[string]string{}
	for name, body := range files {
		p := filepath.Join(dir, name)
		mkfile(t, p, body)
		paths[name] = p
	}
	return dir, paths
}

// suggestionView is what a test reads of a suggestion.
type suggestionView struct {
	ID, Reason, Kind string
	Score            float64
	Evidence         json.RawMessage
	Source, Target   string // entity IDs
}

// openSuggestions lists the open suggestions by "name ~ name" (the ends' file names, sorted).
func openSuggestions(t testing.TB, e *engine.Engine) map[string]suggestionView {
	t.Helper()
	page, err := e.Suggestions(context.Background(), "", 1000, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]suggestionView{}
	for _, s := range page.Suggestions {
		a, b := filepath.Base(s.Source.Path), filepath.Base(s.Target.Path)
		if b < a {
			a, b = b, a
		}
		out[a+" ~ "+b] = suggestionView{ID: s.ID, Reason: s.Reason, Score: s.Score, Kind: s.Kind, Evidence: s.Evidence,
			Source: s.SourceEntityID, Target: s.TargetEntityID}
	}
	return out
}

// TestSuggestionsRestOnSharedNames: DiscoveryGap raises the pairs a reader would call related —
// notes about one project, worded differently, that name the same people, vendor and place —
// and none between files that share only a licence clause, minified code, or a stub; the
// reason names the shared names and the evidence cites each document's own line. Accepting one
// asserts RELATED_TO and the pair is not raised again; an asserted link retracts the others'.
func TestSuggestionsRestOnSharedNames(t *testing.T) {
	ctx := context.Background()
	dir, _ := gapNotes(t)
	e := open(t)
	ingestEnriched(t, e, dir)
	got := openSuggestions(t, e)
	want := []string{
		"2025-03-04 falcon kickoff.md ~ 2025-04-15 falcon retro.md",
		"2025-03-04 falcon kickoff.md ~ falcon.md",
		"2025-04-15 falcon retro.md ~ falcon.md",
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, want) {
		t.Fatalf("suggestions %q, want %q", keys, want)
	}
	s := got[want[0]]
	for _, name := range []string{"Brightline", "Ghent", "Marisol"} {
		if !strings.Contains(s.Reason, name) {
			t.Errorf("the reason does not name %s: %s", name, s.Reason)
		}
	}
	if s.Kind != enrich.KindRelated {
		t.Errorf("kind %q", s.Kind)
	}
	var evs []enrich.Evidence
	if err := json.Unmarshal(s.Evidence, &evs); err != nil || len(evs) < 2 {
		t.Fatalf("evidence %s: %v", s.Evidence, err)
	}
	for _, ev := range evs {
		b, err := os.ReadFile(ev.Path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		if ev.LineStart < 1 || ev.LineStart > len(lines) || !strings.Contains(strings.ToLower(lines[ev.LineStart-1]), strings.ToLower(ev.Value)) || ev.Quote == "" {
			t.Errorf("evidence %+v does not cite the line naming %q", ev, ev.Value)
		}
	}

	// Accept one: asserted, remembered; assert a link between the other pair: retracted.
	dec, err := e.DecideSuggestion(ctx, s.ID, true, "", "test")
	if err != nil || dec.Relationship == nil || dec.Relationship.RelationshipType != enrich.TypeRelatedTo {
		t.Fatalf("accept: %+v %v", dec, err)
	}
	other := got[want[1]]
	if _, err := e.CreateRelationship(ctx, "RELATED_TO", other.Source, other.Target, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DecideSuggestion(ctx, other.ID, false, "", "test"); errs.CodeOf(err) != errs.SuggestionNotFound {
		t.Errorf("an asserted link left its pair's suggestion open: %v", err)
	}
	// Enriching everything again raises neither again.
	if _, err := e.RunEnrichment(ctx, ""); err != nil {
		t.Fatal(err)
	}
	again := openSuggestions(t, e)
	if _, ok := again[want[0]]; ok {
		t.Error("an accepted pair was raised again")
	}
	if _, ok := again[want[1]]; ok {
		t.Error("a pair an asserted link joins was raised again")
	}
	if _, ok := again[want[2]]; !ok {
		t.Errorf("the third pair went: %v", again)
	}
}

// TestSuggestionsFollowTheirEvidence: when a note no longer names what it shared, its suggestions
// go; two stores built from the same notes in opposite orders hold the same suggestions.
func TestSuggestionsFollowTheirEvidence(t *testing.T) {
	_, paths := gapNotes(t)
	var names []string
	for n := range paths {
		names = append(names, n)
	}
	slices.Sort(names)
	build := func(order []string) *engine.Engine {
		e := open(t)
		for _, n := range order {
			ingestEnriched(t, e, paths[n])
		}
		return e
	}
	a := build(names)
	rev := slices.Clone(names)
	slices.Reverse(rev)
	b := build(rev)
	if ra, rb := derivedRows(t, a), derivedRows(t, b); !slices.Equal(ra, rb) {
		t.Fatalf("two build orders differ:\n%s", rowDiff(ra, rb))
	}
	if n := len(openSuggestions(t, a)); n != 3 {
		t.Fatalf("%d suggestions, want 3", n)
	}
	retro := paths["meetings/2025-04-15 falcon retro.md"]
	mkfile(t, retro, "# Retro\n\nThe catalogue shipped late; next year we book the printer earlier and keep a backup supplier in mind.\n")
	ingestEnriched(t, a, retro)
	got := openSuggestions(t, a)
	for k := range got {
		if strings.Contains(k, "retro") {
			t.Errorf("a suggestion outlived its evidence: %s", k)
		}
	}
	if len(got) != 1 {
		t.Errorf("suggestions after the edit: %v", got)
	}
}

// TestSuggestionsAtMostAFewPerDocument: a page naming the same things as many notes is
// suggested with at most per_document of them, its best by evidence.
func TestSuggestionsAtMostAFewPerDocument(t *testing.T) {
	dir := t.TempDir()
	hub := "# Harbour team\n\n"
	for i := range 6 {
		names := []string{"Aurelio", "Benedikta", "Casimir", "Dorotea", "Evander", "Fiorella", "Gunnhild", "Hyacinth"}
		body := fmt.Sprintf("# Week %d\n\nThis week %s met %s at the Nordhavn pier to plan the spring crossings; %s reviewed the Skagerrak crossing schedule "+
			"with the harbour office and %s signed the Tollbod permit after a long discussion about fees, berths, weather windows and the cost of the new pilot boat.\n",
			i, names[i], names[(i+1)%8], names[(i+2)%8], names[(i+3)%8])
		mkfile(t, filepath.Join(dir, fmt.Sprintf("week-%d.md", i)), body)
		hub += fmt.Sprintf("In week %d %s and %s sailed from Nordhavn; %s kept the Skagerrak log and %s handled the Tollbod paperwork.\n", i, names[i], names[(i+1)%8], names[(i+2)%8], names[(i+3)%8])
	}
	mkfile(t, filepath.Join(dir, "team.md"), hub)
	e := open(t)
	ingestEnriched(t, e, dir)
	per := map[string]int{}
	for k := range openSuggestions(t, e) {
		for _, end := range strings.Split(k, " ~ ") {
			per[end]++
		}
	}
	if len(per) == 0 {
		t.Fatal("no suggestion at all")
	}
	for doc, n := range per {
		if n > 3 {
			t.Errorf("%s has %d suggestions, want at most 3", doc, n)
		}
	}
}
