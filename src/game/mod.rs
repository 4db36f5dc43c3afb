//! Use cases: one function per action and per tick. Each opens one transaction, loads what it
//! needs, asks `rules` and writes rows and events. Grouped in rooms, each depending only on
//! those before it: `accounts` → `news` → `maps` → `time` → `play` → `gm` → `talk` → `campaign`.

pub mod accounts;
pub mod bots;
pub mod campaign;
pub mod error;
pub mod gm;
pub mod maps;
pub mod news;
pub mod play;
pub mod screens;
pub mod talk;
pub mod time;
pub mod workers;

pub use error::{GameError, GameResult};
pub use workers::Workers;
