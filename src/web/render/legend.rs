//! The legend beside every map: each terrain's cost this season and its protections, from the
//! ruleset in use.

use crate::rules::{Ruleset, Season, Terrain};
use serde::Serialize;

#[derive(Serialize)]
pub struct LegendItem {
    pub terrain: &'static str,
    pub ap: i32,
    pub volley: i32,
    pub melee: i32,
}

pub fn legend(rs: &Ruleset, season: Season) -> Vec<LegendItem> {
    Terrain::ALL
        .iter()
        .map(|t| {
            let r = rs.terrain(*t);
            LegendItem {
                terrain: t.as_str(),
                ap: r.ap(season),
                volley: r.volley_protection,
                melee: r.melee_protection,
            }
        })
        .collect()
}
