DROP TRIGGER cells_changed;
CREATE TRIGGER cells_changed AFTER UPDATE ON cells
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1 WHERE id = NEW.world_id;
END;
DROP INDEX cells_by_version;
ALTER TABLE cells DROP COLUMN version;
