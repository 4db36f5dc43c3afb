DROP INDEX alerts_turn_once;
CREATE UNIQUE INDEX alerts_turn_once ON alerts (user_id, world_id, at) WHERE kind = 'turn_soon';
DROP TABLE push_settings;
DROP INDEX deliveries_by_subscription;
-- SQLite drops no column that a foreign key names: the outbox is rebuilt without it.
CREATE TABLE deliveries_kept (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    alert_id INTEGER NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    webhook_id INTEGER REFERENCES webhooks (id) ON DELETE CASCADE,
    due_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    claimed_until BIGINT,
    key TEXT NOT NULL
);
INSERT INTO deliveries_kept
    SELECT id, alert_id, webhook_id, due_at, attempts, claimed_until, key
    FROM deliveries WHERE subscription_id IS NULL;
DROP TABLE deliveries;
ALTER TABLE deliveries_kept RENAME TO deliveries;
CREATE INDEX deliveries_due ON deliveries (due_at);
CREATE INDEX deliveries_by_webhook ON deliveries (webhook_id);
DROP TABLE push_subscriptions;
DROP TABLE push_keys;
