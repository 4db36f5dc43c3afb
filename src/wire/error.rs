//! The body of every refusal of the API.

use serde::Serialize;

/// The body of every API refusal: `{"error": {"code", "message"}}`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody<'a> {
    pub error: ErrorDetail<'a>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorDetail<'a> {
    pub code: &'a str,
    pub message: &'a str,
}

impl<'a> ErrorBody<'a> {
    pub fn new(code: &'a str, message: &'a str) -> Self {
        ErrorBody {
            error: ErrorDetail { code, message },
        }
    }
}
