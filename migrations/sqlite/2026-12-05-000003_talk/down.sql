ALTER TABLE users DROP COLUMN unread_messages;
ALTER TABLE players DROP COLUMN muted_until;
DROP TABLE markers;
DROP TABLE blocks;
DROP TABLE message_reports;
DROP TABLE messages;
