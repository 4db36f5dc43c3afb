DROP TRIGGER cells_changed ON cells;
CREATE TRIGGER cells_changed BEFORE UPDATE OF terrain, town_id, owner_id, structure, castle_id, siege_builds, siege_structure ON cells
    FOR EACH ROW EXECUTE FUNCTION cell_stamped();
