package store

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestDerivedCountersFollowTheRows: after every step of random sequences of what the enrichments
// and their callers do (replace a run's links and suggestions, decide a suggestion, retract a
// document's evidence, switch an enrichment off), the counters CountDerived reads equal the rows
// counted by DerivedCounts.
func TestDerivedCountersFollowTheRows(t *testing.T) {
	ctx := context.Background()
	enrichments := []string{"EmbeddingSimilarity", "CoOccurrence", "DiscoveryGap"}
	ents := []string{"ent_a", "ent_b", "ent_c", "ent_d", "ent_e"}
	docs := []string{"doc_1", "doc_2", "doc_3"}
	for trial := range 20 {
		db := openTest(t)
		rng := rand.New(rand.NewPCG(uint64(trial), 14))
		pick := func(list []string) string { return list[rng.IntN(len(list))] }
		some := func(list []string) []string {
			var out []string
			for _, s := range list {
				if rng.IntN(2) == 0 {
					out = append(out, s)
				}
			}
			return out
		}
		for step := range 40 {
			now := fmt.Sprintf("2025-01-01T00:00:%02dZ", step)
			en := pick(enrichments)
			var what string
			err := db.WriteTx(ctx, func(tx *Tx) error {
				switch op := rng.IntN(6); {
				case op <= 1:
					what = "replace links of " + en
					touching := some(ents)
					var links []DerivedLink
					for _, s := range touching {
						for _, d := range some(ents) {
							if s != d {
								links = append(links, DerivedLink{ID: "rel_" + en + s + d, RelationshipType: "SIMILAR_TO", SourceEntityID: s, TargetEntityID: d,
									Enrichment: en, Version: "1", Score: float64(rng.IntN(4)) / 4, EvidenceDocs: some(docs)})
							}
						}
					}
					_, err := ReplaceDerived(ctx, tx, LinkScope{Enrichment: en, Touching: touching}, links, now)
					return err
				case op == 2:
					what = "replace suggestions of " + en
					touching := append(some(ents), pick(ents))
					var list []Suggestion
					for _, s := range touching {
						d := pick(ents)
						if s != d {
							list = append(list, Suggestion{ID: "sug_" + en + s + d, SourceEntityID: s, TargetEntityID: d, Kind: "similar",
								Score: 0.5, Reason: "r", Version: "1", EvidenceDocs: some(docs)})
						}
					}
					_, err := ReplaceSuggestions(ctx, tx, en, touching, list, now)
					return err
				case op == 3:
					what = "decide a suggestion"
					open, _, err := ListSuggestions(ctx, tx, SuggestionOpen, 100, 0)
					if err != nil || len(open) == 0 {
						return err
					}
					state := []string{SuggestionAccepted, SuggestionDismissed}[rng.IntN(2)]
					return DecideSuggestion(ctx, tx, open[rng.IntN(len(open))].ID, state, "test", "", now)
				case op == 4:
					d := pick(docs)
					what = "retract " + d
					_, err := RetractEvidence(ctx, tx, d)
					return err
				default:
					what = "switch off " + en
					_, err := DeleteDerivedOf(ctx, tx, en)
					return err
				}
			})
			if err != nil {
				t.Fatalf("trial %d step %d (%s): %v", trial, step, what, err)
			}
			links, sugg, err := CountDerived(ctx, db.Reader())
			if err != nil {
				t.Fatal(err)
			}
			wl, ws, err := DerivedCounts(ctx, db.Reader())
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(links, wl) || !maps.Equal(sugg, ws) {
				t.Fatalf("trial %d step %d (%s): counters %v / %v, rows %v / %v", trial, step, what, links, sugg, wl, ws)
			}
		}
		db.Close()
	}
}
