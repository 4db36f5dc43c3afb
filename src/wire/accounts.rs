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

/// `GET /api/v1/tokens`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TokenList {
    pub tokens: Vec<tokens::TokenInfo>,
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
