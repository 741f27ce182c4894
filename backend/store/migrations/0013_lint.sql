-- 0013: lint (issue 15, seed ADR-037): what the store believes that does not hold together.
-- Findings are derived data (DESIGN.md invariant 1): dropping these tables and linting again
-- gives the same findings. They are kept so that a run after the first rechecks only what
-- changed: every write that can change a finding marks the entities it touched in lint_dirty,
-- in the transaction that makes it, so no write path can forget to.

-- Entities whose findings may have changed since the last lint run (both ends of a link, the
-- entity an observation or a mention is about, a document's entity when the document changes).
CREATE TABLE lint_dirty (
    entity_id  TEXT PRIMARY KEY
) WITHOUT ROWID;

-- One row per finding. subject_id is the entity it is about (for a document: its entity); a
-- run that rechecks a subject replaces all of that subject's findings by the checks it runs.
-- gap_days is the age difference a stale value rests on, so that staleness_days filters when
-- reading instead of forcing a new run (-1: not an age, always shown).
CREATE TABLE lint_findings (
    finding_id  TEXT PRIMARY KEY,
    check_name  TEXT NOT NULL,               -- the check that found it (one kind may have two)
    kind        TEXT NOT NULL,
    severity    INTEGER NOT NULL,            -- 0 high, 1 medium, 2 low: report order
    kind_rank   INTEGER NOT NULL,            -- the kind's place in report order
    scope       TEXT NOT NULL,               -- entities | documents | concepts
    subject_id  TEXT NOT NULL,
    gap_days    INTEGER NOT NULL DEFAULT -1,
    body        TEXT NOT NULL                -- the finding as JSON
) WITHOUT ROWID;
CREATE INDEX lint_findings_order ON lint_findings(severity, kind_rank, finding_id);
CREATE INDEX lint_findings_subject ON lint_findings(check_name, subject_id);

-- Every entity a finding rests on besides its subject (the other end of a missing link, the
-- sources of a contradiction): when one of them changes, the finding's subject is checked again.
CREATE TABLE lint_refs (
    entity_id   TEXT NOT NULL,
    finding_id  TEXT NOT NULL,
    PRIMARY KEY (entity_id, finding_id)
) WITHOUT ROWID;
CREATE INDEX lint_refs_finding ON lint_refs(finding_id);

-- The sources that observed an entity, found from the source's side: when a document changes
-- (a new version, removed, linked as correcting another), the entities it observed are checked.
CREATE INDEX observations_document ON observations(document_id, entity_id) WHERE document_id IS NOT NULL;

-- The mentions that are not a known concept's name in passing (tags, hashtags, keywords,
-- headings, addresses): 12,000 of 199,000 rows at 10,000 notes, which undocumented_concept and
-- missing_link read whole. The text rows are left out, so the index costs their writes nothing.
CREATE INDEX entity_mentions_declared ON entity_mentions(source, entity_id) WHERE source <> 'text';

-- What a payload no document holds observed: its primary entity (the invoice of an invoice
-- payload) tells a resubmission of one record from another record by the same agent.
CREATE INDEX observations_payload ON observations(source_payload_id) WHERE document_id IS NULL;

-- What marks entities dirty: inserts into a table keyed by the ID. ON CONFLICT DO NOTHING, not
-- INSERT OR IGNORE: the outer statement's conflict policy overrides a trigger's OR clause (an
-- upsert of entities failed on a repeated mark), an upsert clause of the trigger's own stays.
CREATE TRIGGER lint_entities_ai AFTER INSERT ON entities BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_entities_au AFTER UPDATE OF canonical_name, aliases ON entities BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_observations_ai AFTER INSERT ON observations BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_relationships_ai AFTER INSERT ON relationships BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.source_entity_id), (new.target_entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_relationships_ad AFTER DELETE ON relationships BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (old.source_entity_id), (old.target_entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_derived_ai AFTER INSERT ON derived_links BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.source_entity_id), (new.target_entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_derived_ad AFTER DELETE ON derived_links BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (old.source_entity_id), (old.target_entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_derived_au AFTER UPDATE ON derived_links BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.source_entity_id), (new.target_entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_documents_ai AFTER INSERT ON documents WHEN new.entity_id IS NOT NULL BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_documents_au AFTER UPDATE OF status, payload_id, duplicate_of, title, path, mtime, entity_id ON documents
WHEN new.entity_id IS NOT NULL
BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_mentions_ai AFTER INSERT ON entity_mentions BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.entity_id) ON CONFLICT DO NOTHING;
    INSERT INTO lint_dirty(entity_id)
        SELECT entity_id FROM documents WHERE document_id = new.document_id AND entity_id IS NOT NULL ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_mentions_ad AFTER DELETE ON entity_mentions BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (old.entity_id) ON CONFLICT DO NOTHING;
    INSERT INTO lint_dirty(entity_id)
        SELECT entity_id FROM documents WHERE document_id = old.document_id AND entity_id IS NOT NULL ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_dated_ai AFTER INSERT ON dated_items BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_dated_au AFTER UPDATE ON dated_items BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (new.entity_id) ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER lint_dated_ad AFTER DELETE ON dated_items BEGIN
    INSERT INTO lint_dirty(entity_id) VALUES (old.entity_id) ON CONFLICT DO NOTHING;
END;
