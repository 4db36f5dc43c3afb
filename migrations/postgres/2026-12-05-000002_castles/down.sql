DROP INDEX cells_sections;
ALTER TABLE cells DROP COLUMN section_id;
DROP TABLE castle_sections;
DROP TRIGGER cells_changed ON cells;
CREATE TRIGGER cells_changed BEFORE UPDATE OF terrain, town_id, owner_id, structure ON cells
    FOR EACH ROW EXECUTE FUNCTION cell_stamped();
ALTER TABLE cells DROP COLUMN siege_structure;
ALTER TABLE cells DROP COLUMN siege_builds;
ALTER TABLE cells DROP COLUMN castle_id;
DROP TABLE castles;
