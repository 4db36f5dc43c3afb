DROP TABLE push_settings;
ALTER TABLE deliveries DROP COLUMN last_of_day;
ALTER TABLE deliveries DROP COLUMN subscription_id;
DROP TABLE push_subscriptions;
DROP TABLE push_keys;
