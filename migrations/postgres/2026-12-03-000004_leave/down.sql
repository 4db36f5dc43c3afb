ALTER TABLE players DROP COLUMN leave_until;
