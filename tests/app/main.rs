//! Integration tests: the real server on port 0, over HTTP and through the CLI, each on a fresh
//! SQLite file and on a fresh PostgreSQL database (tests named `…::sqlite` and `…::postgres`).

#[allow(dead_code)]
mod support;

mod accounts;
mod alerts;
mod browser;
mod fog;
mod foundation;
mod gm;
mod hostile;
mod hot_paths;
mod options;
mod pages;
mod play;
mod routes;
mod time;
