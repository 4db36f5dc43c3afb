//! Integration tests: the real server on port 0, over HTTP and through the CLI, each on a fresh
//! SQLite file and on a fresh PostgreSQL database (tests named `…::sqlite` and `…::postgres`).

#[allow(dead_code)]
mod support;

mod accounts;
mod alerts;
mod bots;
mod browser;
mod caches;
mod campaign;
mod castles;
mod dice;
mod faults;
mod first_day;
mod fog;
mod fuzz;
#[path = "../fuzz/targets.rs"]
mod fuzz_targets;
mod gm;
mod hex;
mod hostile;
mod layers;
mod live;
mod maps;
mod openapi;
mod options;
mod outbox;
mod pages;
mod play;
mod push;
mod raising;
mod routes;
mod rulebook;
mod scores;
mod screens;
mod server;
mod talk;
mod time;
mod uploads;
mod webhooks;
