-- Each turn's dice come from a seed of their own: while the turn runs only its commitment
-- (SHA-256 of the seed's decimal text) is published; when the turn ends the seed is kept
-- here and revealed, so that past battles replay and coming rolls cannot be predicted.
CREATE TABLE dice_seeds (
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    PRIMARY KEY (world_id, turn)
);
