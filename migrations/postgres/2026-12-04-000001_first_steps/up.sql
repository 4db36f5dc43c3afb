-- The steps of a new player's first day already taken that leave no other trace: looked into
-- the fog (1), read a report (2); 4 once the whole checklist is done.
ALTER TABLE players ADD COLUMN first_steps INTEGER NOT NULL DEFAULT 0;
