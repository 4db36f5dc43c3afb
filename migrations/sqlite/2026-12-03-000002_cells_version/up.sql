-- A version of each world's cells, so that a server can keep the cells in memory and know
-- when its copy is stale. It starts at a random number (two databases never share a
-- (world, version) pair) and any change to a cell moves it on, through triggers, whoever
-- makes the change.
ALTER TABLE worlds ADD COLUMN cells_version BIGINT NOT NULL DEFAULT 0;
UPDATE worlds SET cells_version = abs(random() % 1000000000000000);

CREATE TRIGGER worlds_cells_version_start AFTER INSERT ON worlds
BEGIN
    UPDATE worlds SET cells_version = abs(random() % 1000000000000000) WHERE id = NEW.id;
END;

CREATE TRIGGER cells_changed AFTER UPDATE ON cells
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1 WHERE id = NEW.world_id;
END;

CREATE TRIGGER cells_removed AFTER DELETE ON cells
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1 WHERE id = OLD.world_id;
END;
