-- 0008: enrichments (seed ADR-028): what the store derives by itself, kept apart from what a
-- source asserted. Everything here is derived data (DESIGN.md invariant 1): it can be dropped and
-- rebuilt by running the enrichments again over the documents, observations and vectors.

-- A derived link. relationships holds what sources and callers asserted; a derived link never
-- goes there, so an enrichment can neither overwrite nor delete an asserted edge, and a reader
-- always knows which is which. link_id is rel_ + hash(enrichment, type, source, target): two
-- enrichments may derive the same edge, each with its own evidence.
CREATE TABLE derived_links (
    link_id            TEXT PRIMARY KEY,
    relationship_type  TEXT NOT NULL,
    source_entity_id   TEXT NOT NULL,
    target_entity_id   TEXT NOT NULL,
    enrichment         TEXT NOT NULL,               -- the enrichment's name
    version            TEXT NOT NULL,               -- and its version: name@version is reported
    score              REAL NOT NULL,               -- in [0, 1]; what it means is the enrichment's
    evidence           TEXT NOT NULL,               -- JSON array: [{kind, id, document_id, ...}]
    metadata           TEXT,                        -- JSON object (e.g. {"gap_days": 3})
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX derived_links_source ON derived_links(source_entity_id, relationship_type);
CREATE INDEX derived_links_target ON derived_links(target_entity_id, relationship_type);
CREATE INDEX derived_links_enrichment ON derived_links(enrichment, relationship_type);

-- Which documents' content each derived link or suggestion rests on: a document that changes,
-- fails or goes away retracts everything listed against it, whatever enrichment made it.
CREATE TABLE derived_evidence (
    document_id  TEXT NOT NULL,
    item_id      TEXT NOT NULL,                     -- a link_id or a suggestion_id
    PRIMARY KEY (document_id, item_id)
) WITHOUT ROWID;
CREATE INDEX derived_evidence_item ON derived_evidence(item_id);

-- DiscoveryGap's suggestions: "these look related; nothing links them". An open suggestion is
-- derived like a link and retracted with its evidence; an accepted or dismissed one is a
-- person's or an agent's decision and is kept, so the same pair is never suggested again.
CREATE TABLE suggestions (
    suggestion_id      TEXT PRIMARY KEY,            -- sug_ + hash(source, target): one per pair
    source_entity_id   TEXT NOT NULL,
    target_entity_id   TEXT NOT NULL,
    kind               TEXT NOT NULL,               -- similar | co_occurs | ...: why it was raised
    score              REAL NOT NULL,
    reason             TEXT NOT NULL,               -- one sentence a person can read
    evidence           TEXT NOT NULL,               -- JSON array, as derived_links.evidence
    enrichment         TEXT NOT NULL,
    version            TEXT NOT NULL,
    state              TEXT NOT NULL,               -- open | accepted | dismissed
    relationship_id    TEXT,                        -- the asserted edge an accept created
    decided_by         TEXT,
    decided_at         TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX suggestions_state ON suggestions(state, score DESC, suggestion_id);
CREATE INDEX suggestions_source ON suggestions(source_entity_id);
CREATE INDEX suggestions_target ON suggestions(target_entity_id);

-- The version and settings each enrichment last ran with: when either changes (a new Strata, an
-- edited specs/enrichments.yaml), every document is enriched again.
CREATE TABLE enrichment_state (
    name           TEXT PRIMARY KEY,
    version        TEXT NOT NULL,
    settings_hash  TEXT NOT NULL,
    enabled        INTEGER NOT NULL,
    updated_at     TEXT NOT NULL
) WITHOUT ROWID;

-- One vector per document and space (the L2-normalised mean of its chunks' vectors), for
-- EmbeddingSimilarity. seq only grows, so every process's in-memory copy tails new rows by a
-- watermark; a document that leaves is a row with a NULL vector (a tombstone the tail sees).
CREATE TABLE doc_vectors (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    space        TEXT NOT NULL,
    document_id  TEXT NOT NULL,
    vector       BLOB,
    UNIQUE (space, document_id)
);

-- Where an entity is mentioned: the chunk (by its document and ordinal) a tag, heading term,
-- address or semantic entity sits in. CoOccurrence counts chunks from here; a document's rows
-- are replaced whenever it is enriched.
CREATE TABLE entity_mentions (
    entity_id    TEXT NOT NULL,
    document_id  TEXT NOT NULL,
    ordinal      INTEGER NOT NULL,                  -- the chunk's ordinal; -1: the whole document
    source       TEXT NOT NULL,                     -- tag | keyword | heading | email | semantic | ...
    PRIMARY KEY (entity_id, document_id, ordinal)
) WITHOUT ROWID;
CREATE INDEX entity_mentions_document ON entity_mentions(document_id);

-- The date a document or an entity is about (TemporalProximity), with where it was read.
CREATE TABLE dated_items (
    entity_id    TEXT PRIMARY KEY,
    document_id  TEXT NOT NULL,                     -- the document it was read from
    day          TEXT NOT NULL,                     -- YYYY-MM-DD
    evidence     TEXT NOT NULL                      -- JSON: {source, field?, line?, observation_id?}
) WITHOUT ROWID;
CREATE INDEX dated_items_day ON dated_items(day);
CREATE INDEX dated_items_document ON dated_items(document_id);

-- Emissions. Every change of what a document is (added, analyzed, changed, failed, removed, a
-- copy of another, its semantic phase done) queues its enrich job in the same transaction, so no
-- write path can forget to: the enrichments then run as durable jobs, after the phases that fed
-- them and never inside their transaction. The job's time is the document row's, which the
-- application's clock wrote.
CREATE TRIGGER documents_enrich_ai AFTER INSERT ON documents BEGIN
    INSERT INTO jobs(document_id, payload_id, phase, state, not_before, created_at, updated_at)
    VALUES (new.document_id, coalesce(new.payload_id, ''), 'enrich', 'queued', new.updated_at, new.updated_at, new.updated_at)
    ON CONFLICT(document_id, phase, payload_id) DO UPDATE SET
        state = 'queued', attempts = 0, not_before = excluded.not_before, error = NULL,
        lease_owner = NULL, lease_until = NULL, updated_at = excluded.updated_at
    WHERE jobs.state NOT IN ('queued', 'running');
END;
CREATE TRIGGER documents_enrich_au AFTER UPDATE OF status, payload_id, duplicate_of, phase_semantic ON documents
WHEN new.status IS NOT old.status OR new.payload_id IS NOT old.payload_id OR new.duplicate_of IS NOT old.duplicate_of
    OR (new.phase_semantic = 'done' AND old.phase_semantic IS NOT 'done')
BEGIN
    INSERT INTO jobs(document_id, payload_id, phase, state, not_before, created_at, updated_at)
    VALUES (new.document_id, coalesce(new.payload_id, ''), 'enrich', 'queued', new.updated_at, new.updated_at, new.updated_at)
    ON CONFLICT(document_id, phase, payload_id) DO UPDATE SET
        state = 'queued', attempts = 0, not_before = excluded.not_before, error = NULL,
        lease_owner = NULL, lease_until = NULL, updated_at = excluded.updated_at
    WHERE jobs.state NOT IN ('queued', 'running');
END;

-- Stores made before enrichments existed: every document is enriched once.
INSERT INTO jobs(document_id, payload_id, phase, state, not_before, created_at, updated_at)
    SELECT document_id, coalesce(payload_id, ''), 'enrich', 'queued', updated_at, updated_at, updated_at
    FROM documents WHERE status NOT IN ('removed', 'failed');
