DROP TRIGGER cells_removed;
DROP TRIGGER cells_changed;
DROP TRIGGER worlds_cells_version_start;
ALTER TABLE worlds DROP COLUMN cells_version;
