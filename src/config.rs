//! Settings: `config/default.toml`, then `config/<GROGNARD_ENV>.toml`, then
//! `GROGNARD__SECTION__KEY` environment variables; `DATABASE_URL` wins for the database.

use crate::rules::Ruleset;
use crate::schedule::Schedule;
use figment::providers::{Env, Format, Toml};
use figment::Figment;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The built-in defaults, identical to the shipped `config/default.toml`.
const DEFAULTS: &str = include_str!("../config/default.toml");

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub scheduler: SchedulerSettings,
    pub rules: RulesSettings,
    pub security: SecuritySettings,
    #[serde(default)]
    pub mail: MailSettings,
    #[serde(default)]
    pub talk: TalkSettings,
    #[serde(default)]
    pub live: LiveSettings,
    #[serde(default)]
    pub push: PushSettings,
    #[serde(default)]
    pub bots: BotSettings,
    #[serde(default)]
    pub demo: DemoSettings,
}

/// Bots (game::bots, docs/rules.md §14); the rulebook prints them.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct BotSettings {
    /// A bot's orders are given in transactions of at most about this long, so that players'
    /// orders never wait much longer for them.
    pub chunk_ms: u64,
    /// Orders one company is given in a turn at most.
    pub orders_per_company: usize,
    /// Companies a bot raises in a turn at most.
    pub raise_per_turn: usize,
    /// A player who asked for it and gave no order for this many turns is away: the nation's
    /// bot holds their companies.
    pub away_turns: i32,
}

impl Default for BotSettings {
    fn default() -> Self {
        BotSettings {
            chunk_ms: 30,
            orders_per_company: 3,
            raise_per_turn: 2,
            away_turns: 4,
        }
    }
}

/// The demo worlds a fresh server makes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DemoSettings {
    /// The demo worlds' second nation is played by a `normal` bot.
    pub bot: bool,
}

impl Default for DemoSettings {
    fn default() -> Self {
        DemoSettings { bot: true }
    }
}

/// Alerts sent away from the site: webhooks, pushes to browsers (and what sends them).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PushSettings {
    /// Outgoing requests may go to private addresses and plain `http`: for a receiver on the
    /// same machine or network only (tests, a bridge of one's own).
    pub allow_private: bool,
    /// Webhooks one player may register.
    pub webhooks_per_user: usize,
    /// A webhook failing this many times in a row is turned off, and its player told.
    pub webhook_failures: i32,
    /// Tries of one delivery at most.
    pub attempts: i32,
    /// An outgoing request's whole time at most.
    pub timeout_seconds: u64,
    /// Bytes of an answer read at most.
    pub answer_limit: u64,
    /// How often the outbox is looked at when idle.
    pub poll_ms: u64,
    /// Delivery threads of each server process.
    pub senders: usize,
    /// Browsers (push subscriptions) one player may have.
    pub devices_per_user: usize,
    /// Who runs the server, as push services are told (VAPID `sub`): a `mailto:` or `https:`
    /// address. Empty: the server's public URL.
    pub subject: String,
    /// How long a push service keeps a push for a browser that is offline (`TTL`).
    pub ttl_seconds: u64,
    /// How long before a turn the players who asked are reminded of action points it would
    /// waste (`turn_unspent`).
    pub unspent_minutes: i64,
}

impl Default for PushSettings {
    fn default() -> Self {
        PushSettings {
            allow_private: false,
            webhooks_per_user: 3,
            webhook_failures: 5,
            attempts: 8,
            timeout_seconds: 10,
            answer_limit: 65_536,
            poll_ms: 1000,
            senders: 2,
            devices_per_user: 10,
            subject: String::new(),
            ttl_seconds: 86_400,
            unspent_minutes: 30,
        }
    }
}

/// The live event streams (`GET /api/v1/worlds/{w}/live`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LiveSettings {
    /// Streams one user may hold open at once on one server process; past that, 429.
    pub streams_per_user: usize,
    /// Streams one server process holds at most; past that, 503 with Retry-After.
    pub streams_per_process: usize,
    /// A comment is sent on an idle stream this often, so that proxies keep it open.
    pub keep_alive_seconds: u64,
    /// Bursts (what one change says) waiting for a slow client at most; past that its stream
    /// is closed (it resumes with `Last-Event-ID`).
    pub backlog: usize,
    /// The live log's rows are kept this long: a stream resuming from further back is told
    /// to reload (`resync`).
    pub keep_minutes: i64,
}

impl Default for LiveSettings {
    fn default() -> Self {
        LiveSettings {
            streams_per_user: 4,
            streams_per_process: 20_000,
            keep_alive_seconds: 20,
            backlog: 64,
            keep_minutes: 60,
        }
    }
}

/// Messages, the nations' boards and map markers (game::talk).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TalkSettings {
    /// The longest message, in characters.
    pub message_chars: usize,
    /// Messages a player may send in `window_seconds`; past that, 429 with Retry-After.
    pub messages_per_window: i64,
    pub window_seconds: i64,
    /// The longest marker label, in characters.
    pub marker_chars: usize,
    /// Markers a player may have standing at once in a world.
    pub markers_per_player: i64,
    /// A marker lasts this many turns.
    pub marker_turns: i32,
    /// Messages older than this many days are purged; 0 keeps them.
    pub keep_messages_days: i64,
    /// The longest a game master may mute a player for, in hours.
    pub max_mute_hours: i64,
}

impl Default for TalkSettings {
    fn default() -> Self {
        TalkSettings {
            message_chars: 2000,
            messages_per_window: 10,
            window_seconds: 60,
            marker_chars: 40,
            markers_per_player: 10,
            marker_turns: 8,
            keep_messages_days: 90,
            max_mute_hours: 24 * 30,
        }
    }
}

/// Alerts by e-mail through an SMTP server; without `smtp_host` no mail is sent.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MailSettings {
    pub smtp_host: String,
    pub smtp_port: u16,
    /// `starttls`, `tls` (implicit, port 465) or `none` (a local relay only).
    pub tls: String,
    pub username: String,
    pub password: String,
    pub from: String,
    /// At most one mail per player in this many minutes; alerts wait and go together.
    pub every_minutes: i64,
}

impl Default for MailSettings {
    fn default() -> Self {
        MailSettings {
            smtp_host: String::new(),
            smtp_port: 587,
            tls: "starttls".into(),
            username: String::new(),
            password: String::new(),
            from: "Grognard <grognard@localhost>".into(),
            every_minutes: 60,
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    pub bind: String,
    pub public_url: String,
    pub https: bool,
    pub workers: usize,
    /// How long a client may take to send a request's head on a new connection; past that
    /// it gets 408 and the connection is closed.
    #[serde(default = "five_seconds_ms")]
    pub client_request_timeout_ms: u64,
    /// How long an idle connection is kept open for the client's next request.
    #[serde(default = "five")]
    pub keep_alive_seconds: u64,
    /// Connections each worker holds at most; past that the listener stops accepting them
    /// (they wait in the system's backlog) until some close.
    #[serde(default = "max_connections")]
    pub max_connections: usize,
}

fn five_seconds_ms() -> u64 {
    5000
}

fn five() -> u64 {
    5
}

fn max_connections() -> usize {
    2048
}

fn three_seconds_ms() -> u64 {
    3000
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseSettings {
    pub url: String,
    pub pool_size: u32,
    pub busy_timeout_ms: u32,
    /// How long a request waits for a free connection before answering 503.
    pub pool_wait_ms: u64,
    /// How long a request waits for its turn at the database (`pool_size` requests use it at
    /// once) before answering 503 with `Retry-After`: a flood is shed, not queued without end.
    #[serde(default = "three_seconds_ms")]
    pub queue_wait_ms: u64,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchedulerSettings {
    pub enabled: bool,
    pub turn: String,
    pub season: String,
    pub max_catch_up: Option<u32>,
    pub poll_ms: u64,
    /// How often the scheduler purges what has outlived its use, in minutes.
    pub purge_every_minutes: u64,
    /// Events (and so reports) older than this many days are purged; 0 keeps them forever.
    pub keep_events_days: i64,
    /// Players are alerted this many minutes before a turn begins; 0: never.
    #[serde(default = "thirty")]
    pub turn_soon_minutes: i64,
}

fn thirty() -> i64 {
    30
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesSettings {
    pub file: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecuritySettings {
    pub session_idle_minutes: i64,
    pub session_absolute_hours: i64,
    pub login_attempts: u32,
    pub login_window_seconds: i64,
    /// Failed logins on one account, from anywhere, past which only addresses that have not
    /// failed on it may still try.
    pub login_account_cap: u32,
    pub trust_forwarded_for: bool,
    /// Accounts one client address may create per hour.
    pub registrations_per_hour: u32,
    /// The bearer token `/metrics` asks for; empty: `/metrics` is not served at all.
    pub metrics_token: String,
    /// API tokens stop working this many days after they were made; 0: they never expire.
    pub api_token_days: i64,
}

/// Everything the server needs from its configuration directory.
#[derive(Clone, Debug)]
pub struct Config {
    pub dir: PathBuf,
    pub settings: Settings,
    pub rules: Ruleset,
    /// `scheduler.turn` and `scheduler.season`, parsed once.
    pub turn_schedule: Schedule,
    pub season_schedule: Schedule,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration: {0}")]
    Figment(String),
    #[error("configuration key `{key}`: {message}")]
    Key { key: String, message: String },
    #[error("{0}")]
    Rules(#[from] crate::rules::ruleset::RulesetError),
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
}

impl Settings {
    /// Loads the layered settings from `dir`, with `env` giving the environment variables
    /// (passed in so tests need not touch the process environment).
    pub fn load(
        dir: &Path,
        env_name: Option<&str>,
        db_url: Option<&str>,
    ) -> Result<Settings, ConfigError> {
        let mut fig = Figment::from(Toml::string(DEFAULTS));
        let default_file = dir.join("default.toml");
        if default_file.exists() {
            fig = fig.merge(Toml::file(default_file));
        }
        if let Some(env) = env_name.filter(|e| !e.is_empty()) {
            fig = fig.merge(Toml::file(dir.join(format!("{env}.toml"))));
        }
        fig = fig.merge(Env::prefixed("GROGNARD__").split("__"));
        let mut s: Settings = fig.extract().map_err(|e| {
            let key = e.path.join(".");
            ConfigError::Key {
                key: if key.is_empty() { "(file)".into() } else { key },
                message: e.kind.to_string()
                    + &e.metadata
                        .as_ref()
                        .map(|m| format!(" (from {})", m.name))
                        .unwrap_or_default(),
            }
        })?;
        if let Some(url) = db_url.filter(|u| !u.is_empty()) {
            s.database.url = url.to_string();
        }
        if s.server.public_url.is_empty() {
            // Links in mails need an absolute address; the bound one is right on one box.
            s.server.public_url = format!("http://{}", s.server.bind);
        }
        s.validate()?;
        Ok(s)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let key_err = |key: &str, message: String| ConfigError::Key {
            key: key.into(),
            message,
        };
        for (key, expr) in [
            ("scheduler.turn", &self.scheduler.turn),
            ("scheduler.season", &self.scheduler.season),
        ] {
            Schedule::parse(expr).map_err(|m| key_err(key, m))?;
        }
        let t = &self.talk;
        for (key, ok) in [
            (
                "talk.message_chars",
                (1..=100_000).contains(&t.message_chars),
            ),
            ("talk.messages_per_window", t.messages_per_window >= 1),
            ("talk.window_seconds", t.window_seconds >= 1),
            ("talk.marker_chars", (1..=1_000).contains(&t.marker_chars)),
            ("talk.markers_per_player", t.markers_per_player >= 0),
            ("talk.marker_turns", t.marker_turns >= 1),
            ("talk.keep_messages_days", t.keep_messages_days >= 0),
            ("talk.max_mute_hours", t.max_mute_hours >= 1),
        ] {
            if !ok {
                return Err(key_err(key, "out of range".into()));
            }
        }
        if self.database.pool_size == 0 {
            return Err(key_err("database.pool_size", "must be at least 1".into()));
        }
        if self.server.bind.parse::<std::net::SocketAddr>().is_err()
            && !self.server.bind.contains(':')
        {
            return Err(key_err(
                "server.bind",
                format!("`{}` is not host:port", self.server.bind),
            ));
        }
        if self.security.login_window_seconds <= 0 {
            return Err(key_err(
                "security.login_window_seconds",
                "must be positive".into(),
            ));
        }
        if !["starttls", "tls", "none"].contains(&self.mail.tls.as_str()) {
            return Err(key_err(
                "mail.tls",
                format!("`{}` is not starttls, tls or none", self.mail.tls),
            ));
        }
        if self.mail.every_minutes <= 0 {
            return Err(key_err("mail.every_minutes", "must be positive".into()));
        }
        if self.scheduler.poll_ms == 0 {
            return Err(key_err("scheduler.poll_ms", "must be positive".into()));
        }
        Ok(())
    }
}

impl Config {
    /// Loads settings and the ruleset from the process environment.
    pub fn load(dir: &Path) -> Result<Config, ConfigError> {
        let env_name = std::env::var("GROGNARD_ENV").ok();
        let db_url = std::env::var("DATABASE_URL").ok();
        let settings = Settings::load(dir, env_name.as_deref(), db_url.as_deref())?;
        Config::with_settings(dir, settings)
    }

    pub fn with_settings(dir: &Path, settings: Settings) -> Result<Config, ConfigError> {
        let path = dir.join(&settings.rules.file);
        let rules = if path.exists() {
            let text = std::fs::read_to_string(&path).map_err(|e| ConfigError::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
            Ruleset::from_toml(&text)?
        } else if settings.rules.file == "rules.toml" {
            // No config directory at all (e.g. an installed binary): the shipped ruleset.
            Ruleset::shipped()
        } else {
            return Err(ConfigError::Io {
                path: path.display().to_string(),
                message: "no such file".into(),
            });
        };
        let schedule = |key: &str, expr: &str| {
            Schedule::parse(expr).map_err(|m| ConfigError::Key {
                key: key.into(),
                message: m,
            })
        };
        Ok(Config {
            dir: dir.to_path_buf(),
            turn_schedule: schedule("scheduler.turn", &settings.scheduler.turn)?,
            season_schedule: schedule("scheduler.season", &settings.scheduler.season)?,
            settings,
            rules,
        })
    }

    /// The catch-up cap: the setting when given, otherwise the ruleset's.
    pub fn max_catch_up(&self) -> u32 {
        self.settings
            .scheduler
            .max_catch_up
            .unwrap_or(self.rules.limits.max_catch_up as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir_with(files: &[(&str, &str)]) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "grognard-cfg-{}-{}",
            std::process::id(),
            rand::random::<u32>()
        ));
        std::fs::create_dir_all(&d).unwrap();
        for (name, text) in files {
            std::fs::write(d.join(name), text).unwrap();
        }
        d
    }

    #[test]
    fn defaults_load_without_any_file() {
        let s = Settings::load(&dir_with(&[]), None, None).unwrap();
        assert_eq!(s.server.bind, "127.0.0.1:8080");
        assert_eq!(s.server.public_url, "http://127.0.0.1:8080");
        assert_eq!(s.database.url, "sqlite://data/grognard.db");
        assert_eq!(s.scheduler.turn, "0 0 */6 * * *");
    }

    #[test]
    fn an_environment_layer_overrides_the_defaults_and_database_url_wins() {
        let d = dir_with(&[(
            "staging.toml",
            "[server]\nbind = \"0.0.0.0:9000\"\n[database]\nurl = \"sqlite://x.db\"\n",
        )]);
        let s = Settings::load(&d, Some("staging"), None).unwrap();
        assert_eq!(s.server.bind, "0.0.0.0:9000");
        assert_eq!(s.database.url, "sqlite://x.db");
        let s = Settings::load(&d, Some("staging"), Some("postgres://u@h/db")).unwrap();
        assert_eq!(s.database.url, "postgres://u@h/db");
    }

    #[test]
    fn a_bad_cron_string_names_its_key() {
        let d = dir_with(&[("default.toml", "[scheduler]\nturn = \"every six hours\"\n")]);
        let e = Settings::load(&d, None, None).unwrap_err().to_string();
        assert!(e.contains("scheduler.turn"), "{e}");
    }

    #[test]
    fn a_bad_value_names_its_key() {
        let d = dir_with(&[("default.toml", "[database]\npool_size = \"many\"\n")]);
        let e = Settings::load(&d, None, None).unwrap_err().to_string();
        assert!(e.contains("database.pool_size"), "{e}");
        let d = dir_with(&[("default.toml", "[server]\nbindd = \"x\"\n")]);
        let e = Settings::load(&d, None, None).unwrap_err().to_string();
        assert!(e.contains("bindd"), "{e}");
    }

    #[test]
    fn a_broken_ruleset_stops_loading() {
        let d = dir_with(&[("rules.toml", "[terrains]\n")]);
        let s = Settings::load(&d, None, None).unwrap();
        let e = Config::with_settings(&d, s).unwrap_err().to_string();
        assert!(e.contains("ruleset key"), "{e}");
    }
}
