package store

import (
	"context"
	"slices"
	"testing"
)

// askStore holds two documents (one under /data/generated/, as Strata's own answers are) with
// chunks that both hold the word "tomato", and a few entities.
func askStore(t *testing.T) *DB {
	t.Helper()
	db := openTest(t)
	ctx := context.Background()
	err := db.WriteTx(ctx, func(tx *Tx) error {
		for _, d := range []Document{
			{DocumentID: "doc_user", Kind: "file", Path: "/home/ann/notes/tomato.md", ContentHash: "a", Status: "analyzed", CreatedAt: "t", UpdatedAt: "t"},
			{DocumentID: "doc_gen", Kind: "file", Path: "/data/generated/answers/tomato.md", ContentHash: "b", Status: "analyzed", CreatedAt: "t", UpdatedAt: "t"},
			{DocumentID: "doc_text", Kind: "content", ContentHash: "c", Status: "analyzed", CreatedAt: "t", UpdatedAt: "t"},
		} {
			if _, err := InsertDocument(ctx, tx, d); err != nil {
				return err
			}
		}
		if err := InsertChunks(ctx, tx, []Chunk{
			{ChunkID: "c1", DocumentID: "doc_user", Text: "Grow a tomato in the sun.\nWater it daily.", LineStart: 3, LineEnd: 4},
			{ChunkID: "c2", DocumentID: "doc_gen", Text: "A tomato needs sun [1].", LineStart: 7, LineEnd: 7},
			{ChunkID: "c3", DocumentID: "doc_text", Text: "Tomato soup recipe.", LineStart: 1, LineEnd: 1, Lines: []int{1}},
			{ChunkID: "c4", DocumentID: "doc_user", Ordinal: 1, Text: "Harvest in August.", LineStart: 9, LineEnd: 9, Page: 2, Heading: "Notes > Harvest 2024"},
		}); err != nil {
			return err
		}
		return UpsertEntities(ctx, tx, []Entity{
			{EntityID: "ent_a", EntityType: "company", CanonicalName: "Acme Corp", IdentityKey: "acme corp", CreatedAt: "t"},
			{EntityID: "ent_b", EntityType: "document", CanonicalName: "acme.md", IdentityKey: "doc", CreatedAt: "t"},
			{EntityID: "ent_c", EntityType: "person", CanonicalName: "Ada Lovelace", IdentityKey: "ada", CreatedAt: "t"},
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestSearchFilterExcludesAFolder: the exclusion is part of the query, so keyword search finds
// the user's document and the text (no path) but never the generated one.
func TestSearchFilterExcludesAFolder(t *testing.T) {
	db := askStore(t)
	ctx := context.Background()
	docs := func(f SearchFilter) []string {
		hits, err := KeywordSearch(ctx, db.Reader(), `"tomato"`, f, 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, h.DocumentID)
		}
		slices.Sort(out)
		return out
	}
	if got := docs(SearchFilter{}); !slices.Equal(got, []string{"doc_gen", "doc_text", "doc_user"}) {
		t.Fatalf("without the exclusion: %v", got)
	}
	if got := docs(SearchFilter{ExcludePathPrefix: "/data/generated/"}); !slices.Equal(got, []string{"doc_text", "doc_user"}) {
		t.Fatalf("excluding /data/generated/: %v", got)
	}
	hits, err := HitsByRowID(ctx, db.Reader(), []int64{1, 2, 3}, SearchFilter{ExcludePathPrefix: "/data/generated/"})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.DocumentID == "doc_gen" {
			t.Fatal("HitsByRowID (the vector half's filter) kept the generated document")
		}
	}
}

func TestChunksByIDKeepsTheOrderAsked(t *testing.T) {
	db := askStore(t)
	got, err := ChunksByID(context.Background(), db.Reader(), []string{"c3", "missing", "c1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ChunkID != "c3" || got[1].ChunkID != "c1" || !slices.Equal(got[0].Lines, []int{1}) {
		t.Fatalf("chunks: %+v", got)
	}
	if got[1].FileLine(1) != 4 || got[0].FileLine(0) != 1 {
		t.Fatalf("file lines: %d %d", got[1].FileLine(1), got[0].FileLine(0))
	}
}

// TestEntitiesNamingByFirstWord: a name is found by its first word, in any case, and a document
// entity never; the caller matches whole words ("acmeville" would come back for "acme").
func TestEntitiesNamingByFirstWord(t *testing.T) {
	db := askStore(t)
	got, err := EntitiesNaming(context.Background(), db.Reader(), []string{"acme", "ada", "lovelace"}, "document", 10)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range got {
		ids = append(ids, e.EntityID)
	}
	if !slices.Equal(ids, []string{"ent_a", "ent_c"}) {
		t.Fatalf("entities: %v (the document entity must be left out)", ids)
	}
}

func TestChunkCoveringALineAndPage(t *testing.T) {
	db := askStore(t)
	ctx := context.Background()
	c, err := ChunkCovering(ctx, db.Reader(), "doc_user", 4, 0)
	if err != nil || c.ChunkID != "c1" {
		t.Fatalf("line 4: %+v %v", c, err)
	}
	if c, err := ChunkCovering(ctx, db.Reader(), "doc_user", 9, 2); err != nil || c.ChunkID != "c4" {
		t.Fatalf("line 9 p.2: %+v %v", c, err)
	}
	if _, err := ChunkCovering(ctx, db.Reader(), "doc_user", 9, 3); err != ErrNotFound {
		t.Fatalf("line 9 p.3: %v", err)
	}
}

// TestFirstChunkHeaded: a document's first chunk whose heading names the phrase, case aside.
func TestFirstChunkHeaded(t *testing.T) {
	db := askStore(t)
	ctx := context.Background()
	if c, err := FirstChunkHeaded(ctx, db.Reader(), "doc_user", "HARVEST 2024"); err != nil || c.ChunkID != "c4" {
		t.Fatalf("headed: %+v %v", c, err)
	}
	if _, err := FirstChunkHeaded(ctx, db.Reader(), "doc_user", "tomato"); err != ErrNotFound {
		t.Fatalf("a phrase of the text, not of a heading: %v", err)
	}
}

// TestDocumentsTitled: the documents whose title or path holds a word, case aside, up to a limit.
func TestDocumentsTitled(t *testing.T) {
	db := askStore(t)
	ctx := context.Background()
	var all int
	if err := db.Reader().QueryRowContext(ctx, `SELECT count(*) FROM documents`).Scan(&all); err != nil || all < 2 {
		t.Fatalf("%d documents: %v", all, err)
	}
	if n, err := DocumentsTitled(ctx, db.Reader(), "TOMATO", 5); err != nil || n != 2 {
		t.Fatalf("tomato: %d %v", n, err)
	}
	if n, err := DocumentsTitled(ctx, db.Reader(), "ZZZ-NONE", 3); err != nil || n != 0 {
		t.Fatalf("none: %d %v", n, err)
	}
	if n, err := DocumentsTitled(ctx, db.Reader(), "", 1); err != nil || n != 1 {
		t.Fatalf("the limit: %d %v", n, err)
	}
}
