-- What a player is told while away: on the site (unread until the list is seen) and, when they
-- ask for it, by e-mail at most once an hour.
CREATE TABLE alerts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    event_id INTEGER,
    kind TEXT NOT NULL,
    summary TEXT NOT NULL,
    at BIGINT NOT NULL,
    read_at BIGINT,
    mailed_at BIGINT
);
CREATE INDEX alerts_user ON alerts (user_id, id);
-- One "turn soon" alert per player and turn, whichever server process finds it due.
CREATE UNIQUE INDEX alerts_turn_once ON alerts (user_id, world_id, at) WHERE kind = 'turn_soon';
ALTER TABLE users ADD COLUMN unread_alerts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN email TEXT;
ALTER TABLE users ADD COLUMN alert_mail BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN last_mail_at BIGINT;
ALTER TABLE users ADD COLUMN unsubscribe_token TEXT;
