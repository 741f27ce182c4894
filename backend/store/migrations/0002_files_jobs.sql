-- 0002: files as documents, the durable job queue, watched folders.

-- A second path with the same bytes is registered but not extracted again: it points at the
-- document that holds the chunks.
ALTER TABLE documents ADD COLUMN duplicate_of TEXT;
ALTER TABLE documents ADD COLUMN pages INTEGER NOT NULL DEFAULT 0;
CREATE INDEX documents_hash ON documents(content_hash) WHERE kind = 'file';

-- One row per (document version, phase). A worker claims a job by setting a lease; a job whose
-- lease expired (its worker died) is claimed again. A job's results and its 'done' state are
-- written in one transaction, and only by the lease holder, so nothing is done twice.
CREATE TABLE jobs (
    job_id       INTEGER PRIMARY KEY,
    document_id  TEXT NOT NULL REFERENCES documents(document_id),
    payload_id   TEXT NOT NULL,                 -- the document version the job is for
    phase        TEXT NOT NULL,                 -- analyze | semantic
    state        TEXT NOT NULL,                 -- queued | running | done | failed | skipped
    attempts     INTEGER NOT NULL DEFAULT 0,
    not_before   TEXT NOT NULL,                 -- backoff: not claimed before this time
    lease_owner  TEXT,
    lease_until  TEXT,
    error        TEXT,                          -- JSON error envelope of the last failure
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (document_id, phase, payload_id)
);
CREATE INDEX jobs_ready ON jobs(state, not_before, job_id);
CREATE INDEX jobs_document ON jobs(document_id, phase);

CREATE TABLE watch_roots (
    path      TEXT PRIMARY KEY,
    added_at  TEXT NOT NULL
) WITHOUT ROWID;

-- Merge full-text segments in larger steps: ingest writes many small segments.
INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('automerge', 8);
