-- Back to blocks per world: each account's block is written in every world both players share.
CREATE TABLE world_blocks (
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    at BIGINT NOT NULL,
    PRIMARY KEY (world_id, user_id, blocked_id)
);
INSERT INTO world_blocks (world_id, user_id, blocked_id, at)
    SELECT p.world_id, b.user_id, b.blocked_id, b.at
    FROM blocks b
    JOIN players p ON p.user_id = b.user_id
    JOIN players q ON q.user_id = b.blocked_id AND q.world_id = p.world_id;
DROP TABLE blocks;
ALTER TABLE world_blocks RENAME TO blocks;
