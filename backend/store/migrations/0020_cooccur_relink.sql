-- 0020 (issue 23): a pair that lost a chunk naming both is derived again, even if the same
-- chunk positions name both again later. linked_sig compared only the set of (document, chunk
-- position) naming both; a document read again keeps its positions with new text (new chunk
-- IDs, lines and quotes), and a renamed one keeps them under a new path, so a link derived
-- before the change kept citing what the document no longer says. Deleting a mention row now
-- forgets which set the pair's link was derived from: a new note (inserts only) still costs
-- only a rescore of its pairs, while a changed, renamed or removed one relinks its own.
DROP TRIGGER entity_mentions_count_ad;
CREATE TRIGGER entity_mentions_count_ad AFTER DELETE ON entity_mentions
WHEN old.ordinal >= 0 AND old.source IN ('text', 'hashtag', 'email')
BEGIN
    UPDATE mention_counts SET chunks = chunks - 1 WHERE entity_id = old.entity_id;
    DELETE FROM mention_counts WHERE entity_id = old.entity_id AND chunks <= 0;
    UPDATE cooccur_pairs SET chunks = chunks - 1, linked_sig = NULL,
        sig = sig - coalesce((SELECT rowid FROM documents WHERE document_id = old.document_id), 0) * 65536 - old.ordinal WHERE (a, b) IN (
        SELECT min(old.entity_id, m.entity_id), max(old.entity_id, m.entity_id) FROM entity_mentions m
        WHERE m.document_id = old.document_id AND m.ordinal = old.ordinal AND m.entity_id <> old.entity_id
            AND m.source IN ('text', 'hashtag', 'email'));
    DELETE FROM cooccur_pairs WHERE chunks <= 0 AND (a, b) IN (
        SELECT min(old.entity_id, m.entity_id), max(old.entity_id, m.entity_id) FROM entity_mentions m
        WHERE m.document_id = old.document_id AND m.ordinal = old.ordinal AND m.entity_id <> old.entity_id
            AND m.source IN ('text', 'hashtag', 'email'));
END;
