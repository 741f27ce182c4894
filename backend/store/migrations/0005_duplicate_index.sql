-- Documents that duplicate a given one are looked up whenever a file changes, fails or is
-- removed (its duplicates are then read on their own); without an index each lookup scanned
-- every document.
CREATE INDEX IF NOT EXISTS documents_duplicate_of ON documents(duplicate_of);

-- Registration looks up the documents with the file's content hash (deduplication) for every
-- file it registers; without an index that was a scan of every document per file.
CREATE INDEX IF NOT EXISTS documents_content_hash ON documents(content_hash);
