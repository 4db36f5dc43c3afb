DROP TRIGGER cells_changed ON cells;
DROP FUNCTION cell_stamped();
CREATE TRIGGER cells_changed AFTER UPDATE ON cells
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION cells_changed();
DROP INDEX cells_by_version;
ALTER TABLE cells DROP COLUMN version;
