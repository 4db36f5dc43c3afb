//! Playing: joining, raising, orders, the map, events, nations, leave and regiments.

use crate::game::play::orders;
use crate::game::play::report::Report;
use crate::game::play::views::{self, PlayerMap};
use crate::ids::{EventId, NationId, PlayerId, WorldId};
use crate::rules::movement::{Capture, Step};
use crate::rules::names::EdgeFeature;
use crate::rules::{Pos, Side, Terrain};
use crate::wire::input::{CellRef, PathRef, Whole};
use crate::wire::views::{CompanyView, EventView, NationStanding, SeenCompany};
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
    pub nations: Vec<NationStanding>,
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
    #[schema(value_type = Vec<MapCell>)]
    pub cells: Cells,
    pub companies: Vec<SeenCompany>,
    /// `square` or `hex`.
    pub grid: crate::rules::Grid,
    pub edges: Vec<EdgeView>,
}

impl MapAnswer {
    /// The rectangle `(x0, y0, x1, y1)` of a world of `grid`, as `map` shows it.
    pub fn of(
        rect: (i32, i32, i32, i32),
        grid: crate::rules::Grid,
        mut map: PlayerMap,
    ) -> MapAnswer {
        let (x0, y0, x1, y1) = rect;
        MapAnswer {
            x0,
            y0,
            x1,
            y1,
            companies: SeenCompany::all(&map),
            edges: map.edges.drain(..).map(EdgeView::of).collect(),
            grid,
            cells: Cells(map),
        }
    }
}

/// The cells of a map answer: the map's, each written as a [`MapCell`] with its owner's and
/// its town's names.
pub struct Cells(pub PlayerMap);

impl Serialize for Cells {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map = &self.0;
        s.collect_seq(map.cells.iter().map(|c| MapCell::of(c, map)))
    }
}

/// One cell of a map view: what the API sends and the map pages draw.
#[derive(Serialize, utoipa::ToSchema)]
pub struct MapCell<'a> {
    pub x: i32,
    pub y: i32,
    pub terrain: Terrain,
    pub owner: Option<&'a str>,
    pub town: Option<&'a str>,
    pub structure: Option<i32>,
    /// A siege tower on the cell: its builds done and, once finished, its structure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub siege_tower: Option<SiegeTowerView>,
    /// Whether the viewer's nation sees the cell now (always false for spectators).
    pub seen: bool,
}

impl<'a> MapCell<'a> {
    pub fn of(c: &views::MapCell, map: &'a PlayerMap) -> MapCell<'a> {
        MapCell {
            x: c.at.x,
            y: c.at.y,
            terrain: c.terrain,
            owner: c.owner.and_then(|n| map.nation(n)).map(|n| n.name.as_str()),
            town: c.town.and_then(|t| map.town(t)),
            structure: c.structure,
            siege_tower: c.siege_tower.map(SiegeTowerView::from),
            seen: c.seen,
        }
    }
}

/// A siege tower as the map shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SiegeTowerView {
    pub builds: i32,
    pub structure: i32,
    pub finished: bool,
}

impl From<views::SiegeTower> for SiegeTowerView {
    fn from(t: views::SiegeTower) -> SiegeTowerView {
        SiegeTowerView {
            builds: t.builds,
            structure: t.structure,
            finished: t.finished,
        }
    }
}

/// A feature on a side of a cell (docs/rules.md §13), as the map file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct EdgeView {
    pub x: i32,
    pub y: i32,
    pub side: Side,
    pub feature: EdgeFeature,
}

impl EdgeView {
    pub fn of((at, side, feature): (Pos, Side, EdgeFeature)) -> EdgeView {
        EdgeView {
            x: at.x,
            y: at.y,
            side,
            feature,
        }
    }
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
        let map = &self.cells.0;
        let mut o = String::with_capacity(96 + map.cells.len() * 90 + self.companies.len() * 220);
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
        for (i, c) in map.cells.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            o.push_str("{\"x\":");
            o.push_str(n.format(c.at.x));
            o.push_str(",\"y\":");
            o.push_str(n.format(c.at.y));
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
            let c = MapCell::of(c, map);
            o.push_str("\",\"owner\":");
            json_opt_str(&mut o, c.owner);
            o.push_str(",\"town\":");
            json_opt_str(&mut o, c.town);
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
    use super::{Cells, EdgeView, MapAnswer};
    use crate::db::models::Nation;
    use crate::game::play::views::{MapCell, PlayerMap, SiegeTower};
    use crate::ids::{NationId, TownId, WorldId};
    use crate::rules::{Pos, Terrain};
    use crate::wire::views::SeenCompany;

    #[test]
    fn the_map_answer_is_written_as_serde_writes_it() {
        let nation = |id, name: &str| Nation {
            id: NationId(id),
            world_id: WorldId(1),
            name: name.into(),
            color: "#2b4c9b".into(),
            spawn_x: 0,
            spawn_y: 0,
            treasury: 0,
            points: 0,
        };
        let cell = |x, terrain, owner: Option<i32>, town: Option<i32>, structure, seen| MapCell {
            at: Pos::new(x, -3),
            terrain,
            owner: owner.map(NationId),
            town: town.map(TownId),
            structure,
            siege_tower: None,
            seen,
        };
        let besieged = |builds, structure, finished| MapCell {
            siege_tower: Some(SiegeTower {
                builds,
                structure,
                finished,
            }),
            ..cell(3, Terrain::Plain, None, None, None, true)
        };
        let map = PlayerMap {
            cells: vec![
                cell(0, Terrain::Plain, None, None, None, false),
                cell(0, Terrain::Forest, None, None, None, true),
                cell(0, Terrain::Plain, None, None, Some(3), false),
                cell(0, Terrain::Plain, Some(1), None, None, true),
                cell(1, Terrain::Fortifications, Some(1), Some(5), Some(0), true),
                cell(2, Terrain::Church, Some(2), Some(6), Some(-7), true),
                besieged(1, 0, false),
                besieged(3, 6, true),
            ],
            companies: Vec::new(),
            edges: Vec::new(),
            nation_id: None,
            nations: vec![nation(1, "France"), nation(2, "Ru\"ss\\ia\u{1}é")],
            towns: [(TownId(5), "Vitebsk".into()), (TownId(6), "Orša\n".into())].into(),
            castles: Vec::new(),
            looked_into_fog: false,
        };
        let answer = MapAnswer {
            x0: 0,
            y0: -3,
            x1: 2147483647,
            y1: 12,
            cells: Cells(map),
            companies: vec![SeenCompany {
                id: crate::ids::CompanyId(7),
                name: "1er \"Grenadiers\"".into(),
                kind: crate::rules::Kind::Infantry,
                x: 1,
                y: -3,
                nation_id: NationId(1),
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
            edges: vec![EdgeView::of((
                Pos::new(4, 7),
                crate::rules::Side::NE,
                crate::rules::names::EdgeFeature::Rampart,
            ))],
        };
        assert_eq!(answer.to_json(), serde_json::to_string(&answer).unwrap());
        let empty = MapAnswer {
            cells: Cells(PlayerMap {
                cells: Vec::new(),
                ..answer.cells.0
            }),
            companies: Vec::new(),
            grid: crate::rules::Grid::Square,
            edges: Vec::new(),
            ..answer
        };
        assert_eq!(empty.to_json(), serde_json::to_string(&empty).unwrap());
    }
}
