-- 0011: what CoOccurrence reads of entity_mentions without touching chunks.
-- passage: a hash of the mentioning chunk's text ('' for a document-wide mention), so a passage
-- held by several documents (a copy, a page that repeats a chapter) is counted once.
ALTER TABLE entity_mentions ADD COLUMN passage TEXT NOT NULL DEFAULT '';
-- The entities one chunk mentions (document, ordinal): without this index each look-up scanned
-- every mention of the document.
CREATE INDEX entity_mentions_chunk ON entity_mentions(document_id, ordinal);
