//! Grognard: a persistent browser-strategy game server.

pub mod commands;
pub mod config;
pub mod db;
pub mod game;
pub mod i18n;
pub mod mail;
pub mod rules;
pub mod said;
pub mod schedule;
pub mod scheduler;
pub mod web;
