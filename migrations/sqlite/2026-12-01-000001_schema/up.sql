-- The whole schema of DESIGN.md §3. Times are UNIX seconds (BIGINT) on both backends.

CREATE TABLE worlds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    turn INTEGER NOT NULL DEFAULT 0,
    season TEXT NOT NULL CHECK (season IN ('summer', 'winter')),
    paused BOOLEAN NOT NULL DEFAULT 0,
    rng_seed BIGINT NOT NULL,
    rng_word_pos BIGINT NOT NULL DEFAULT 0,
    schedule_anchor BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE nations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    spawn_x INTEGER NOT NULL,
    spawn_y INTEGER NOT NULL,
    treasury BIGINT NOT NULL DEFAULT 0,
    UNIQUE (world_id, name)
);

CREATE TABLE towns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    owner_id INTEGER REFERENCES nations (id),
    UNIQUE (world_id, name)
);

CREATE TABLE cells (
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    terrain TEXT NOT NULL,
    town_id INTEGER REFERENCES towns (id),
    owner_id INTEGER REFERENCES nations (id),
    structure INTEGER,
    PRIMARY KEY (world_id, x, y)
);
CREATE INDEX cells_town ON cells (town_id);
CREATE INDEX cells_owner ON cells (world_id, owner_id);

CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('player', 'gm', 'admin')),
    banned BOOLEAN NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    last_login_at BIGINT,
    previous_login_at BIGINT
);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

CREATE TABLE login_failures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bucket TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX login_failures_key ON login_failures (bucket, at);

CREATE TABLE regiments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    nation_id INTEGER NOT NULL REFERENCES nations (id),
    name TEXT NOT NULL,
    hq_x INTEGER,
    hq_y INTEGER,
    created_at BIGINT NOT NULL,
    UNIQUE (world_id, name)
);

CREATE TABLE players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    nation_id INTEGER NOT NULL REFERENCES nations (id),
    reserve INTEGER NOT NULL DEFAULT 0,
    regiment_id INTEGER REFERENCES regiments (id) ON DELETE SET NULL,
    joined_at BIGINT NOT NULL,
    UNIQUE (world_id, user_id)
);
CREATE INDEX players_nation ON players (nation_id);

CREATE TABLE companies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    men INTEGER NOT NULL CHECK (men >= 0),
    wounded INTEGER NOT NULL DEFAULT 0 CHECK (wounded >= 0),
    ap INTEGER NOT NULL CHECK (ap >= 0),
    morale INTEGER NOT NULL,
    xp INTEGER NOT NULL DEFAULT 0,
    volley_recency INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (world_id, x, y)
);
CREATE INDEX companies_player ON companies (player_id);

CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    at BIGINT NOT NULL,
    kind TEXT NOT NULL,
    actor_user_id INTEGER,
    target_user_id INTEGER,
    nation_id INTEGER,
    other_nation_id INTEGER,
    company_id INTEGER,
    target_company_id INTEGER,
    x INTEGER,
    y INTEGER,
    summary TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX events_world ON events (world_id, id);

CREATE TABLE ticks (
    world_id INTEGER NOT NULL REFERENCES worlds (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('turn', 'season')),
    scheduled_for BIGINT NOT NULL,
    applied_at BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL DEFAULT 0,
    rows_touched BIGINT NOT NULL DEFAULT 0,
    manual BOOLEAN NOT NULL DEFAULT 0,
    PRIMARY KEY (world_id, kind, scheduled_for)
);

CREATE TABLE gm_audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    world_id INTEGER REFERENCES worlds (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id),
    at BIGINT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    x INTEGER,
    y INTEGER,
    old_value TEXT,
    new_value TEXT,
    batch TEXT
);
CREATE INDEX gm_audit_world ON gm_audit (world_id, id);
