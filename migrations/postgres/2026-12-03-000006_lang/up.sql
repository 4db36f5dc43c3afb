-- The language a player chose for the pages and mails (en, fr); none: the browser's.
ALTER TABLE users ADD COLUMN lang TEXT;
