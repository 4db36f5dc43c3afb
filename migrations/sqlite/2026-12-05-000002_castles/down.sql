ALTER TABLE cells DROP COLUMN castle_id;
DROP TABLE castles;
