package store

import (
	"context"
	"slices"
	"testing"
)

// TestPathPrefixCase: a path prefix matches bytes unless the filter folds case. SQLite's LIKE
// alone folds ASCII letters, which made /home/ann/Notes/ the prefix of /home/ann/notes/b.md (a
// different folder on Linux) in the search and library filters and in reconcile's list of a
// watched folder's documents. LIKE's wildcards in a folder's name stay literal either way.
func TestPathPrefixCase(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	paths := map[string]string{
		"doc_a": "/home/ann/Notes/a.md",
		"doc_b": "/home/ann/notes/b.md",
		"doc_c": "/home/ann/NotesX/c.md",
		"doc_d": "/home/ann/Notes_1/d.md",
		"doc_e": "/home/ann/Notes%1/e.md",
		"doc_f": "/home/ann/Nötes/f.md",
	}
	err := db.WriteTx(ctx, func(tx *Tx) error {
		for id, p := range paths {
			if _, err := InsertDocument(ctx, tx, Document{DocumentID: id, Kind: "file", Path: p, ContentHash: id, Status: "analyzed", CreatedAt: "t", UpdatedAt: "t"}); err != nil {
				return err
			}
			if err := InsertChunks(ctx, tx, []Chunk{{ChunkID: "chk_" + id, DocumentID: id, Text: "tomato " + id, LineStart: 1, LineEnd: 1}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(docs []Document) []string {
		var out []string
		for _, d := range docs {
			out = append(out, d.DocumentID)
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		prefix string
		fold   bool
		want   []string
	}{
		{"/home/ann/Notes/", false, []string{"doc_a"}},
		{"/home/ann/Notes/", true, []string{"doc_a", "doc_b"}},
		{"/home/ann/NOTES/", true, []string{"doc_a", "doc_b"}},
		{"/home/ann/Notes_", false, []string{"doc_d"}},
		{"/home/ann/Notes%", true, []string{"doc_e"}},
		{"/home/ann/Nötes/", false, []string{"doc_f"}},
		{"/home/ann/", false, []string{"doc_a", "doc_b", "doc_c", "doc_d", "doc_e", "doc_f"}},
	} {
		list, total, err := ListDocuments(ctx, db.Reader(), DocumentFilter{PathPrefix: c.prefix, FoldCase: c.fold, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(list); !slices.Equal(got, c.want) || total != len(c.want) {
			t.Errorf("ListDocuments(%q, fold %v) = %v (total %d), want %v", c.prefix, c.fold, got, total, c.want)
		}
		under, err := FileDocumentsUnder(ctx, db.Reader(), c.prefix, c.fold)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(under); !slices.Equal(got, c.want) {
			t.Errorf("FileDocumentsUnder(%q, fold %v) = %v, want %v", c.prefix, c.fold, got, c.want)
		}
		hits, err := KeywordSearch(ctx, db.Reader(), `"tomato"`, SearchFilter{PathPrefix: c.prefix, FoldCase: c.fold}, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.DocumentID)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("KeywordSearch with PathPrefix %q, fold %v = %v, want %v", c.prefix, c.fold, got, c.want)
		}
		hits, err = KeywordSearch(ctx, db.Reader(), `"tomato"`, SearchFilter{ExcludePathPrefix: c.prefix, FoldCase: c.fold}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits)+len(c.want) != len(paths) {
			t.Errorf("ExcludePathPrefix %q, fold %v left %d of %d documents, want %d", c.prefix, c.fold, len(hits), len(paths), len(paths)-len(c.want))
		}
	}
	if (SearchFilter{FoldCase: true}).Narrows() || !(SearchFilter{PathPrefix: "/x/"}).Narrows() {
		t.Error("Narrows: folding case narrows nothing; a path prefix does")
	}
}
