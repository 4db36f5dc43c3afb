-- A version of each world's cells, so that a server can keep the cells in memory and know
-- when its copy is stale. It starts at a random number (two databases never share a
-- (world, version) pair) and any change to a cell moves it on, through triggers, whoever
-- makes the change.
ALTER TABLE worlds ADD COLUMN cells_version BIGINT NOT NULL
    DEFAULT (floor(random() * 1000000000000000))::BIGINT;

CREATE FUNCTION cells_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE worlds SET cells_version = cells_version + 1
    WHERE id IN (SELECT DISTINCT world_id FROM changed);
    RETURN NULL;
END
$$;

CREATE TRIGGER cells_changed AFTER UPDATE ON cells
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION cells_changed();

CREATE TRIGGER cells_removed AFTER DELETE ON cells
    REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION cells_changed();
