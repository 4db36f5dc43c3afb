DROP TABLE alerts;
ALTER TABLE users DROP COLUMN unread_alerts;
ALTER TABLE users DROP COLUMN email;
ALTER TABLE users DROP COLUMN alert_mail;
ALTER TABLE users DROP COLUMN last_mail_at;
ALTER TABLE users DROP COLUMN unsubscribe_token;
