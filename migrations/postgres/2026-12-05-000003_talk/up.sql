-- What players say to each other in a world: private messages (`to_user_id`), their nation's
-- board (`nation_id`) and the game masters' announcements (neither). `channel` names the
-- conversation, so that reading one page of it is one range of one index: `n<nation>` for a
-- board, `p<lower user>-<higher user>` for two players, `world` for announcements.
CREATE TABLE messages (
    id SERIAL PRIMARY KEY,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    channel TEXT NOT NULL,
    from_user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    to_user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
    nation_id INTEGER REFERENCES nations (id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    at BIGINT NOT NULL,
    read_at BIGINT,
    -- Removed by a game master: kept for the reports made on it, shown to nobody.
    removed_at BIGINT
);
CREATE INDEX messages_channel ON messages (world_id, channel, id);
CREATE INDEX messages_to ON messages (to_user_id, world_id, id);
CREATE INDEX messages_from ON messages (from_user_id, world_id, id);
CREATE INDEX messages_at ON messages (at);
-- A player's report of a message to the game masters: open until a game master settles it.
CREATE TABLE message_reports (
    id SERIAL PRIMARY KEY,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL,
    settled_at BIGINT,
    settled_by INTEGER REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX message_reports_once ON message_reports (message_id, reporter_id);
CREATE INDEX message_reports_open ON message_reports (world_id, settled_at, id);
-- Players a player no longer hears from, in one world.
CREATE TABLE blocks (
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    at BIGINT NOT NULL,
    PRIMARY KEY (world_id, user_id, blocked_id)
);
-- A label a player drops on a cell for their nation; gone after `expires_turn`.
CREATE TABLE markers (
    id SERIAL PRIMARY KEY,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    nation_id INTEGER NOT NULL REFERENCES nations (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    label TEXT NOT NULL,
    at BIGINT NOT NULL,
    expires_turn INTEGER NOT NULL
);
CREATE INDEX markers_nation ON markers (world_id, nation_id, expires_turn);
CREATE INDEX markers_user ON markers (user_id, world_id);
-- A player muted by a game master writes nothing until then.
ALTER TABLE players ADD COLUMN muted_until BIGINT;
-- Private messages not yet read, for the header's badge.
ALTER TABLE users ADD COLUMN unread_messages INTEGER NOT NULL DEFAULT 0;
