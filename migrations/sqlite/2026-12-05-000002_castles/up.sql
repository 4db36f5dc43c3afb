-- Castles (docs/rules.md §10): a named group of a world's cells. (SQLite keeps the cell's
-- castle without a foreign key, so that the column can be dropped again.)
CREATE TABLE castles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    UNIQUE (world_id, name)
);
ALTER TABLE cells ADD COLUMN castle_id INTEGER;
-- A siege tower on a cell: the build actions done, and its structure once finished.
ALTER TABLE cells ADD COLUMN siege_builds INTEGER;
ALTER TABLE cells ADD COLUMN siege_structure INTEGER;
-- A change of castle or siege tower is a change of the cell: the copies kept in memory read it.
DROP TRIGGER cells_changed;
CREATE TRIGGER cells_changed AFTER UPDATE OF terrain, town_id, owner_id, structure, castle_id, siege_builds, siege_structure ON cells
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1 WHERE id = NEW.world_id;
    UPDATE cells SET version = (SELECT cells_version FROM worlds WHERE id = NEW.world_id)
    WHERE world_id = NEW.world_id AND x = NEW.x AND y = NEW.y;
END;
-- A castle's sections (towers, gates, runs of wall, quarters of courtyard), derived from its
-- cells; the nation holding each as the last turn found it.
CREATE TABLE castle_sections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    castle_id INTEGER NOT NULL REFERENCES castles (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    holder_id INTEGER
);
CREATE INDEX castle_sections_world ON castle_sections (world_id);
ALTER TABLE cells ADD COLUMN section_id INTEGER;
CREATE INDEX cells_sections ON cells (world_id, section_id) WHERE section_id IS NOT NULL;
