-- What happened that an open event stream may need to hear of, in commit order: written in the
-- transaction of the change itself, read by every server process (ids only: each process works
-- out from the tables what its own clients may see). A world-less row concerns one user in
-- every world (their messages' badge, their credentials).
CREATE TABLE live_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER,
    at BIGINT NOT NULL,
    topic TEXT NOT NULL,
    user_id INTEGER,
    ref_id INTEGER
);
