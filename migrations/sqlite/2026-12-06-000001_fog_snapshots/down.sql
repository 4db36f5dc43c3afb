DROP TABLE section_sightings;
ALTER TABLE players DROP COLUMN ranked_points;
ALTER TABLE players DROP COLUMN ranked_turns;
ALTER TABLE players DROP COLUMN ranked_xp;
ALTER TABLE players DROP COLUMN ranked_captures;
ALTER TABLE players DROP COLUMN ranked_lost;
ALTER TABLE players DROP COLUMN ranked_inflicted;
ALTER TABLE players DROP COLUMN ranked_turn;
