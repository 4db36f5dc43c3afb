-- A player on leave: their companies are frozen until this instant (RULES: vacation).
ALTER TABLE players ADD COLUMN leave_until BIGINT;
