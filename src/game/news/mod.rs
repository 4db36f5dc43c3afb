//! What happened: the events orders and ticks record, the alerts they raise for players, and
//! the badge of unread messages.

pub mod alerts;
pub mod events;
pub mod outbox;
pub mod push;
pub mod reminders;
pub mod unread;
pub mod webhooks;
