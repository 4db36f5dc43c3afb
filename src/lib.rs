//! Grognard: a persistent browser-strategy game server.

pub mod commands;
pub mod config;
pub mod db;
pub mod delivery;
pub mod game;
pub mod i18n;
pub mod ids;
pub mod mail;
pub mod outgoing;
pub mod rules;
pub mod said;
pub mod schedule;
pub mod scheduler;
pub mod web;
pub mod webpush;
pub mod wire;

/// mimalloc for every binary built on the library (the server, the benches, the tests): a page
/// makes many small allocations, and glibc's malloc and free took 11 % of the world page's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
