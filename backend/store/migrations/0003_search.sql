-- 0003: search. Filterable document facts, and vectors per embedding space.

ALTER TABLE documents ADD COLUMN doc_type TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';   -- JSON array, lower-case

-- One row per (chunk, space). seq only grows, so every process's in-memory vector index can tail
-- new rows by a watermark (DESIGN.md invariant 3); a chunk's vectors are deleted with it and the
-- deletion is logged for the same reason.
CREATE TABLE embeddings (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    chunk_rowid  INTEGER NOT NULL,
    space        TEXT NOT NULL,              -- provider/model/dims: spaces are never mixed
    vector       BLOB NOT NULL,              -- little-endian float32, L2-normalised
    UNIQUE (space, chunk_rowid)
);
CREATE TABLE embedding_deletes (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    chunk_rowid  INTEGER NOT NULL
);
CREATE TRIGGER chunks_embeddings_ad AFTER DELETE ON chunks BEGIN
    DELETE FROM embeddings WHERE chunk_rowid = old.rowid;
    INSERT INTO embedding_deletes(chunk_rowid) VALUES (old.rowid);
END;

-- FTS5's rank column is BM25 with headings weighted double, so a query can take the best N
-- matches from the full-text index alone before any join.
INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('rank', 'bm25(1.0, 2.0)');
