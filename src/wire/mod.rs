//! The API's wire types: what each route of `/api/v1` reads and answers, in one place, each
//! with its schema for the OpenAPI description (`web::api::openapi`), and the views the pages'
//! templates draw, the same structs: each built here from the game's values, so that the game
//! shapes nothing for a reader.
//!
//! Three records of the game are the contract as they are stored, and go out unchanged: an
//! order's report (`game::play::report`, what `events.data` keeps and the events pass on), the
//! map file (`game::maps::mapfile`, imported and exported) and a cell as the editor's audit log
//! records it (`game::gm::editor::CellContent`, the editor's answers).

pub mod accounts;
pub mod campaign;
pub mod editor;
pub mod error;
pub mod gm;
pub mod input;
pub mod live;
pub mod play;
pub mod push;
pub mod refusals;
pub mod screens;
pub mod talk;
pub mod views;
pub mod worlds;
