-- 0012: what EmbeddingSimilarity needs beside each document vector. shingles is the number of
-- distinct 3-word shingles of the document's text: containment of A in B can reach a threshold
-- only if the sizes allow it (|A∩B| ≤ min(|A|, |B|)), so comparing two sizes rules out most
-- pairs before any text is read. The document_id index lets a document that leaves be
-- tombstoned in every space without scanning the table.
ALTER TABLE doc_vectors ADD COLUMN shingles INTEGER NOT NULL DEFAULT 0;
CREATE INDEX doc_vectors_document ON doc_vectors(document_id);
