//! Accounts and tokens: `/api/v1/users`, `/api/v1/tokens`, `/api/v1/me`, `/api/v1/alerts`.

use crate::game::accounts::tokens;
use crate::ids::TokenId;
use crate::wire::views::AlertView;
use serde::{Deserialize, Serialize};

/// `POST /api/v1/tokens`: the token itself is shown this once.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NewToken {
    #[schema(value_type = i32)]
    pub id: TokenId,
    pub token: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct TokenInfo {
    #[schema(value_type = i32)]
    pub id: TokenId,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

impl From<tokens::Token> for TokenInfo {
    fn from(t: tokens::Token) -> TokenInfo {
        TokenInfo {
            id: t.id,
            name: t.name,
            created_at: t.created_at,
            last_used_at: t.last_used_at,
        }
    }
}

/// `GET /api/v1/tokens`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TokenList {
    pub tokens: Vec<TokenInfo>,
}

impl TokenList {
    pub fn of(list: Vec<tokens::Token>) -> TokenList {
        TokenList {
            tokens: list.into_iter().map(TokenInfo::from).collect(),
        }
    }
}

/// `GET /api/v1/alerts`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AlertList {
    pub alerts: Vec<AlertView>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct Credentials {
    pub username: String,
    pub password: String,
    #[serde(default)]
    pub name: String,
}
