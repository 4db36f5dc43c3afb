//! The `grognard` command line.

use clap::{Parser, Subcommand};
use grognard::commands;
use grognard::config::Config;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "grognard",
    version,
    about = "A persistent browser-strategy game server"
)]
struct Cli {
    /// The configuration directory (default.toml, rules.toml, worlds/).
    #[arg(long, global = true, default_value = "config")]
    config: PathBuf,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Migrate, create the demo world if there is none, serve HTTP and run the scheduler.
    Serve,
    /// Bring the database schema up to date.
    Migrate,
    /// Create, import and export worlds.
    World {
        #[command(subcommand)]
        command: WorldCommand,
    },
    /// Manage accounts.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Print the rulebook (Markdown) for the ruleset and schedules of the configuration.
    Rules {
        #[arg(long, default_value = "en", value_parser = ["en", "fr"])]
        lang: String,
    },
    /// Copy the SQLite database into a new file while the server runs (PostgreSQL: pg_dump).
    Backup { file: PathBuf },
    /// The server's VAPID key pair for Web Push.
    PushKey {
        #[command(subcommand)]
        command: PushKeyCommand,
    },
    /// Apply one tick to a world now (it still counts exactly once); after a turn, the bots
    /// of the world play it.
    Tick {
        world: i32,
        #[arg(long, value_parser = ["turn", "season"])]
        kind: String,
    },
    /// Seat, list and remove bots (players of a nation played by the server).
    Bot {
        #[command(subcommand)]
        command: BotCommand,
    },
    /// Run a whole campaign of bots on a throwaway database, one line per turn, and how it
    /// ended; with `--runs R`, over R seeds, with win rates.
    Simulate {
        /// A map file (JSON).
        #[arg(
            long,
            conflicts_with = "generate",
            required_unless_present = "generate"
        )]
        map: Option<PathBuf>,
        /// A generated map of this size, `WxH`.
        #[arg(long)]
        generate: Option<String>,
        /// Nations of a generated map.
        #[arg(long, default_value_t = 2)]
        nations: usize,
        #[arg(long, default_value_t = 200)]
        turns: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// `easy`, `normal` or `hard`; a comma list gives each nation its own, in the map's
        /// order (the last plays the rest).
        #[arg(long, default_value = "normal")]
        level: String,
        #[arg(long, default_value_t = 1)]
        runs: usize,
        /// The points that win, in place of the map's.
        #[arg(long)]
        points: Option<i64>,
    },
}

#[derive(Subcommand)]
enum BotCommand {
    /// Seat a bot in a nation of a world; prints its name.
    Add {
        world: i32,
        nation: String,
        #[arg(long, default_value = "normal", value_parser = ["easy", "normal", "hard"])]
        level: String,
    },
    /// The bots of a world.
    List { world: i32 },
    /// Stop a bot (its companies stay, and give no more orders).
    Remove { world: i32, name: String },
}

#[derive(Subcommand)]
enum WorldCommand {
    /// Create the demo world.
    Demo,
    /// Import a map file (JSON); `-` reads standard input.
    Import {
        file: String,
        #[arg(long)]
        name: Option<String>,
    },
    /// Print a world's map file (JSON) to standard output.
    Export { world: i32 },
    /// Import a map drawn in the Tiled editor (.tmx, or Tiled JSON .tmj/.json).
    ImportTiled {
        file: PathBuf,
        #[arg(long)]
        name: Option<String>,
    },
    /// Generate a plausible world from a seed (same seed, same map).
    Generate {
        #[arg(long)]
        width: i32,
        #[arg(long)]
        height: i32,
        #[arg(long)]
        seed: u64,
        #[arg(long, default_value_t = 2)]
        nations: usize,
        #[arg(long)]
        name: Option<String>,
        /// `square` or `hex`.
        #[arg(long, default_value = "square")]
        grid: grognard::rules::Grid,
    },
}

#[derive(Subcommand)]
enum PushKeyCommand {
    /// Print the public key browsers subscribe with.
    Show,
    /// Replace the key pair; every browser's subscription ends (pages subscribe again).
    Rotate,
}

#[derive(Subcommand)]
enum UserCommand {
    /// Create an account; the password is read from standard input.
    Add {
        name: String,
        #[arg(long, default_value = "player")]
        role: String,
    },
}

#[actix_web::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match Config::load(&cli.config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => commands::serve(config).await,
        Command::Migrate => commands::migrate(&config),
        Command::Rules { lang } => commands::rules(&config, &lang),
        Command::Backup { file } => commands::backup(&config, &file),
        Command::PushKey { command } => match command {
            PushKeyCommand::Show => commands::push_key(&config, false),
            PushKeyCommand::Rotate => commands::push_key(&config, true),
        },
        Command::World { command } => match command {
            WorldCommand::Demo => commands::world_demo(&config),
            WorldCommand::Import { file, name } => {
                commands::world_import(&config, &file, name.as_deref())
            }
            WorldCommand::Export { world } => commands::world_export(&config, world),
            WorldCommand::ImportTiled { file, name } => {
                commands::world_import_tiled(&config, &file, name.as_deref())
            }
            WorldCommand::Generate {
                width,
                height,
                seed,
                nations,
                name,
                grid,
            } => commands::world_generate(
                &config,
                grognard::game::maps::generate::Options {
                    width,
                    height,
                    seed,
                    nations,
                    name,
                    grid,
                },
            ),
        },
        Command::User { command } => match command {
            UserCommand::Add { name, role } => commands::user_add(&config, &name, &role),
        },
        Command::Tick { world, kind } => commands::tick(&config, world, &kind),
        Command::Bot { command } => match command {
            BotCommand::Add {
                world,
                nation,
                level,
            } => commands::bot_add(&config, world, &nation, &level),
            BotCommand::List { world } => commands::bot_list(&config, world),
            BotCommand::Remove { world, name } => commands::bot_remove(&config, world, &name),
        },
        Command::Simulate {
            map,
            generate,
            nations,
            turns,
            seed,
            level,
            runs,
            points,
        } => commands::simulate(
            &config,
            map.as_deref(),
            generate.as_deref(),
            (nations, turns, seed, &level, runs, points),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
