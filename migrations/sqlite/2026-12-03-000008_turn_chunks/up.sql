-- A turn is applied to a world's companies in chunks, each its own transaction, so that
-- orders are not held for the whole turn. Its row is written first, `pending` until the
-- last chunk and the rest of the turn are applied; `companies_through` is the highest
-- company id that has had it, `companies_last` the highest it covers (those that existed
-- when it began).
ALTER TABLE ticks ADD COLUMN pending BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE ticks ADD COLUMN companies_through INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ticks ADD COLUMN companies_last INTEGER NOT NULL DEFAULT 0;
-- The scheduler looks for a pending turn of every world on every pass.
CREATE INDEX ticks_pending ON ticks (world_id, kind) WHERE pending;
