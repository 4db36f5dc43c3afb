-- A block follows the account into every world: someone a player blocked in one world must
-- not reach them in another. A block made in several worlds becomes one, from its first day.
-- (Mutes stay per world, on `players`: a game master's, for the world they moderate.)
CREATE TABLE account_blocks (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    at BIGINT NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
INSERT INTO account_blocks (user_id, blocked_id, at)
    SELECT user_id, blocked_id, MIN(at) FROM blocks GROUP BY user_id, blocked_id;
DROP TABLE blocks;
ALTER TABLE account_blocks RENAME TO blocks;
-- Badges lit by messages of authors already blocked go out: the count leaves them out now.
UPDATE users SET unread_messages = (
    SELECT CAST(COUNT(*) AS INTEGER) FROM messages m
    WHERE m.to_user_id = users.id AND m.read_at IS NULL AND m.removed_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM blocks b
                      WHERE b.user_id = users.id AND b.blocked_id = m.from_user_id))
WHERE unread_messages > 0;
