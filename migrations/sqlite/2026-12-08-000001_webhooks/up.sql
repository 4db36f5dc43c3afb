-- Where a player's alerts also go: an incoming webhook (Discord, Slack, Matrix). One failing
-- `[push] webhook_failures` times in a row is turned off (`disabled_at`) and its player told.
CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    disabled_at BIGINT,
    last_error TEXT
);
CREATE INDEX webhooks_by_user ON webhooks (user_id);
-- The outbox: one row per alert and place it goes, written in the alert's transaction, claimed
-- by one process at a time (until `claimed_until`), deleted once delivered or given up.
CREATE TABLE deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    alert_id INTEGER NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    webhook_id INTEGER REFERENCES webhooks (id) ON DELETE CASCADE,
    due_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    claimed_until BIGINT,
    -- Sent with the delivery (random: an id would count every player's deliveries).
    key TEXT NOT NULL
);
CREATE INDEX deliveries_due ON deliveries (due_at);
CREATE INDEX deliveries_by_webhook ON deliveries (webhook_id);
