//! Playing: joining, raising, orders, the map, events, nations, leave and regiments.

use crate::game::play::report::Report;
use crate::game::play::{orders, views};
use crate::ids::{EventId, NationId, PlayerId, WorldId};
use crate::rules::movement::{Capture, Step};
use crate::wire::input::{CellRef, PathRef, Whole};
use crate::wire::views::{CompanyView, EventView};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct JoinBody {
    /// Read by the handler, which says what was wrong with another shape.
    #[schema(value_type = NationRef)]
    pub nation: Value,
}

/// A nation: its name (any case) or its id.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum NationRef {
    Id(i32),
    Name(String),
}

/// The fields of any order, as the API's JSON or a page's form sends them; `order_input`
/// makes the order of an action's name and these.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct OrderFields {
    pub path: Option<PathRef>,
    pub to: Option<CellRef>,
    pub target: Option<Whole>,
    pub at: Option<CellRef>,
    pub men: Option<Whole>,
}

/// `POST /api/v1/companies/{c}/move`: `path` or `to`, not both.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct MoveBody {
    pub path: Option<PathRef>,
    pub to: Option<CellRef>,
}

/// `volley` and `melee`: the company attacked.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct TargetBody {
    pub target: Whole,
}

/// The orders and edits aimed at one cell (`at` left out is refused by name).
#[derive(Deserialize, utoipa::ToSchema)]
pub struct AtBody {
    #[schema(required = true, value_type = CellRef)]
    pub at: Option<CellRef>,
}

/// `reinforce`: how many men of the reserve join.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ReinforceBody {
    pub men: Whole,
}

/// `POST /api/v1/worlds/{w}/ticks`.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct TickBody {
    /// `turn` or `season`.
    pub kind: String,
}

/// `POST /api/v1/worlds/{w}/join`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Joined {
    #[schema(value_type = i32)]
    pub player: PlayerId,
    #[schema(value_type = i32)]
    pub world: WorldId,
    #[schema(value_type = i32)]
    pub nation: NationId,
    pub reserve: i32,
}

/// `GET /api/v1/worlds/{w}/events`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct EventList {
    pub events: Vec<EventView>,
}

/// `GET /api/v1/worlds/{w}/nations`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NationList {
    pub nations: Vec<views::NationStanding>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct RaiseBody {
    pub kind: String,
    pub name: String,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OptionsQuery {
    /// A cell, `x,y`: the orders aimed at it are judged too.
    pub at: Option<String>,
}

/// The result of an order: the company afterwards (None if it was destroyed), the report.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Outcome {
    pub company: Option<CompanyView>,
    #[schema(value_type = i32)]
    pub event_id: EventId,
    pub summary: String,
    pub report: Report,
}

impl From<orders::Outcome> for Outcome {
    fn from(o: orders::Outcome) -> Outcome {
        Outcome {
            company: o.company.as_ref().map(|c| CompanyView::of(c, o.hidden)),
            event_id: o.event_id,
            summary: o.summary,
            report: o.report,
        }
    }
}

/// `POST /api/v1/companies/{c}/move`: the company afterwards and the move's report beside it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct MoveAnswer {
    #[serde(flatten)]
    pub company: Option<CompanyView>,
    pub steps: Vec<Step>,
    pub cost: i32,
    pub captures: Vec<Capture>,
    #[schema(value_type = i32)]
    pub event_id: EventId,
    pub summary: String,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Rect {
    pub x0: Option<i32>,
    pub y0: Option<i32>,
    pub x1: Option<i32>,
    pub y1: Option<i32>,
}

/// `GET /api/v1/worlds/{w}/map`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct MapAnswer {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
    pub cells: Vec<views::MapCell>,
    pub companies: Vec<views::SeenCompany>,
    /// `square` or `hex`.
    pub grid: crate::rules::Grid,
    pub edges: Vec<views::EdgeView>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Since {
    #[param(value_type = Option<i32>)]
    pub since: Option<EventId>,
    pub limit: Option<i64>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct LeaveBody {
    pub days: i32,
}

/// `POST /api/v1/worlds/{w}/leave`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct LeaveAnswer {
    pub days: i32,
    pub leave_until: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct RegimentBody {
    pub name: String,
}

impl MapAnswer {
    /// The answer as JSON, byte for byte what `serde_json` writes for it. The cells are
    /// written by hand: serde escaped the same seven keys again for each of hundreds of cells,
    /// a quarter of the request's time.
    pub fn to_json(&self) -> String {
        let mut o = String::with_capacity(96 + self.cells.len() * 90 + self.companies.len() * 220);
        let mut n = itoa::Buffer::new();
        for (key, v) in [
            ("{\"x0\":", self.x0),
            (",\"y0\":", self.y0),
            (",\"x1\":", self.x1),
            (",\"y1\":", self.y1),
        ] {
            o.push_str(key);
            o.push_str(n.format(v));
        }
        o.push_str(",\"cells\":[");
        for (i, c) in self.cells.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            o.push_str("{\"x\":");
            o.push_str(n.format(c.x));
            o.push_str(",\"y\":");
            o.push_str(n.format(c.y));
            o.push_str(",\"terrain\":\"");
            o.push_str(c.terrain.as_str());
            // Most cells are bare ground: their end is said in one piece.
            if c.owner.is_none()
                && c.town.is_none()
                && c.structure.is_none()
                && c.siege_tower.is_none()
            {
                o.push_str(if c.seen {
                    "\",\"owner\":null,\"town\":null,\"structure\":null,\"seen\":true}"
                } else {
                    "\",\"owner\":null,\"town\":null,\"structure\":null,\"seen\":false}"
                });
                continue;
            }
            o.push_str("\",\"owner\":");
            json_opt_str(&mut o, c.owner.as_deref());
            o.push_str(",\"town\":");
            json_opt_str(&mut o, c.town.as_deref());
            o.push_str(",\"structure\":");
            match c.structure {
                Some(v) => o.push_str(n.format(v)),
                None => o.push_str("null"),
            }
            if let Some(t) = c.siege_tower {
                o.push_str(",\"siege_tower\":{\"builds\":");
                o.push_str(n.format(t.builds));
                o.push_str(",\"structure\":");
                o.push_str(n.format(t.structure));
                o.push_str(if t.finished {
                    ",\"finished\":true}"
                } else {
                    ",\"finished\":false}"
                });
            }
            o.push_str(if c.seen {
                ",\"seen\":true}"
            } else {
                ",\"seen\":false}"
            });
        }
        o.push_str("],\"companies\":");
        // A few companies: serde's own writing costs little here.
        o.push_str(&serde_json::to_string(&self.companies).unwrap_or_else(|_| "[]".into()));
        o.push_str(",\"grid\":\"");
        o.push_str(self.grid.as_str());
        o.push_str("\",\"edges\":");
        o.push_str(&serde_json::to_string(&self.edges).unwrap_or_else(|_| "[]".into()));
        o.push('}');
        o
    }
}

/// A JSON string or null; text without quotes, backslashes or control characters (all names
/// in practice) is written as it is, anything else as serde writes it.
fn json_opt_str(o: &mut String, s: Option<&str>) {
    match s {
        None => o.push_str("null"),
        Some(s) if !s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) => {
            o.push('"');
            o.push_str(s);
            o.push('"');
        }
        Some(s) => o.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "null".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::MapAnswer;
    use crate::game::play::views::{MapCell, SeenCompany};
    use crate::rules::Terrain;

    #[test]
    fn the_map_answer_is_written_as_serde_writes_it() {
        let cell = |x, terrain, owner: Option<&str>, town: Option<&str>, structure, seen| MapCell {
            x,
            y: -3,
            terrain,
            owner: owner.map(String::from),
            town: town.map(String::from),
            structure,
            siege_tower: None,
            seen,
            owner_id: None,
            town_id: None,
        };
        let besieged = |builds, structure, finished| MapCell {
            siege_tower: Some(crate::game::play::views::SiegeTowerView {
                builds,
                structure,
                finished,
            }),
            ..cell(3, Terrain::Plain, None, None, None, true)
        };
        let answer = MapAnswer {
            x0: 0,
            y0: -3,
            x1: 2147483647,
            y1: 12,
            cells: vec![
                cell(0, Terrain::Plain, None, None, None, false),
                cell(0, Terrain::Forest, None, None, None, true),
                cell(0, Terrain::Plain, None, None, Some(3), false),
                cell(0, Terrain::Plain, Some("France"), None, None, true),
                cell(
                    1,
                    Terrain::Fortifications,
                    Some("France"),
                    Some("Vitebsk"),
                    Some(0),
                    true,
                ),
                cell(
                    2,
                    Terrain::Church,
                    Some("Ru\"ss\\ia\u{1}é"),
                    Some("Orša\n"),
                    Some(-7),
                    true,
                ),
                besieged(1, 0, false),
                besieged(3, 6, true),
            ],
            companies: vec![SeenCompany {
                id: crate::ids::CompanyId(7),
                name: "1er \"Grenadiers\"".into(),
                kind: crate::rules::Kind::Infantry,
                x: 1,
                y: -3,
                nation_id: crate::ids::NationId(1),
                nation: "France".into(),
                color: "#2b4c9b".into(),
                mine: true,
                friend: true,
                hidden: false,
                on_leave: false,
                men: Some(200),
                wounded: None,
                ap: Some(24),
                morale: Some(100),
            }],
            grid: crate::rules::Grid::Hex,
            edges: vec![crate::game::play::views::EdgeView {
                x: 4,
                y: 7,
                side: crate::rules::Side::NE,
                feature: crate::rules::names::EdgeFeature::Rampart,
            }],
        };
        assert_eq!(answer.to_json(), serde_json::to_string(&answer).unwrap());
        let empty = MapAnswer {
            cells: Vec::new(),
            companies: Vec::new(),
            grid: crate::rules::Grid::Square,
            edges: Vec::new(),
            ..answer
        };
        assert_eq!(empty.to_json(), serde_json::to_string(&empty).unwrap());
    }
}
