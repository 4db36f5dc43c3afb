DROP INDEX alerts_turn_once;
CREATE UNIQUE INDEX alerts_turn_once ON alerts (user_id, world_id, at) WHERE kind = 'turn_soon';
DROP TABLE push_settings;
DELETE FROM deliveries WHERE subscription_id IS NOT NULL;
ALTER TABLE deliveries DROP COLUMN last_of_day;
ALTER TABLE deliveries DROP COLUMN subscription_id;
DROP TABLE push_subscriptions;
DROP TABLE push_keys;
