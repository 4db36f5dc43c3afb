-- Each company draws its dice from its own stream of the world's seeded generator (the
-- company's id picks the stream), so that orders no longer all write the world's row.
ALTER TABLE companies ADD COLUMN rng_pos BIGINT NOT NULL DEFAULT 0;
