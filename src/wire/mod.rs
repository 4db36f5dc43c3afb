//! The API's wire types: what each route of `/api/v1` reads and answers, in one place, each
//! with its schema for the OpenAPI description (`web::api::openapi`).

pub mod accounts;
pub mod campaign;
pub mod editor;
pub mod error;
pub mod gm;
pub mod input;
pub mod live;
pub mod play;
pub mod refusals;
pub mod screens;
pub mod talk;
pub mod views;
pub mod worlds;
