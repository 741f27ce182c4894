package store

import (
	"context"
	"testing"
)

// TestCoPairForgetsItsLinkWhenAMentionGoes: a pair's link is reused (Unchanged) only while
// no chunk naming both has gone since it was derived. A document read again keeps its chunk
// positions with new text, and its mention rows come back at the same positions: the set of
// positions is the same, the chunks are not, so the link must be derived again (before 0020 it
// was kept, citing a chunk the document no longer has). A new mention elsewhere (a new note)
// changes the set as before.
func TestCoPairForgetsItsLinkWhenAMentionGoes(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	censusDoc(t, db, "doc_a", "analyzed", 2)
	censusDoc(t, db, "doc_b", "analyzed", 1)
	both := func(doc string, ord int) []Mention {
		return []Mention{{EntityID: "ent_x", DocumentID: doc, Ordinal: ord, Source: "text", Passage: "p"},
			{EntityID: "ent_y", DocumentID: doc, Ordinal: ord, Source: "text", Passage: "p"}}
	}
	write := func(f func(tx *Tx) error) {
		t.Helper()
		if err := db.WriteTx(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	unchanged := func(step string, want bool) {
		t.Helper()
		ps, err := CoPairs(ctx, db.Reader(), "ent_x", 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 1 || ps[0].Partner != "ent_y" || ps[0].Unchanged != want {
			t.Fatalf("%s: pairs %+v, want one with ent_y, unchanged %v", step, ps, want)
		}
	}
	link := func() {
		write(func(tx *Tx) error { return SetCoPairLinked(ctx, tx, "ent_x", "ent_y") })
	}
	write(func(tx *Tx) error { return InsertMentions(ctx, tx, append(both("doc_a", 0), both("doc_a", 1)...)) })
	unchanged("never linked", false)
	link()
	unchanged("linked", true)

	write(func(tx *Tx) error { return InsertMentions(ctx, tx, both("doc_b", 0)) })
	unchanged("a new note names both", false)
	link()
	unchanged("linked again", true)

	// doc_a read again: its rows go and come back at the same positions.
	write(func(tx *Tx) error {
		if _, err := DeleteMentions(ctx, tx, "doc_a"); err != nil {
			return err
		}
		return InsertMentions(ctx, tx, append(both("doc_a", 0), both("doc_a", 1)...))
	})
	unchanged("a document's rows written again", false)
	link()
	unchanged("relinked", true)
}
