-- Two foreign keys that a bot's chunk of orders (some 200 events and 60 cells taken in one
-- statement each) checked row by row, a third of those statements' time: an event's world
-- and a cell's owner. Each is now checked once a statement, over the statement's rows, and
-- locks the rows it refers to as the key did (FOR KEY SHARE), so a world or a nation cannot
-- go while a transaction writes for it. What the keys did when the row referred to goes is
-- done by triggers too: a world's events go with it; a nation that owns cells stays, checked
-- at the commit (a world's deletion takes its nations and cells in one go).

ALTER TABLE events DROP CONSTRAINT events_world_id_fkey;

CREATE FUNCTION events_world_checked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT COUNT(*) FROM (SELECT 1 FROM worlds w WHERE w.id IN (SELECT world_id FROM written) FOR KEY SHARE) l)
        <> (SELECT COUNT(DISTINCT world_id) FROM written) THEN
        RAISE EXCEPTION 'insert or update on table "events" refers to a world that does not exist'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER events_world_added AFTER INSERT ON events
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION events_world_checked();
CREATE TRIGGER events_world_changed AFTER UPDATE ON events
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION events_world_checked();

CREATE FUNCTION worlds_events_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM events e USING removed r WHERE e.world_id = r.id;
    RETURN NULL;
END $$;
CREATE TRIGGER worlds_events_removed AFTER DELETE ON worlds
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION worlds_events_removed();

ALTER TABLE cells DROP CONSTRAINT cells_owner_id_fkey;

CREATE FUNCTION cells_owner_checked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT COUNT(*) FROM (SELECT 1 FROM nations n WHERE n.id IN (SELECT owner_id FROM written) FOR KEY SHARE) l)
        <> (SELECT COUNT(DISTINCT owner_id) FROM written) THEN
        RAISE EXCEPTION 'insert or update on table "cells" refers to a nation that does not exist'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER cells_owner_added AFTER INSERT ON cells
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION cells_owner_checked();
CREATE TRIGGER cells_owner_changed AFTER UPDATE ON cells
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION cells_owner_checked();

CREATE FUNCTION nations_owning_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM cells c WHERE c.world_id = OLD.world_id AND c.owner_id = OLD.id) THEN
        RAISE EXCEPTION 'nation % still owns cells', OLD.id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER nations_owning_removed AFTER DELETE ON nations
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION nations_owning_kept();
CREATE CONSTRAINT TRIGGER nations_owning_renumbered AFTER UPDATE OF id ON nations
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION nations_owning_kept();

CREATE FUNCTION worlds_events_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM events e WHERE e.world_id = OLD.id) THEN
        RAISE EXCEPTION 'world % still has events', OLD.id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER worlds_events_renumbered AFTER UPDATE OF id ON worlds
    FOR EACH ROW WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION worlds_events_kept();
