-- 0010: what the enrichments block of the status reads, kept cheap. The status is polled every
-- second by the window; counting derived links and open suggestions by enrichment with GROUP BY
-- read every row of derived_links (Status 3.5 ms → 15–33 ms at 100k links). These triggers keep
-- the counts in census_counts (0007) in the transaction that changes the rows, as
-- 'derived_links:<enrichment>' and 'open_suggestions:<enrichment>': reading them is a lookup
-- in a table of a few rows. (0009 is EmbeddingSimilarity's.)
--
-- Also: documents.entity_id is indexed, so a listing names a link's document ends (path,
-- document) by a lookup rather than a scan of every document per page.
CREATE INDEX documents_entity ON documents(entity_id);

-- And the enrich backlog (queued, running and failed enrich jobs) is counted inside one index:
-- by jobs_ready (state, …) each queued job was a table lookup for its phase (0.4 of Status's
-- 2 ms with 2,000 documents waiting).
CREATE INDEX jobs_phase_state ON jobs(phase, state);

INSERT INTO census_counts(key, n)
    SELECT 'derived_links:' || enrichment, count(*) FROM derived_links WHERE true GROUP BY enrichment
    ON CONFLICT(key) DO UPDATE SET n = excluded.n;
INSERT INTO census_counts(key, n)
    SELECT 'open_suggestions:' || enrichment, count(*) FROM suggestions WHERE state = 'open' GROUP BY enrichment
    ON CONFLICT(key) DO UPDATE SET n = excluded.n;

-- Derived links. An upsert that finds the row (ReplaceDerived's ON CONFLICT DO UPDATE) fires
-- the UPDATE trigger, not the INSERT one, so a link rewritten is not counted twice.
CREATE TRIGGER derived_links_count_ai AFTER INSERT ON derived_links BEGIN
    INSERT INTO census_counts(key, n) VALUES ('derived_links:' || new.enrichment, 1)
        ON CONFLICT(key) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER derived_links_count_ad AFTER DELETE ON derived_links BEGIN
    UPDATE census_counts SET n = n - 1 WHERE key = 'derived_links:' || old.enrichment;
END;
CREATE TRIGGER derived_links_count_au AFTER UPDATE OF enrichment ON derived_links
WHEN new.enrichment IS NOT old.enrichment
BEGIN
    UPDATE census_counts SET n = n - 1 WHERE key = 'derived_links:' || old.enrichment;
    INSERT INTO census_counts(key, n) VALUES ('derived_links:' || new.enrichment, 1)
        ON CONFLICT(key) DO UPDATE SET n = n + 1;
END;

-- Suggestions count while open: raised, decided (accepted or dismissed), retracted.
CREATE TRIGGER suggestions_count_ai AFTER INSERT ON suggestions WHEN new.state = 'open' BEGIN
    INSERT INTO census_counts(key, n) VALUES ('open_suggestions:' || new.enrichment, 1)
        ON CONFLICT(key) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER suggestions_count_ad AFTER DELETE ON suggestions WHEN old.state = 'open' BEGIN
    UPDATE census_counts SET n = n - 1 WHERE key = 'open_suggestions:' || old.enrichment;
END;
CREATE TRIGGER suggestions_count_au AFTER UPDATE OF state, enrichment ON suggestions
WHEN (old.state = 'open') != (new.state = 'open') OR (new.state = 'open' AND new.enrichment IS NOT old.enrichment)
BEGIN
    UPDATE census_counts SET n = n - 1 WHERE old.state = 'open' AND key = 'open_suggestions:' || old.enrichment;
    INSERT INTO census_counts(key, n) SELECT 'open_suggestions:' || new.enrichment, 1 WHERE new.state = 'open'
        ON CONFLICT(key) DO UPDATE SET n = n + 1;
END;
