ALTER TABLE companies DROP COLUMN rng_pos;
