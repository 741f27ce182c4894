-- 0009: an asserted relationship retracts the open DiscoveryGap suggestion of its pair, in the
-- transaction that asserts it, whatever wrote it (`relationships create`, a payload's
-- relationships, an accepted suggestion of another pair): "nothing links them" is no longer
-- true, and a relationship is not a document change, so no enrich job would notice. The
-- suggestion an accept asserts is left for DecideSuggestion to mark accepted (its ID is in the
-- relationship's metadata).
CREATE TRIGGER relationships_retract_suggestion AFTER INSERT ON relationships BEGIN
    DELETE FROM derived_evidence WHERE item_id IN (
        SELECT suggestion_id FROM suggestions WHERE state = 'open'
            AND ((source_entity_id = new.source_entity_id AND target_entity_id = new.target_entity_id)
              OR (source_entity_id = new.target_entity_id AND target_entity_id = new.source_entity_id))
            AND suggestion_id IS NOT (CASE WHEN json_valid(new.metadata) THEN json_extract(new.metadata, '$.accepted_suggestion') END));
    DELETE FROM suggestions WHERE state = 'open'
        AND ((source_entity_id = new.source_entity_id AND target_entity_id = new.target_entity_id)
          OR (source_entity_id = new.target_entity_id AND target_entity_id = new.source_entity_id))
        AND suggestion_id IS NOT (CASE WHEN json_valid(new.metadata) THEN json_extract(new.metadata, '$.accepted_suggestion') END);
END;
