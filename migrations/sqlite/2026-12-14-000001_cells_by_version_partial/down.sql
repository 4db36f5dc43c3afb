DROP INDEX cells_by_version;
CREATE INDEX cells_by_version ON cells (world_id, version);
