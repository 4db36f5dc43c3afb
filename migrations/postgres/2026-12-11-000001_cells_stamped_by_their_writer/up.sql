-- A writer of many cells at once (a bot's chunk taking the cells its companies entered) moves
-- the world's cells_version once and stamps its cells with it: the row's own stamp, which
-- moved the world's row for each cell, is left out when the writer gave the cell a version.
-- The world's row is still moved, and locked, before the cells are written.
DROP TRIGGER cells_changed ON cells;
CREATE TRIGGER cells_changed BEFORE UPDATE OF terrain, town_id, owner_id, structure, castle_id, siege_builds, siege_structure ON cells
    FOR EACH ROW WHEN (NEW.version IS NOT DISTINCT FROM OLD.version) EXECUTE FUNCTION cell_stamped();
