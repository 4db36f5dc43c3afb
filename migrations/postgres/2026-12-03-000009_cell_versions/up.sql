-- Each cell keeps the world's cells_version its last change moved the world to, so that a
-- server holding the world's cells in memory reads only the cells changed since its copy,
-- not the whole world again. The world's row is moved on row by row, before each cell is
-- written: its lock orders concurrent writers, so a later version is never committed with
-- an earlier stamp.
ALTER TABLE cells ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
CREATE INDEX cells_by_version ON cells (world_id, version);

DROP TRIGGER cells_changed ON cells;

CREATE FUNCTION cell_stamped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1 WHERE id = NEW.world_id
    RETURNING cells_version INTO NEW.version;
    RETURN NEW;
END
$$;

CREATE TRIGGER cells_changed BEFORE UPDATE OF terrain, town_id, owner_id, structure ON cells
    FOR EACH ROW EXECUTE FUNCTION cell_stamped();
