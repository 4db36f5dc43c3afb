-- Bots (docs/rules.md §13): a player of a nation played by the server. Its account is marked
-- `bot` (no one logs into it); the row here seats it, and says how far it has played the
-- world's turn: `turn` is the turn whose orders it has begun, `last_company` the last company it
-- ordered in it, `done` that it has finished it. Each chunk of orders moves `last_company` in its
-- own transaction, so a stopped process leaves nothing ordered twice. Removing a bot deletes
-- this row: its player and companies stay, and give no more orders.
CREATE TABLE bots (
    player_id INTEGER PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    level TEXT NOT NULL,
    turn INTEGER NOT NULL DEFAULT -1,
    last_company INTEGER NOT NULL DEFAULT 0,
    done BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL
);
CREATE INDEX bots_by_world ON bots (world_id);
ALTER TABLE users ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
-- Opt-in: while the player gives no order for `[bots] away_turns` turns, the nation's bot
-- holds their companies (it defends, heals and falls back; it never spends the treasury).
ALTER TABLE users ADD COLUMN hand_to_bot BOOLEAN NOT NULL DEFAULT FALSE;
