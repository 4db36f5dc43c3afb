-- A sentence kept as message keys and values, said in each reader's language; '' for rows
-- written before (their English summary is shown).
ALTER TABLE events ADD COLUMN said TEXT NOT NULL DEFAULT '';
ALTER TABLE alerts ADD COLUMN said TEXT NOT NULL DEFAULT '';
