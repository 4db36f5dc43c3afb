-- A writer of many cells at once (a bot's chunk taking the cells its companies entered) moves
-- the world's cells_version once and stamps its cells with it: the row's own stamp is left
-- out when the writer gave the cell a version.
DROP TRIGGER cells_changed;
CREATE TRIGGER cells_changed AFTER UPDATE OF terrain, town_id, owner_id, structure, castle_id, siege_builds, siege_structure ON cells
WHEN NEW.version = OLD.version
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1 WHERE id = NEW.world_id;
    UPDATE cells SET version = (SELECT cells_version FROM worlds WHERE id = NEW.world_id)
    WHERE world_id = NEW.world_id AND x = NEW.x AND y = NEW.y;
END;
