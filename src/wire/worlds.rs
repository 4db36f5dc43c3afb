//! The worlds: `GET /api/v1/worlds`, `GET /api/v1/worlds/{w}`.

use crate::wire::views::{NationView, RaiseView, WorldView};
use serde::Serialize;

/// `GET /api/v1/worlds`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct WorldList {
    pub worlds: Vec<WorldView>,
}

/// This turn's dice: the seed itself is revealed at `/dice/{turn}` once the turn ends.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DiceCommitment {
    pub turn: i32,
    pub commitment: String,
}

// `GET /api/v1/worlds/{w}/dice/{turn}`: an ended turn's seed, and the commitment it answers.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RevealedSeed {
    pub turn: i32,
    pub seed: i64,
    pub commitment: String,
}

impl RevealedSeed {
    pub fn of(turn: i32, seed: i64) -> RevealedSeed {
        RevealedSeed {
            turn,
            seed,
            commitment: crate::game::time::dice::commitment(seed),
        }
    }
}

/// `GET /api/v1/worlds/{w}`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct WorldAnswer {
    #[serde(flatten)]
    pub world: WorldView,
    pub next_turn_at: Option<String>,
    pub next_season_at: Option<String>,
    pub dice: DiceCommitment,
    pub nations: Vec<NationView>,
    /// Whether the caller may raise a company now; null unless they play in the world.
    pub raise: Option<RaiseView>,
}
