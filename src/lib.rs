//! Grognard: a persistent browser-strategy game server.

pub mod rules;
pub mod config;
pub mod db;
pub mod game;
pub mod scheduler;
pub mod web;
pub mod commands;
