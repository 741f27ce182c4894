-- 0006: the vector index's coarse quantizer, persisted. Derived data (DESIGN.md invariant 1):
-- the embeddings table stays the truth and every row here can be dropped and rebuilt from it.
-- A process opening the folder cold reads the layout (a few hundred KB of centroids) and then
-- only the blocks of the partitions its first query probes; the rest load in the background.

-- One layout per space: the centroids the vectors were partitioned by, how many vectors each
-- partition held, and the embeddings/embedding_deletes watermarks the blocks are exact at (rows
-- after them are tailed from the embeddings table, as before).
CREATE TABLE vector_layouts (
    space       TEXT PRIMARY KEY,
    dims        INTEGER NOT NULL,
    trained_n   INTEGER NOT NULL,   -- vectors the centroids were trained on (re-train when doubled)
    adds_wm     INTEGER NOT NULL,
    deletes_wm  INTEGER NOT NULL,
    centroids   BLOB NOT NULL,      -- parts × dims little-endian float32
    sizes       BLOB NOT NULL       -- parts × little-endian int32
);

-- One row per partition: its chunk rowids and vectors packed into two blobs, written in one go so
-- that a partition is read as a short run of pages rather than one random page per vector.
CREATE TABLE vector_blocks (
    space       TEXT NOT NULL,
    part        INTEGER NOT NULL,
    rowids      BLOB NOT NULL,      -- n × little-endian int64, ascending
    vectors     BLOB NOT NULL,      -- n × dims little-endian float32, in rowid order
    PRIMARY KEY (space, part)
);
