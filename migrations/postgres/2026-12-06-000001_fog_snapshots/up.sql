-- The rankings as the last turn left them (docs/decisions.md, "Rankings"): each player's
-- scores and nation's points copied by the turn, so that nothing an order does between turns
-- shows in anyone's rankings. `ranked_turn` is the turn that wrote them; none until the first
-- turn after the player joined.
ALTER TABLE players ADD COLUMN ranked_turn INTEGER;
ALTER TABLE players ADD COLUMN ranked_inflicted BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN ranked_lost BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN ranked_captures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN ranked_xp BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN ranked_turns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN ranked_points BIGINT NOT NULL DEFAULT 0;
-- Worlds already running keep the rankings they showed until their next turn.
UPDATE players SET ranked_turn = (SELECT w.turn FROM worlds w WHERE w.id = players.world_id),
    ranked_inflicted = inflicted, ranked_lost = lost, ranked_captures = captures,
    ranked_xp = xp, ranked_turns = turns_played,
    ranked_points = (SELECT n.points FROM nations n WHERE n.id = players.nation_id);
-- The nations that saw, when the turn was applied, a company of a section's holder on the
-- section: they, and the holder, are told who holds it (docs/decisions.md, "Castles").
CREATE TABLE section_sightings (
    section_id INTEGER NOT NULL REFERENCES castle_sections (id) ON DELETE CASCADE,
    nation_id INTEGER NOT NULL REFERENCES nations (id) ON DELETE CASCADE,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    PRIMARY KEY (section_id, nation_id)
);
CREATE INDEX section_sightings_world ON section_sightings (world_id);
