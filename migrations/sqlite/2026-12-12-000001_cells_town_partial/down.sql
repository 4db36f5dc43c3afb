DROP INDEX cells_town;
CREATE INDEX cells_town ON cells (town_id);
