DROP TRIGGER cells_removed ON cells;
DROP TRIGGER cells_changed ON cells;
DROP FUNCTION cells_changed();
ALTER TABLE worlds DROP COLUMN cells_version;
