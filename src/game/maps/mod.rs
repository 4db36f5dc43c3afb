//! Worlds and their cells: creating, importing and exporting worlds (the map file, generated
//! maps, Tiled maps) and the copy of a world's cells kept in memory.

pub mod castles;
pub mod cells;
pub mod generate;
pub mod mapfile;
pub mod sketch;
pub mod tiled_import;
pub mod worlds;
