-- 0015: lint leaves a document whose enrichments have not run yet out of the checks that read
-- its links (orphan, missing_link, versions, concept uses): until then "connected to nothing"
-- is only "not linked yet". Its enrich job finishing is what makes it a subject again, and that
-- changes no other row when the enrichments found nothing: the job's end marks the document.
CREATE TRIGGER lint_enriched_au AFTER UPDATE OF state ON jobs
WHEN new.phase = 'enrich' AND new.state IN ('done', 'failed', 'skipped') AND old.state IS NOT new.state
BEGIN
    INSERT INTO lint_dirty(entity_id)
        SELECT entity_id FROM documents WHERE document_id = new.document_id AND entity_id IS NOT NULL
        ON CONFLICT DO NOTHING;
END;
