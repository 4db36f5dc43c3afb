-- A world is a campaign (docs/rules.md §11): the points its nations gain each turn, the
-- turn it ended and its winner (none on a draw), and its own victory settings when it has
-- them (NULL: the ruleset's).
ALTER TABLE nations ADD COLUMN points BIGINT NOT NULL DEFAULT 0;
ALTER TABLE worlds ADD COLUMN ended_turn INTEGER;
ALTER TABLE worlds ADD COLUMN ended_reason TEXT;
ALTER TABLE worlds ADD COLUMN winner_id INTEGER;
ALTER TABLE worlds ADD COLUMN victory_points BIGINT;
ALTER TABLE worlds ADD COLUMN victory_end_turn INTEGER;
ALTER TABLE worlds ADD COLUMN victory_towns_share DOUBLE PRECISION;
-- One row per nation per turn, written by the turn: the campaign drawn as curves.
CREATE TABLE nation_turns (
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    nation_id INTEGER NOT NULL REFERENCES nations (id) ON DELETE CASCADE,
    points BIGINT NOT NULL,
    towns BIGINT NOT NULL,
    mines BIGINT NOT NULL,
    sections BIGINT NOT NULL,
    companies BIGINT NOT NULL,
    men BIGINT NOT NULL,
    PRIMARY KEY (world_id, turn, nation_id)
);
