//! The campaign: rankings and the next campaign.
use crate::ids::WorldId;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RankingsQuery {
    pub by: Option<String>,
    pub page: Option<i64>,
}

#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NextBody {
    pub name: Option<String>,
}

/// `POST /api/v1/worlds/{w}/next`: the new campaign's world.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NextAnswer {
    #[schema(value_type = i32)]
    pub id: WorldId,
}
