DROP TABLE nation_turns;
ALTER TABLE worlds DROP COLUMN victory_towns_share;
ALTER TABLE worlds DROP COLUMN victory_end_turn;
ALTER TABLE worlds DROP COLUMN victory_points;
ALTER TABLE worlds DROP COLUMN winner_id;
ALTER TABLE worlds DROP COLUMN ended_reason;
ALTER TABLE worlds DROP COLUMN ended_turn;
ALTER TABLE nations DROP COLUMN points;
