-- Each player's scores in its campaign (docs/rules.md §11), kept by the orders as they
-- happen: enemy men put out of action, own men lost, ground captured, experience gained, and
-- the turns in which the player gave an order (`played_turn`: the last such turn).
ALTER TABLE players ADD COLUMN inflicted BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN lost BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN captures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN xp BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN turns_played INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN played_turn INTEGER NOT NULL DEFAULT -1;
-- The campaign a world follows on the same map, and the map as drawn when the campaign
-- began, from which the next one starts.
ALTER TABLE worlds ADD COLUMN follows_id INTEGER;
-- One next campaign per campaign, however many game masters ask at once.
CREATE UNIQUE INDEX worlds_follows ON worlds (follows_id);
CREATE TABLE campaign_maps (
    world_id INTEGER PRIMARY KEY REFERENCES worlds (id) ON DELETE CASCADE,
    map TEXT NOT NULL
);
-- The turn counts each nation's mines and producing cells (points, output): with the terrain
-- in the index those counts read the index alone.
DROP INDEX cells_owner;
CREATE INDEX cells_owner ON cells (world_id, owner_id, terrain);
