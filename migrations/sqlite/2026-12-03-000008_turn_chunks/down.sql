DROP INDEX ticks_pending;
ALTER TABLE ticks DROP COLUMN companies_last;
ALTER TABLE ticks DROP COLUMN companies_through;
ALTER TABLE ticks DROP COLUMN pending;
