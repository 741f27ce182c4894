-- 0007: the embedding census kept as counters. Every search answer carries how many chunks have a
-- vector in the answering space against how many chunks live documents hold; counting that with
-- count(*) reads every page of two indexes, 1.7 s of a cold first search at 100k chunks. These
-- triggers keep both numbers in the same transaction as the rows they count, so reading them is
-- one lookup in a table of a few rows, for every process on the folder.
--
-- Keys: 'vectors:<space>' (rows of embeddings in that space) and 'live_chunks' (chunks whose
-- document exists and is neither removed nor failed: what CountEmbeddings' join used to count).
CREATE TABLE census_counts (
    key  TEXT PRIMARY KEY,
    n    INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO census_counts(key, n)
    SELECT 'vectors:' || space, count(*) FROM embeddings GROUP BY space;
INSERT INTO census_counts(key, n)
    SELECT 'live_chunks', count(*) FROM chunks c JOIN documents d ON d.document_id = c.document_id
    WHERE d.status NOT IN ('removed', 'failed');

-- Vectors. INSERT OR REPLACE would break the count: a REPLACE deletes the old row without firing
-- DELETE triggers (unless recursive_triggers is on) and then fires the INSERT trigger, counting
-- the chunk twice. So a vector is replaced by deleting it first (InsertEmbeddings does), and an
-- insert that would replace (or be ignored) is refused instead of miscounted.
CREATE TRIGGER embeddings_census_bi BEFORE INSERT ON embeddings
WHEN EXISTS (SELECT 1 FROM embeddings WHERE space = new.space AND chunk_rowid = new.chunk_rowid)
BEGIN
    SELECT RAISE(ABORT, 'embeddings: delete a chunk''s vector before writing a new one (census_counts)');
END;
CREATE TRIGGER embeddings_census_ai AFTER INSERT ON embeddings BEGIN
    INSERT INTO census_counts(key, n) VALUES ('vectors:' || new.space, 1)
        ON CONFLICT(key) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER embeddings_census_ad AFTER DELETE ON embeddings BEGIN
    UPDATE census_counts SET n = n - 1 WHERE key = 'vectors:' || old.space;
END;
CREATE TRIGGER embeddings_census_au AFTER UPDATE OF space ON embeddings BEGIN
    UPDATE census_counts SET n = n - 1 WHERE key = 'vectors:' || old.space;
    INSERT INTO census_counts(key, n) VALUES ('vectors:' || new.space, 1)
        ON CONFLICT(key) DO UPDATE SET n = n + 1;
END;

-- Chunks count while their document is live.
CREATE TRIGGER chunks_census_ai AFTER INSERT ON chunks
WHEN EXISTS (SELECT 1 FROM documents WHERE document_id = new.document_id AND status NOT IN ('removed', 'failed'))
BEGIN
    UPDATE census_counts SET n = n + 1 WHERE key = 'live_chunks';
END;
-- A document's delete cascades to its chunks after the document row is gone, so those chunks
-- find no live document here and are taken off by documents_census_bd instead.
CREATE TRIGGER chunks_census_ad AFTER DELETE ON chunks
WHEN EXISTS (SELECT 1 FROM documents WHERE document_id = old.document_id AND status NOT IN ('removed', 'failed'))
BEGIN
    UPDATE census_counts SET n = n - 1 WHERE key = 'live_chunks';
END;
CREATE TRIGGER chunks_census_au AFTER UPDATE OF document_id ON chunks BEGIN
    UPDATE census_counts SET n = n
        - EXISTS (SELECT 1 FROM documents WHERE document_id = old.document_id AND status NOT IN ('removed', 'failed'))
        + EXISTS (SELECT 1 FROM documents WHERE document_id = new.document_id AND status NOT IN ('removed', 'failed'))
    WHERE key = 'live_chunks';
END;

-- Documents: crossing live ↔ not live moves all of the document's chunks at once (removal and
-- failure normally delete the chunks in the same transaction, in either order).
CREATE TRIGGER documents_census_au AFTER UPDATE OF status ON documents
WHEN (old.status NOT IN ('removed', 'failed')) != (new.status NOT IN ('removed', 'failed'))
BEGIN
    UPDATE census_counts SET n = n + (CASE WHEN new.status NOT IN ('removed', 'failed') THEN 1 ELSE -1 END)
        * (SELECT count(*) FROM chunks WHERE document_id = new.document_id)
    WHERE key = 'live_chunks';
END;
CREATE TRIGGER documents_census_ai AFTER INSERT ON documents
WHEN new.status NOT IN ('removed', 'failed')
BEGIN
    UPDATE census_counts SET n = n + (SELECT count(*) FROM chunks WHERE document_id = new.document_id)
    WHERE key = 'live_chunks';
END;
CREATE TRIGGER documents_census_bd BEFORE DELETE ON documents
WHEN old.status NOT IN ('removed', 'failed')
BEGIN
    UPDATE census_counts SET n = n - (SELECT count(*) FROM chunks WHERE document_id = old.document_id)
    WHERE key = 'live_chunks';
END;
