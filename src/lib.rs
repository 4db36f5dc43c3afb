//! Grognard: a persistent browser-strategy game server.

pub mod rules;
