//! What a use case can answer instead of a result: a stable code (docs/api.md), an HTTP
//! status and a message.

use crate::i18n::Lang;
use crate::rules::Refusal;
use crate::said::Said;
use std::fmt;

/// The message of an error: as written (English), or a sentence said in the reader's
/// language (`crate::said`). Shown as English where no reader is known (the API, the logs).
#[derive(Clone, Debug)]
pub enum Text {
    Plain(String),
    Said(Said),
}

impl Text {
    pub fn in_lang(&self, lang: Lang) -> String {
        match self {
            Text::Plain(s) => s.clone(),
            Text::Said(s) => s.render(lang),
        }
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.in_lang(Lang::En))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::Plain(s)
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::Plain(s.to_string())
    }
}

impl From<Said> for Text {
    fn from(s: Said) -> Text {
        Text::Said(s)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("{0}")]
    Refused(Refusal),
    #[error("{0}")]
    Invalid(Text),
    #[error("{0}")]
    Unauthorized(Text),
    #[error("{0}")]
    Forbidden(Text),
    #[error("{0}")]
    NotFound(Text),
    #[error("{0}")]
    Conflict(Text),
    /// An upload nests deeper than any reader here follows.
    #[error("{0}")]
    TooDeep(Text),
    /// An upload holds, or inflates to, more than its bound.
    #[error("{0}")]
    TooLarge(Text),
    /// The reader does not hear from the sender.
    #[error("{0}")]
    Blocked(Text),
    /// A game master muted the player for a time.
    #[error("{0}")]
    Muted(Text),
    #[error("too many attempts; try again in {retry_after} seconds")]
    RateLimited { retry_after: i64 },
    #[error("the world is paused")]
    Paused,
    /// The world's campaign has ended: it is read-only.
    #[error("the campaign is over")]
    CampaignOver,
    /// Every database connection is taken (or the database is locked): nothing was done, and
    /// the same request may be sent again a moment later.
    #[error("the server is busy; try again in {retry_after} seconds")]
    Busy { retry_after: i64 },
    #[error("database error: {0}")]
    Db(#[from] diesel::result::Error),
    #[error("{0}")]
    Internal(String),
    /// An address given for the server to send to is not a public one (or not `https`).
    #[error("{0}")]
    NotPublic(Text),
}

impl From<Refusal> for GameError {
    fn from(r: Refusal) -> Self {
        GameError::Refused(r)
    }
}

impl GameError {
    pub fn code(&self) -> &'static str {
        match self {
            GameError::Refused(r) => r.code(),
            GameError::Invalid(_) => "invalid",
            GameError::Unauthorized(_) => "unauthorized",
            GameError::Forbidden(_) => "forbidden",
            GameError::NotFound(_) => "not_found",
            GameError::Conflict(_) => "conflict",
            GameError::TooDeep(_) => "too_deep",
            GameError::TooLarge(_) => "too_large",
            GameError::Blocked(_) => "blocked",
            GameError::Muted(_) => "muted",
            GameError::RateLimited { .. } => "rate_limited",
            GameError::Paused => "paused",
            GameError::CampaignOver => "campaign_over",
            GameError::Busy { .. } => "unavailable",
            GameError::Db(_) | GameError::Internal(_) => "internal",
            GameError::NotPublic(_) => "not_public",
        }
    }

    /// The HTTP status for this error: 4xx for anything a caller can cause.
    pub fn status(&self) -> u16 {
        match self {
            GameError::Refused(r) => match r {
                Refusal::NotSeen => 404,
                Refusal::Occupied(_) => 409,
                Refusal::Invalid(_) => 422,
                _ => 422,
            },
            GameError::Invalid(_)
            | GameError::TooDeep(_)
            | GameError::TooLarge(_)
            | GameError::NotPublic(_) => 422,
            GameError::Unauthorized(_) => 401,
            GameError::Forbidden(_) => 403,
            GameError::NotFound(_) => 404,
            GameError::Conflict(_) => 409,
            GameError::Blocked(_) | GameError::Muted(_) => 403,
            GameError::RateLimited { .. } => 429,
            GameError::Paused => 409,
            GameError::CampaignOver => 409,
            GameError::Busy { .. } => 503,
            GameError::Db(_) | GameError::Internal(_) => 500,
        }
    }

    pub fn not_found(what: &str) -> GameError {
        GameError::NotFound(
            Said::new("error-no-such")
                .m("what", format!("what-{}", what.replace(' ', "-")))
                .into(),
        )
    }
}

pub type GameResult<T> = Result<T, GameError>;
