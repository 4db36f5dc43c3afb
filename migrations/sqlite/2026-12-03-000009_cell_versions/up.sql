-- Each cell keeps the world's cells_version its last change moved the world to, so that a
-- server holding the world's cells in memory reads only the cells changed since its copy,
-- not the whole world again.
ALTER TABLE cells ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
CREATE INDEX cells_by_version ON cells (world_id, version);

DROP TRIGGER cells_changed;
CREATE TRIGGER cells_changed AFTER UPDATE OF terrain, town_id, owner_id, structure ON cells
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1 WHERE id = NEW.world_id;
    UPDATE cells SET version = (SELECT cells_version FROM worlds WHERE id = NEW.world_id)
    WHERE world_id = NEW.world_id AND x = NEW.x AND y = NEW.y;
END;
