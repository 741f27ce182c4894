-- 0014: entities by name. A question names an entity by its name's words (ask, issue 15): the
-- names that can be meant are those whose first word is a word of the question, a range of this
-- index per word (lower case, as names are compared). Without it every entity was read and its
-- name and aliases searched: 130 ms at 67,000 entities, more than the rest of an answer.
-- Aliases are spellings of the same identity (case, punctuation, spacing: "ACME Corp." for
-- "Acme Corp"), so the canonical name's first word stands for theirs.
CREATE INDEX entities_name ON entities(lower(canonical_name));
