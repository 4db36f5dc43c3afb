-- Castles (docs/rules.md §10): a named group of a world's cells.
CREATE TABLE castles (
    id SERIAL PRIMARY KEY,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    UNIQUE (world_id, name)
);
ALTER TABLE cells ADD COLUMN castle_id INTEGER REFERENCES castles (id);
