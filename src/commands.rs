//! What each CLI command does; `main.rs` only parses arguments and calls these.

use crate::config::Config;
use crate::db::{self, Pool};
use crate::game::{accounts, maps::worlds, GameError};
use crate::ids::WorldId;
use crate::web::{AppState, Application};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;

pub type CmdResult = Result<(), String>;

pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,actix_server=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
}

/// Opens the pool and brings the schema up to date.
pub fn open(config: &Config) -> Result<Pool, String> {
    let s = &config.settings.database;
    let pool = db::open_pool_waiting(&s.url, s.pool_size, s.busy_timeout_ms, s.pool_wait_ms)
        .map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| format!("database: {e}"))?;
    db::migrate(&mut conn).map_err(|e| e.to_string())?;
    // Made before any request: reading the key never writes.
    crate::game::news::push::vapid_key(&mut conn).map_err(game_err)?;
    Ok(pool)
}

/// Prints the VAPID public key, after replacing the pair when `rotate`.
pub fn push_key(config: &Config, rotate: bool) -> CmdResult {
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    use crate::game::news::push;
    if rotate {
        let (key, ended) = push::rotate_key(&mut conn).map_err(game_err)?;
        println!("{}", key.public_base64());
        eprintln!("{ended} subscription(s) ended; pages subscribe again on the next visit");
    } else {
        println!(
            "{}",
            push::vapid_key(&mut conn)
                .map_err(game_err)?
                .public_base64()
        );
    }
    Ok(())
}

fn game_err(e: GameError) -> String {
    e.to_string()
}

pub fn migrate(config: &Config) -> CmdResult {
    let s = &config.settings.database;
    let pool = db::open_pool(&s.url, 1, s.busy_timeout_ms).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| format!("database: {e}"))?;
    let n = db::migrate(&mut conn).map_err(|e| e.to_string())?;
    println!("{n} migration(s) applied");
    Ok(())
}

/// The demo map text: `config/worlds/demo.json` if present, else the shipped copy.
pub fn demo_text(config: &Config) -> String {
    std::fs::read_to_string(config.dir.join("worlds/demo.json"))
        .unwrap_or_else(|_| worlds::DEMO_MAP.to_string())
}

pub fn world_demo(config: &Config) -> CmdResult {
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let id = worlds::import_text(&mut conn, &config.rules, &demo_text(config), None)
        .map_err(game_err)?;
    demo_bot(&mut conn, config, id)?;
    println!("{id}");
    Ok(())
}

/// Seats the demo world's bot, unless `[demo] bot` is off.
fn demo_bot(conn: &mut db::DbConnection, config: &Config, world: WorldId) -> CmdResult {
    if config.settings.demo.bot {
        if let Some(b) = crate::game::bots::seat_demo(conn, world).map_err(game_err)? {
            tracing::info!(world = world.0, bot = %b.name, nation = %b.nation, "seated the demo bot");
        }
    }
    Ok(())
}

fn read_input(file: &str) -> Result<String, String> {
    if file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("reading stdin: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(file).map_err(|e| format!("reading {file}: {e}"))
    }
}

pub fn world_import(config: &Config, file: &str, name: Option<&str>) -> CmdResult {
    let text = read_input(file)?;
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let id = worlds::import_text(&mut conn, &config.rules, &text, name).map_err(game_err)?;
    println!("{id}");
    Ok(())
}

pub fn world_export(config: &Config, world_id: i32) -> CmdResult {
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let map = worlds::export(&mut conn, WorldId(world_id)).map_err(game_err)?;
    println!(
        "{}",
        serde_json::to_string_pretty(&map).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// `user add NAME --role R`, the password read from the first line of stdin.
pub fn user_add(config: &Config, name: &str, role: &str) -> CmdResult {
    let role = accounts::parse_role(role).map_err(game_err)?;
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| format!("reading the password: {e}"))?;
    let password = line.trim_end_matches(['\n', '\r']);
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let user = accounts::create_user(&mut conn, name, password, role).map_err(game_err)?;
    println!(
        "user {} ({}) created with id {}",
        user.username, user.role, user.id
    );
    Ok(())
}

/// `serve`: migrate, create the demo world on an empty database, start HTTP and the scheduler.
pub async fn serve(config: Config) -> CmdResult {
    init_logging();
    let pool = open(&config)?;
    {
        let mut conn = pool.get().map_err(|e| e.to_string())?;
        if let Some(id) =
            worlds::ensure_demo(&mut conn, &config.rules, &demo_text(&config)).map_err(game_err)?
        {
            tracing::info!(world = id.0, "created the demo world");
            demo_bot(&mut conn, &config, id)?;
            let hex = std::fs::read_to_string(config.dir.join("worlds/demo-hex.json"))
                .unwrap_or_else(|_| worlds::DEMO_HEX_MAP.to_string());
            if let Some(id) =
                worlds::ensure_hex_demo(&mut conn, &config.rules, &hex).map_err(game_err)?
            {
                tracing::info!(world = id.0, "created the hex demo world");
                demo_bot(&mut conn, &config, id)?;
            }
        }
    }
    let bind = config.settings.server.bind.clone();
    let listener = TcpListener::bind(&bind).map_err(|e| format!("cannot listen on {bind}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let config = Arc::new(config);
    let state =
        AppState::new(pool.clone(), config.clone()).map_err(|e| format!("templates: {e}"))?;
    let app = Application::build(state, listener).map_err(|e| e.to_string())?;
    let scheduler = crate::scheduler::start(pool.clone(), config.clone());
    let delivery = crate::delivery::start(pool, config.clone());
    println!("Grognard is serving on http://{addr}");
    let result = app.run_until_stopped().await.map_err(|e| e.to_string());
    scheduler.stop();
    delivery.stop();
    result
}

pub fn tick(config: &Config, world_id: i32, kind: &str) -> CmdResult {
    let kind = crate::game::time::ticks::parse_kind(kind).map_err(game_err)?;
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let out = crate::game::time::ticks::apply_now(
        &mut conn,
        &config.rules,
        WorldId(world_id),
        kind,
        None,
    )
    .map_err(game_err)?;
    println!(
        "{} tick applied to world {world_id}: turn {}, {} ({} rows, {} ms, orders held up to {} ms)",
        kind.as_str(),
        out.turn,
        out.season.map_or("-", |s| s.as_str()),
        out.rows,
        out.duration_ms,
        out.orders_held_ms
    );
    if kind == crate::game::time::ticks::TickKind::Turn {
        let played =
            crate::game::bots::play_world(&mut conn, &Arc::new(config.clone()), WorldId(world_id))
                .map_err(game_err)?;
        if played.bots > 0 {
            println!(
                "bots: {} played, {} raised, {} orders ({} refused)",
                played.bots, played.raised, played.orders, played.refused
            );
        }
    }
    Ok(())
}

/// `bot add WORLD NATION [--level L]`: prints the bot's name.
pub fn bot_add(config: &Config, world_id: i32, nation: &str, level: &str) -> CmdResult {
    let level = crate::game::bots::parse_level(level).map_err(game_err)?;
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let seated =
        crate::game::bots::seat(&mut conn, WorldId(world_id), nation, level).map_err(game_err)?;
    println!("{}", seated.name);
    Ok(())
}

/// `bot list WORLD`: one line per bot, `name nation level companies`.
pub fn bot_list(config: &Config, world_id: i32) -> CmdResult {
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    worlds::get(&mut conn, WorldId(world_id)).map_err(game_err)?;
    for b in crate::game::bots::list(&mut conn, WorldId(world_id)).map_err(game_err)? {
        println!(
            "{}\t{}\t{}\t{} companies",
            b.name, b.nation, b.level, b.companies
        );
    }
    Ok(())
}

/// `bot remove WORLD NAME`.
pub fn bot_remove(config: &Config, world_id: i32, name: &str) -> CmdResult {
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    crate::game::bots::unseat(&mut conn, WorldId(world_id), name).map_err(game_err)?;
    println!("bot {name} removed from world {world_id}");
    Ok(())
}

/// `simulate`: a campaign of bots on a throwaway database (docs/maps.md).
pub fn simulate(
    config: &Config,
    map: Option<&std::path::Path>,
    generate: Option<&str>,
    (nations, turns, seed, levels, runs, points): (usize, i32, u64, &str, usize, Option<i64>),
) -> CmdResult {
    use crate::game::bots::simulate::{self as sim, MapSource};
    let source = match (map, generate) {
        (Some(file), _) => MapSource::File(
            std::fs::read_to_string(file)
                .map_err(|e| format!("reading {}: {e}", file.display()))?,
        ),
        (None, Some(size)) => {
            let (w, h) = size
                .split_once(['x', 'X'])
                .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)))
                .ok_or_else(|| format!("--generate wants WIDTHxHEIGHT, not `{size}`"))?;
            MapSource::Generate {
                width: w,
                height: h,
            }
        }
        (None, None) => return Err("give --map FILE or --generate WxH".into()),
    };
    let levels = levels
        .split(',')
        .map(crate::game::bots::parse_level)
        .collect::<Result<Vec<_>, _>>()
        .map_err(game_err)?;
    let options = sim::Options {
        map: source,
        nations,
        turns,
        seed,
        levels,
        runs,
        points,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    sim::run(config, &options, &mut out).map_err(game_err)?;
    out.flush().map_err(|e| e.to_string())?;
    Ok(())
}

pub fn world_import_tiled(
    config: &Config,
    file: &std::path::Path,
    name: Option<&str>,
) -> CmdResult {
    let map = crate::game::maps::tiled_import::read_file(file, name).map_err(game_err)?;
    let valid = map.validate(&config.rules).map_err(|e| e.to_string())?;
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let id = worlds::import(&mut conn, &valid, None).map_err(game_err)?;
    println!("{id}");
    Ok(())
}

pub fn world_generate(config: &Config, opts: crate::game::maps::generate::Options) -> CmdResult {
    let started = std::time::Instant::now();
    let map = crate::game::maps::generate::generate(&config.rules, &opts).map_err(game_err)?;
    let valid = map.validate(&config.rules).map_err(|e| e.to_string())?;
    let generated = started.elapsed();
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let id = worlds::import(&mut conn, &valid, None).map_err(game_err)?;
    eprintln!(
        "generated {}×{} in {} ms, stored in {} ms",
        opts.width,
        opts.height,
        generated.as_millis(),
        (started.elapsed() - generated).as_millis()
    );
    println!("{id}");
    Ok(())
}

/// Prints the rulebook for the configuration's ruleset and schedules, in Markdown.
pub fn rules(config: &Config, lang: &str) -> CmdResult {
    let lang =
        crate::i18n::Lang::parse(lang).ok_or_else(|| format!("unknown language `{lang}`"))?;
    let tera = crate::web::templates::build().map_err(|e| e.to_string())?;
    let text = crate::web::rulebook::markdown(&tera, config, lang).map_err(|e| format!("{e:?}"))?;
    print!("{text}");
    Ok(())
}

/// Copies the SQLite database, consistent and compacted, into a new file (`VACUUM INTO`: the
/// server may keep running). PostgreSQL has its own tools for this.
pub fn backup(config: &Config, file: &std::path::Path) -> CmdResult {
    if file.exists() {
        return Err(format!(
            "{} exists already: give a new file",
            file.display()
        ));
    }
    let pool = open(config)?;
    let mut conn = pool.get().map_err(|e| format!("database: {e}"))?;
    let target = file
        .to_str()
        .ok_or_else(|| format!("{} is not a UTF-8 path", file.display()))?;
    match &mut **conn {
        db::DbConnection::Sqlite(c) => {
            use diesel::RunQueryDsl;
            diesel::sql_query("VACUUM INTO ?")
                .bind::<diesel::sql_types::Text, _>(target)
                .execute(c)
                .map_err(|e| format!("backup: {e}"))?;
            println!("{target}");
            Ok(())
        }
        db::DbConnection::Postgres(_) => Err(
            "backup copies SQLite databases; for PostgreSQL use `pg_dump -Fc` and `pg_restore`"
                .into(),
        ),
    }
}
