-- 0001: the truth model (payloads → observations → snapshots), documents and chunks.
-- Timestamps are UTC RFC 3339 with fixed nanosecond width so that text order is time order.

-- payload_id is derived 1:1 from payload_content_id, so its key alone deduplicates content.
CREATE TABLE payloads (
    payload_id          TEXT PRIMARY KEY,            -- UUID derived from payload_content_id
    payload_content_id  TEXT NOT NULL,               -- hash of kind + normalised content
    kind                TEXT NOT NULL,               -- content | payload | file
    capability_id       TEXT,                        -- for kind=payload
    body                TEXT NOT NULL,               -- canonical JSON of the normalised content
    origin              TEXT NOT NULL,               -- JSON: origin provenance of the first submission
    created_at          TEXT NOT NULL
);

-- Every submission is kept, duplicates included, so each agent's provenance survives dedup.
CREATE TABLE submissions (
    submission_id       TEXT PRIMARY KEY,            -- sub_<UUIDv7>
    payload_id          TEXT NOT NULL REFERENCES payloads(payload_id),
    client_request_id   TEXT,
    created             INTEGER NOT NULL,            -- 1 if this submission created the payload
    origin              TEXT NOT NULL,
    created_at          TEXT NOT NULL
) WITHOUT ROWID;
CREATE UNIQUE INDEX submissions_client_request ON submissions(client_request_id) WHERE client_request_id IS NOT NULL;

CREATE TABLE documents (
    document_id     TEXT PRIMARY KEY,
    payload_id      TEXT REFERENCES payloads(payload_id),
    entity_id       TEXT,                            -- the document's own entity
    kind            TEXT NOT NULL,                   -- content | file
    path            TEXT,
    title           TEXT NOT NULL DEFAULT '',
    mime            TEXT NOT NULL DEFAULT '',
    size            INTEGER NOT NULL DEFAULT 0,
    mtime           TEXT,
    content_hash    TEXT NOT NULL,
    status          TEXT NOT NULL,                   -- registered | analyzed | semantic | failed | removed
    phase_register  TEXT NOT NULL DEFAULT 'pending', -- pending | running | done | skipped | failed
    phase_analyze   TEXT NOT NULL DEFAULT 'pending',
    phase_semantic  TEXT NOT NULL DEFAULT 'pending',
    last_error      TEXT,                            -- JSON error envelope of the last failure
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);
CREATE INDEX documents_status ON documents(status, document_id);
CREATE UNIQUE INDEX documents_path ON documents(path) WHERE path IS NOT NULL;

-- chunks keeps an integer rowid so that FTS5 can index it as external content.
CREATE TABLE chunks (
    chunk_id     TEXT NOT NULL UNIQUE,
    document_id  TEXT NOT NULL REFERENCES documents(document_id) ON DELETE CASCADE,
    ordinal      INTEGER NOT NULL,
    text         TEXT NOT NULL,
    heading      TEXT NOT NULL DEFAULT '',
    byte_start   INTEGER NOT NULL,
    byte_end     INTEGER NOT NULL,
    line_start   INTEGER NOT NULL,
    line_end     INTEGER NOT NULL,
    page         INTEGER,
    UNIQUE (document_id, ordinal)
);

CREATE VIRTUAL TABLE chunks_fts USING fts5(
    text, heading,
    content = 'chunks', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, text, heading) VALUES (new.rowid, new.text, new.heading);
END;
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text, heading) VALUES ('delete', old.rowid, old.text, old.heading);
END;
CREATE TRIGGER chunks_au AFTER UPDATE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text, heading) VALUES ('delete', old.rowid, old.text, old.heading);
    INSERT INTO chunks_fts(rowid, text, heading) VALUES (new.rowid, new.text, new.heading);
END;

CREATE TABLE entities (
    entity_id       TEXT PRIMARY KEY,                -- ent_ + hash(type, identity key)
    entity_type     TEXT NOT NULL,
    canonical_name  TEXT NOT NULL,
    identity_key    TEXT NOT NULL,
    aliases         TEXT NOT NULL DEFAULT '[]',      -- JSON array of names seen
    created_at      TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX entities_type ON entities(entity_type, entity_id);

-- Keyed the way it is read: an entity's observations in time order (history, `at`, listing).
-- One B-tree: an observation's ID is unique on its own, and its entity and time never change.
CREATE TABLE observations (
    entity_id          TEXT NOT NULL REFERENCES entities(entity_id),
    observed_at        TEXT NOT NULL,
    observation_id     TEXT NOT NULL,
    entity_type        TEXT NOT NULL,
    schema_version     TEXT NOT NULL,
    source_payload_id  TEXT NOT NULL REFERENCES payloads(payload_id),
    document_id        TEXT,
    extractor          TEXT NOT NULL,                -- capability or adapter that produced it
    specificity_score  REAL NOT NULL,
    source_priority    INTEGER NOT NULL,
    fields             TEXT NOT NULL,                -- canonical JSON object
    span               TEXT,                         -- JSON location in the source, if any
    created_at         TEXT NOT NULL,
    PRIMARY KEY (entity_id, observed_at, observation_id)
) WITHOUT ROWID;

-- Small rows keyed by text IDs are WITHOUT ROWID: one B-tree instead of table + key index,
-- which halves the pages a write dirties (commit cost is one WAL frame per dirty page).

-- Materialised reducer output. state holds each field's winning sort key so that a new
-- observation updates the snapshot without re-reading every observation of the entity.
CREATE TABLE snapshots (
    entity_id            TEXT PRIMARY KEY REFERENCES entities(entity_id),
    entity_type          TEXT NOT NULL,
    schema_version       TEXT NOT NULL,
    snapshot             TEXT NOT NULL,
    provenance           TEXT NOT NULL,
    state                TEXT NOT NULL,
    observation_count    INTEGER NOT NULL,
    last_observation_at  TEXT NOT NULL,
    computed_at          TEXT NOT NULL
) WITHOUT ROWID;

-- Keyed by (source, type, target), which is what relationship_id is a hash of: one B-tree
-- for the edge and one for inbound lookups, no separate ID index.
CREATE TABLE relationships (
    source_entity_id   TEXT NOT NULL REFERENCES entities(entity_id),
    relationship_type  TEXT NOT NULL,
    target_entity_id   TEXT NOT NULL REFERENCES entities(entity_id),
    relationship_id    TEXT NOT NULL,                -- rel_ + hash(type, source, target)
    metadata           TEXT,
    source_payload_id  TEXT,
    created_at         TEXT NOT NULL,
    PRIMARY KEY (source_entity_id, relationship_type, target_entity_id)
) WITHOUT ROWID;
CREATE INDEX relationships_target ON relationships(target_entity_id, relationship_type);

CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
