//! What happened: the events orders and ticks record, and the alerts they raise for players.

pub mod alerts;
pub mod events;
