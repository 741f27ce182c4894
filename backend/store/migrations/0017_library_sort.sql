-- 0017: the Library sorts by when a document arrived, name, size and status, newest first by
-- default, and pages through 5,000–100,000 documents as the list scrolls. Each sort walks an
-- index in its order (ties by document_id, so a page boundary never splits or repeats a tie).
-- Without them every page sorted the whole table again: at 100,000 documents 27–600 ms a page
-- (the first page to the last), 2–16 ms with them (BenchmarkDocumentList, BENCHMARKS.md).
--
-- "Newest" is when Strata got the document's current content: when it was added, or when its
-- file's content last changed (a new version), not updated_at, which every phase moves (a
-- list sorted by it reshuffled while analysis ran). changed_at is NULL until the content
-- changes after the document was added, so rows need no backfill and the sort key is
-- coalesce(changed_at, created_at) in both the index and the query.
ALTER TABLE documents ADD COLUMN changed_at TEXT;

CREATE TRIGGER documents_changed_au AFTER UPDATE OF content_hash ON documents
WHEN new.content_hash IS NOT old.content_hash
BEGIN
    UPDATE documents SET changed_at = new.updated_at WHERE document_id = new.document_id;
END;

-- Each index also holds the columns the Library filters by (status, type, folder), and a page is
-- read from its sort's index by name (INDEXED BY, store.ListDocuments): a filtered page then
-- costs at most one walk of one index, whatever the filter matches. Left to itself the planner
-- (which has no statistics: nothing runs ANALYZE) took documents_status for "status = ?" and
-- sorted every match: 0.26–0.76 s a page of 90,000 analysed documents (6–25 ms now). The price is
-- space: ~10 MB per index at 100,000 documents (the documents table itself is ~22 MB).
CREATE INDEX documents_by_added ON documents(coalesce(changed_at, created_at), document_id, status, doc_type, path);
CREATE INDEX documents_by_name ON documents(title COLLATE NOCASE, document_id, status, doc_type, path);
CREATE INDEX documents_by_size ON documents(size, document_id, status, doc_type, path);
-- Status in the order a person triages: failed first, then waiting, analysed, understood, gone.
CREATE INDEX documents_by_status ON documents(
    CASE status WHEN 'failed' THEN 0 WHEN 'registered' THEN 1 WHEN 'analyzed' THEN 2 WHEN 'semantic' THEN 3 ELSE 4 END,
    document_id, status, doc_type, path);
