-- A world's grid (docs/rules.md §12): `square` or `hex` (pointy-top, odd rows shifted right).
ALTER TABLE worlds ADD COLUMN grid TEXT NOT NULL DEFAULT 'square';
-- Features of cell sides, each edge under its one name: N or E on a square grid, E, NE or NW
-- on a hex grid, of the cell whose side it is.
CREATE TABLE edges (
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    side TEXT NOT NULL,
    feature TEXT NOT NULL,
    PRIMARY KEY (world_id, x, y, side)
);
