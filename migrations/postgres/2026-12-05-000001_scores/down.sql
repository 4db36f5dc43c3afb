DROP TABLE campaign_maps;
DROP INDEX worlds_follows;
ALTER TABLE worlds DROP COLUMN follows_id;
ALTER TABLE players DROP COLUMN played_turn;
ALTER TABLE players DROP COLUMN turns_played;
ALTER TABLE players DROP COLUMN xp;
ALTER TABLE players DROP COLUMN captures;
ALTER TABLE players DROP COLUMN lost;
ALTER TABLE players DROP COLUMN inflicted;
