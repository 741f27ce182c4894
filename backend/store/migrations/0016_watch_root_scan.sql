-- 0016: a watched folder being registered by the process that added it says so, under a lease
-- that process renews, so that no Strata process reconciles the folder at the same time: the
-- watcher's reconcile of a new folder raced the add's own registration and registered most of a
-- 5,000-file folder a second time. A NULL or expired lease means nobody is scanning it.
ALTER TABLE watch_roots ADD COLUMN scanning_until TEXT;
