-- 0019 (issue 23): a mention's removal drops only the pairs it emptied. The trigger of 0018
-- looked for emptied pairs among every pair of the entity (a tag in a thousand notes pairs
-- with thousands of entities): removing a note's mentions cost more the bigger the store.
DROP TRIGGER entity_mentions_count_ad;
CREATE TRIGGER entity_mentions_count_ad AFTER DELETE ON entity_mentions
WHEN old.ordinal >= 0 AND old.source IN ('text', 'hashtag', 'email')
BEGIN
    UPDATE mention_counts SET chunks = chunks - 1 WHERE entity_id = old.entity_id;
    DELETE FROM mention_counts WHERE entity_id = old.entity_id AND chunks <= 0;
    UPDATE cooccur_pairs SET chunks = chunks - 1,
        sig = sig - coalesce((SELECT rowid FROM documents WHERE document_id = old.document_id), 0) * 65536 - old.ordinal WHERE (a, b) IN (
        SELECT min(old.entity_id, m.entity_id), max(old.entity_id, m.entity_id) FROM entity_mentions m
        WHERE m.document_id = old.document_id AND m.ordinal = old.ordinal AND m.entity_id <> old.entity_id
            AND m.source IN ('text', 'hashtag', 'email'));
    DELETE FROM cooccur_pairs WHERE chunks <= 0 AND (a, b) IN (
        SELECT min(old.entity_id, m.entity_id), max(old.entity_id, m.entity_id) FROM entity_mentions m
        WHERE m.document_id = old.document_id AND m.ordinal = old.ordinal AND m.entity_id <> old.entity_id
            AND m.source IN ('text', 'hashtag', 'email'));
END;
