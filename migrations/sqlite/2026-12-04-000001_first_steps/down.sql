ALTER TABLE players DROP COLUMN first_steps;
