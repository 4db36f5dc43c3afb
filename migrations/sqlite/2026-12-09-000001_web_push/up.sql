-- Web Push (RFC 8030/8291/8292). The server's VAPID key pair: one row, made by the first
-- process that needs it, replaced by `grognard push-key rotate` (which ends every subscription).
CREATE TABLE push_keys (
    id INTEGER PRIMARY KEY,
    private_key TEXT NOT NULL,
    public_key TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
-- A browser of a player that takes pushes: its push service's endpoint and its keys. One
-- answered 404 or 410 by its push service is gone and deleted.
CREATE TABLE push_subscriptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    last_error TEXT
);
CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id);
-- A delivery goes to a webhook or to a subscription.
ALTER TABLE deliveries ADD COLUMN subscription_id INTEGER REFERENCES push_subscriptions (id) ON DELETE CASCADE;
CREATE INDEX deliveries_by_subscription ON deliveries (subscription_id);
-- The push that reached a player's daily cap says that the rest of the day waits on the site.
ALTER TABLE deliveries ADD COLUMN last_of_day BOOLEAN NOT NULL DEFAULT FALSE;
-- What a player wants pushed beyond the alerts, and when not: reminders, quiet hours (minutes
-- of the day at the player's UTC offset), at most `daily_cap` pushes a local day (`day`,
-- `sent`), the rest collapsed into one.
CREATE TABLE push_settings (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    full_ap BOOLEAN NOT NULL DEFAULT FALSE,
    turn_unspent BOOLEAN NOT NULL DEFAULT FALSE,
    section_lost BOOLEAN NOT NULL DEFAULT FALSE,
    board BOOLEAN NOT NULL DEFAULT FALSE,
    quiet_from INTEGER,
    quiet_to INTEGER,
    utc_offset INTEGER NOT NULL DEFAULT 0,
    daily_cap INTEGER NOT NULL DEFAULT 20,
    day BIGINT NOT NULL DEFAULT 0,
    sent INTEGER NOT NULL DEFAULT 0
);
-- Alerts told once per player and turn: the turn near, and the reminder of action points it
-- would waste.
DROP INDEX alerts_turn_once;
CREATE UNIQUE INDEX alerts_turn_once ON alerts (user_id, world_id, kind, at)
    WHERE kind IN ('turn_soon', 'turn_unspent');
