DROP INDEX cells_sections;
ALTER TABLE cells DROP COLUMN section_id;
DROP TABLE castle_sections;
DROP TRIGGER cells_changed;
CREATE TRIGGER cells_changed AFTER UPDATE OF terrain, town_id, owner_id, structure ON cells
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1 WHERE id = NEW.world_id;
    UPDATE cells SET version = (SELECT cells_version FROM worlds WHERE id = NEW.world_id)
    WHERE world_id = NEW.world_id AND x = NEW.x AND y = NEW.y;
END;
ALTER TABLE cells DROP COLUMN siege_structure;
ALTER TABLE cells DROP COLUMN siege_builds;
ALTER TABLE cells DROP COLUMN castle_id;
DROP TABLE castles;
