-- Cells are looked up by version only for those changed since a version, and a changed cell's
-- version is never 0 (stamps start above the world's first cells_version, which is not
-- negative): the index keeps the changed cells alone. It held an entry for every cell, and
-- each first capture of one moved its entry out of the middle of the world's version-0
-- entries, a page of the index the chunk had not touched yet: on SQLite a bots' walking turn
-- wrote a third more pages to its log for it.
DROP INDEX cells_by_version;
CREATE INDEX cells_by_version ON cells (world_id, version) WHERE version > 0;
