-- 0018 (issue 23): what linking reads is kept counted, so that linking one document costs the
-- same in a store of twenty documents or twenty thousand. CoOccurrence recounted, for every
-- entity a document mentions, every chunk where it and each partner were named (a join over
-- their whole neighbourhood: 31 ms a note at 2,000 notes, growing with the store); these
-- counters are kept by triggers in the transaction that writes the mentions, so a run reads a
-- handful of rows.
--
-- What CoOccurrence counts: mentions by what a chunk's text says (a known concept's name, a
-- hashtag, a person's address), in a chunk (ordinal >= 0). A row inserted or deleted one at a
-- time changes each pair once: the trigger pairs it with the rows of its chunk present at that
-- moment.
CREATE TABLE mention_counts (
    entity_id  TEXT PRIMARY KEY,
    chunks     INTEGER NOT NULL                  -- counted mention rows: chunks naming it
) WITHOUT ROWID;

-- sig changes with the set of chunks naming both (a sum over them of the document's rowid and
-- the chunk's ordinal), and linked_sig is the sig the pair's link was last derived from: a link
-- whose pair kept its set is not read again, only rescored.
CREATE TABLE cooccur_pairs (
    a           TEXT NOT NULL,                   -- the smaller entity ID
    b           TEXT NOT NULL,
    chunks      INTEGER NOT NULL,                -- chunks naming both
    sig         INTEGER NOT NULL DEFAULT 0,
    linked_sig  INTEGER,
    PRIMARY KEY (a, b)
) WITHOUT ROWID;
CREATE INDEX cooccur_pairs_b ON cooccur_pairs(b);

CREATE TRIGGER entity_mentions_count_ai AFTER INSERT ON entity_mentions
WHEN new.ordinal >= 0 AND new.source IN ('text', 'hashtag', 'email')
BEGIN
    INSERT INTO mention_counts(entity_id, chunks) VALUES (new.entity_id, 1)
        ON CONFLICT(entity_id) DO UPDATE SET chunks = chunks + 1;
    INSERT INTO cooccur_pairs(a, b, chunks, sig)
        SELECT min(new.entity_id, m.entity_id), max(new.entity_id, m.entity_id), 1,
            coalesce((SELECT rowid FROM documents WHERE document_id = new.document_id), 0) * 65536 + new.ordinal
        FROM entity_mentions m
        WHERE m.document_id = new.document_id AND m.ordinal = new.ordinal AND m.entity_id <> new.entity_id
            AND m.source IN ('text', 'hashtag', 'email')
        ON CONFLICT(a, b) DO UPDATE SET chunks = chunks + 1, sig = sig + excluded.sig;
END;

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
    DELETE FROM cooccur_pairs WHERE a = old.entity_id AND chunks <= 0;
    DELETE FROM cooccur_pairs WHERE b = old.entity_id AND chunks <= 0;
END;

INSERT INTO mention_counts(entity_id, chunks)
    SELECT entity_id, count(*) FROM entity_mentions WHERE ordinal >= 0 AND source IN ('text', 'hashtag', 'email') GROUP BY entity_id;
INSERT INTO cooccur_pairs(a, b, chunks, sig)
    SELECT x.entity_id, y.entity_id, count(*), sum(coalesce((SELECT rowid FROM documents WHERE document_id = x.document_id), 0) * 65536 + x.ordinal)
    FROM entity_mentions x
    JOIN entity_mentions y ON y.document_id = x.document_id AND y.ordinal = x.ordinal AND y.entity_id > x.entity_id
    WHERE x.ordinal >= 0 AND x.source IN ('text', 'hashtag', 'email') AND y.source IN ('text', 'hashtag', 'email')
    GROUP BY x.entity_id, y.entity_id;

-- The heading terms of each document, by its folder (TagConceptBridger). A term that most of a
-- folder's documents carry as a heading ("Attendance", "Present", "Links", "Q&A" in a series
-- of minutes) is the series' structure, not a topic: the rule is learnt from the folder's own
-- counts, not from a list of words. term '' counts the folder's documents with any heading.
CREATE TABLE heading_terms (
    folder       TEXT NOT NULL,
    term         TEXT NOT NULL,
    document_id  TEXT NOT NULL,
    PRIMARY KEY (folder, term, document_id)
) WITHOUT ROWID;
CREATE INDEX heading_terms_document ON heading_terms(document_id);

CREATE TABLE heading_term_counts (
    folder     TEXT NOT NULL,
    term       TEXT NOT NULL,
    documents  INTEGER NOT NULL,
    PRIMARY KEY (folder, term)
) WITHOUT ROWID;
CREATE INDEX heading_term_counts_share ON heading_term_counts(folder, documents);

CREATE TRIGGER heading_terms_count_ai AFTER INSERT ON heading_terms BEGIN
    INSERT INTO heading_term_counts(folder, term, documents) VALUES (new.folder, new.term, 1)
        ON CONFLICT(folder, term) DO UPDATE SET documents = documents + 1;
END;
CREATE TRIGGER heading_terms_count_ad AFTER DELETE ON heading_terms BEGIN
    UPDATE heading_term_counts SET documents = documents - 1 WHERE folder = old.folder AND term = old.term;
    DELETE FROM heading_term_counts WHERE folder = old.folder AND term = old.term AND documents <= 0;
END;

-- A document that moves to another folder belongs to another series: its enrich job runs again.
DROP TRIGGER documents_enrich_au;
CREATE TRIGGER documents_enrich_au AFTER UPDATE OF status, payload_id, duplicate_of, phase_semantic, path ON documents
WHEN new.status IS NOT old.status OR new.payload_id IS NOT old.payload_id OR new.duplicate_of IS NOT old.duplicate_of
    OR (new.phase_semantic = 'done' AND old.phase_semantic IS NOT 'done') OR new.path IS NOT old.path
BEGIN
    INSERT INTO jobs(document_id, payload_id, phase, state, not_before, created_at, updated_at)
    VALUES (new.document_id, coalesce(new.payload_id, ''), 'enrich', 'queued', new.updated_at, new.updated_at, new.updated_at)
    ON CONFLICT(document_id, phase, payload_id) DO UPDATE SET
        state = 'queued', attempts = 0, not_before = excluded.not_before, error = NULL,
        lease_owner = NULL, lease_until = NULL, updated_at = excluded.updated_at
    WHERE jobs.state NOT IN ('queued', 'running');
END;

-- Which concepts the store knows: those a document refers to (TagConceptBridger's REFERS_TO:
-- a tag, hashtag, keyword or heading of its own). Text only finds a concept something else
-- made known; a run reads these counts, never other documents' links.
CREATE TABLE concept_bridges (
    entity_id  TEXT PRIMARY KEY,
    rows       INTEGER NOT NULL                  -- documents referring to it
) WITHOUT ROWID;

CREATE TRIGGER derived_links_bridge_ai AFTER INSERT ON derived_links
WHEN new.enrichment = 'TagConceptBridger' AND new.relationship_type = 'REFERS_TO'
BEGIN
    INSERT INTO concept_bridges(entity_id, rows) VALUES (new.target_entity_id, 1)
        ON CONFLICT(entity_id) DO UPDATE SET rows = rows + 1;
END;
CREATE TRIGGER derived_links_bridge_ad AFTER DELETE ON derived_links
WHEN old.enrichment = 'TagConceptBridger' AND old.relationship_type = 'REFERS_TO'
BEGIN
    UPDATE concept_bridges SET rows = rows - 1 WHERE entity_id = old.target_entity_id;
    DELETE FROM concept_bridges WHERE entity_id = old.target_entity_id AND rows <= 0;
END;

INSERT INTO concept_bridges(entity_id, rows)
    SELECT target_entity_id, count(*) FROM derived_links WHERE enrichment = 'TagConceptBridger' AND relationship_type = 'REFERS_TO'
    GROUP BY target_entity_id;

-- DiscoveryGap's evidence (issue 23): the names each document uses (capitalised words that are
-- not a sentence's first, never written in lower case), with the hashes of the lines they are
-- used on, and how many documents use each. Two documents that share names few others use are
-- about the same things; a name many documents use is no evidence.
CREATE TABLE doc_names (
    name         TEXT NOT NULL,                  -- lower case: the key
    document_id  TEXT NOT NULL,
    shown        TEXT NOT NULL,                  -- as the document first writes it
    lines        TEXT NOT NULL,                  -- JSON array of line hashes (as decimal strings)
    PRIMARY KEY (name, document_id)
) WITHOUT ROWID;
CREATE INDEX doc_names_document ON doc_names(document_id);

CREATE TABLE name_counts (
    name       TEXT PRIMARY KEY,
    documents  INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER doc_names_count_ai AFTER INSERT ON doc_names BEGIN
    INSERT INTO name_counts(name, documents) VALUES (new.name, 1)
        ON CONFLICT(name) DO UPDATE SET documents = documents + 1;
END;
CREATE TRIGGER doc_names_count_ad AFTER DELETE ON doc_names BEGIN
    UPDATE name_counts SET documents = documents - 1 WHERE name = old.name;
    DELETE FROM name_counts WHERE name = old.name AND documents <= 0;
END;

-- The pairs of documents DiscoveryGap found related, with their score: what each document's
-- best few are read from, so a suggestion is raised only when it is among the best of both.
CREATE TABLE gap_candidates (
    a      TEXT NOT NULL,                        -- the smaller document ID
    b      TEXT NOT NULL,
    score  REAL NOT NULL,
    PRIMARY KEY (a, b)
) WITHOUT ROWID;
CREATE INDEX gap_candidates_b ON gap_candidates(b);

-- An observation by its ID alone: the check that a derived observation is stored already
-- (ingest.ObserveDerived, for every concept of every document linked) scanned the whole table,
-- a cost that grew with the store.
CREATE INDEX observations_id ON observations(observation_id);

-- How many asset files (fonts, images, media, archives, minified code, source maps, search
-- indexes) a watched folder's last full look skipped: shown per folder, not as failures.
ALTER TABLE watch_roots ADD COLUMN skipped_assets INTEGER NOT NULL DEFAULT 0;
