-- The steps of a new player's first day already taken, one bit each: looked into the fog (1),
-- read a report (2), raised a company (8), moved (16), fired a volley (32); 4 once the whole
-- checklist is done. Players who gave orders before the checklist have them ticked.
ALTER TABLE players ADD COLUMN first_steps INTEGER NOT NULL DEFAULT 0;
UPDATE players SET first_steps = first_steps
  + CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.world_id = players.world_id
      AND e.actor_user_id = players.user_id AND e.kind = 'raise') THEN 8 ELSE 0 END
  + CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.world_id = players.world_id
      AND e.actor_user_id = players.user_id AND e.kind = 'move') THEN 16 ELSE 0 END
  + CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.world_id = players.world_id
      AND e.actor_user_id = players.user_id AND e.kind = 'volley') THEN 32 ELSE 0 END;
