DROP TRIGGER cells_changed;
CREATE TRIGGER cells_changed AFTER UPDATE OF terrain, town_id, owner_id, structure, castle_id, siege_builds, siege_structure ON cells
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1 WHERE id = NEW.world_id;
    UPDATE cells SET version = (SELECT cells_version FROM worlds WHERE id = NEW.world_id)
    WHERE world_id = NEW.world_id AND x = NEW.x AND y = NEW.y;
END;
