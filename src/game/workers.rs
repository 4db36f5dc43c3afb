//! Where the game's blocking work runs, for the use cases that take several steps: database
//! work on pooled connections, CPU-heavy work (password hashing) on threads of its own, so that
//! no connection is held while a password is hashed. The web layer's state implements it.

use crate::config::Config;
use crate::db::DbConnection;
use crate::game::GameResult;
use std::future::Future;

pub trait Workers: Sync {
    fn config(&self) -> &Config;

    fn db<T, F>(&self, f: F) -> impl Future<Output = GameResult<T>> + Send
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConnection) -> GameResult<T> + Send + 'static;

    fn cpu<T, F>(&self, f: F) -> impl Future<Output = GameResult<T>> + Send
    where
        T: Send + 'static,
        F: FnOnce() -> GameResult<T> + Send + 'static;
}
