-- Castles (docs/rules.md §10): a named group of a world's cells. (SQLite keeps the cell's
-- castle without a foreign key, so that the column can be dropped again.)
CREATE TABLE castles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    UNIQUE (world_id, name)
);
ALTER TABLE cells ADD COLUMN castle_id INTEGER;
