//! The map file of docs/api.md: its JSON shape and its validation, entry by entry, before
//! anything is written.

use crate::rules::names::EdgeFeature;
use crate::rules::ruleset::Flag;
use crate::rules::{Bounds, Grid, Pos, Ruleset, Season, Side, Terrain};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::{HashMap, HashSet};

/// Largest side of a world, to keep a typo from creating billions of cells.
pub const MAX_SIDE: i32 = 2000;

/// Characters in the name of a nation, a town or a castle, however it is made.
pub const MAX_PLACE_NAME: usize = 40;

/// A place's name: 1 to [`MAX_PLACE_NAME`] characters once trimmed.
pub fn place_name_fits(name: &str) -> bool {
    let name = name.trim();
    !name.is_empty() && name.chars().count() <= MAX_PLACE_NAME
}

/// Refuses the file's `entry` when the name of its place (`what`: a nation, a town, a castle)
/// does not fit.
fn place_name(entry: &str, what: &str, name: &str) -> Result<(), MapError> {
    if place_name_fits(name) {
        return Ok(());
    }
    fail(
        entry,
        format!("a {what} needs a name of 1 to {MAX_PLACE_NAME} characters"),
    )
}

/// Castles in one world: far more than a campaign holds, few enough that listing them all
/// stays one small answer.
pub const MAX_CASTLES: usize = 1000;

/// Cells of one castle: a fortress of 100×100.
pub const MAX_CASTLE_CELLS: usize = 10_000;

// Serialize: the map file's format (docs/maps.md), which the API reads and writes as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    pub name: String,
    pub width: i32,
    pub height: i32,
    /// `square` (the default) or `hex` (docs/rules.md §13).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
    #[serde(default = "summer")]
    pub season: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rng_seed: Option<i64>,
    pub nations: Vec<MapNation>,
    #[serde(default)]
    pub towns: Vec<MapTown>,
    #[serde(default)]
    pub cells: Vec<MapCell>,
    /// Castles (docs/rules.md §12): named here, their cells name them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub castles: Vec<MapCastle>,
    /// The campaign's own victory settings (docs/rules.md §11); absent: the ruleset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<MapVictory>,
    /// Features of cell sides, each edge once (docs/rules.md §13).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<MapEdge>,
}

/// A feature on a side of a cell: `{"x": 4, "y": 7, "side": "NE", "feature": "rampart"}`.
// Serialize: the map file's format (docs/maps.md), which the API reads and writes as it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MapEdge {
    pub x: i32,
    pub y: i32,
    pub side: String,
    pub feature: String,
}

/// A world's own victory settings, each optional.
// Serialize: the map file's format (docs/maps.md), which the API reads and writes as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MapVictory {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_turn: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub towns_share: Option<f64>,
}

impl MapVictory {
    /// Refuses settings no campaign could be played to, naming the field.
    pub fn check(&self, entry: &str) -> Result<(), MapError> {
        if self
            .points
            .is_some_and(|p| !(1..=1_000_000_000_000).contains(&p))
        {
            return fail(
                format!("{entry}.points"),
                "must be between 1 and 1000000000000",
            );
        }
        if self.end_turn.is_some_and(|t| t < 0) {
            return fail(
                format!("{entry}.end_turn"),
                "must be 0 (no last turn) or more",
            );
        }
        if self.towns_share.is_some_and(|s| !(s > 0.0 && s <= 1.0)) {
            return fail(
                format!("{entry}.towns_share"),
                "must be more than 0 and at most 1",
            );
        }
        Ok(())
    }
}

fn summer() -> String {
    "summer".into()
}

// Serialize: the map file's format (docs/maps.md), which the API reads and writes as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MapNation {
    pub name: String,
    pub color: String,
    pub spawn: Option<[i32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub treasury: Option<i64>,
}

// Serialize: the map file's format (docs/maps.md), which the API reads and writes as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MapCastle {
    pub name: String,
}

// Serialize: the map file's format (docs/maps.md), which the API reads and writes as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MapTown {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// `owner` absent: a town cell takes its town's owner; `"owner": null`: no owner at all.
// Serialize: the map file's format (docs/maps.md), which the API reads and writes as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = MapFileCell)]
pub struct MapCell {
    pub x: i32,
    pub y: i32,
    pub terrain: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub town: Option<String>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub owner: Option<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub castle: Option<String>,
}

/// For `Option<Option<T>>` fields: absent stays `None`, `null` becomes `Some(None)`.
pub fn present<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// An entry of the file that cannot be imported, named so its author can find it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    pub entry: String,
    pub message: String,
}

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.entry, self.message)
    }
}

impl std::error::Error for MapError {}

impl From<MapError> for crate::game::error::GameError {
    fn from(e: MapError) -> Self {
        crate::game::error::GameError::Invalid(e.to_string().into())
    }
}

fn fail<T>(entry: impl Into<String>, message: impl Into<String>) -> Result<T, MapError> {
    Err(MapError {
        entry: entry.into(),
        message: message.into(),
    })
}

/// A map file checked against a ruleset, ready to be written.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidMap {
    pub name: String,
    pub bounds: Bounds,
    pub season: Season,
    pub rng_seed: Option<i64>,
    /// (name, colour, spawn, treasury)
    pub nations: Vec<(String, String, Pos, i64)>,
    /// (name, owner nation index)
    pub towns: Vec<(String, Option<usize>)>,
    /// Every listed cell: position, terrain, town index, owner nation index, structure.
    pub cells: Vec<ValidCell>,
    pub victory: MapVictory,
    /// The castles' names.
    pub castles: Vec<String>,
    /// Each castle's sections (docs/rules.md §12), by castle index.
    pub sections: Vec<(usize, crate::rules::castle::Section)>,
    /// Edge features, each under its one name (`Grid::canonical`), in the file's order.
    pub edges: Vec<ValidEdge>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValidEdge {
    pub pos: Pos,
    pub side: Side,
    pub feature: EdgeFeature,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidCell {
    pub pos: Pos,
    pub terrain: Terrain,
    pub town: Option<usize>,
    pub owner: Option<usize>,
    pub structure: Option<i32>,
    /// Index into the castles.
    pub castle: Option<usize>,
}

pub fn is_colour(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].chars().all(|c| c.is_ascii_hexdigit())
}

/// Parses JSON text into a map file, naming the position of a syntax error.
pub fn parse(text: &str) -> Result<MapFile, MapError> {
    serde_json::from_str(text).map_err(|e| MapError {
        entry: format!("line {}, column {}", e.line(), e.column()),
        message: e.to_string(),
    })
}

impl MapFile {
    pub fn validate(&self, rs: &Ruleset) -> Result<ValidMap, MapError> {
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > 80 {
            return fail("name", "a world needs a name of 1 to 80 characters");
        }
        if !(1..=MAX_SIDE).contains(&self.width) {
            return fail(
                "width",
                format!("must be between 1 and {MAX_SIDE} (got {})", self.width),
            );
        }
        if !(1..=MAX_SIDE).contains(&self.height) {
            return fail(
                "height",
                format!("must be between 1 and {MAX_SIDE} (got {})", self.height),
            );
        }
        let grid = match self.grid.as_deref() {
            None => Grid::Square,
            Some(g) => g.parse::<Grid>().ok().map_or_else(
                || fail("grid", format!("unknown grid `{g}` (square or hex)")),
                Ok,
            )?,
        };
        let bounds = Bounds {
            width: self.width,
            height: self.height,
            grid,
        };
        let season = self.season.parse::<Season>().or_else(|_| {
            fail(
                "season",
                format!("unknown season `{}` (summer or winter)", self.season),
            )
        })?;
        if self.nations.is_empty() {
            return fail("nations", "a world needs at least one nation");
        }
        let mut nation_index = HashMap::new();
        let mut nations = Vec::new();
        for (i, n) in self.nations.iter().enumerate() {
            let entry = format!("nations[{i}] ({})", n.name);
            place_name(&entry, "nation", &n.name)?;
            if nation_index.insert(n.name.clone(), i).is_some() {
                return fail(entry, format!("duplicate nation `{}`", n.name));
            }
            if !is_colour(&n.color) {
                return fail(entry, format!("bad colour `{}`: use #rrggbb", n.color));
            }
            let Some([sx, sy]) = n.spawn else {
                return fail(entry, "missing spawn cell [x, y]");
            };
            if !bounds.contains(Pos::new(sx, sy)) {
                return fail(
                    entry,
                    format!(
                        "spawn ({sx}, {sy}) is outside the {}×{} map",
                        self.width, self.height
                    ),
                );
            }
            let treasury = n.treasury.unwrap_or(rs.limits.start_treasury);
            if treasury < 0 {
                return fail(entry, "treasury must not be negative");
            }
            nations.push((n.name.clone(), n.color.clone(), Pos::new(sx, sy), treasury));
        }
        let owner_of = |entry: &str, name: &str| -> Result<usize, MapError> {
            nation_index
                .get(name)
                .copied()
                .map_or_else(|| fail(entry, format!("unknown nation `{name}`")), Ok)
        };
        let mut town_index = HashMap::new();
        let mut towns = Vec::new();
        for (i, t) in self.towns.iter().enumerate() {
            let entry = format!("towns[{i}] ({})", t.name);
            place_name(&entry, "town", &t.name)?;
            if town_index.insert(t.name.clone(), i).is_some() {
                return fail(entry, format!("duplicate town `{}`", t.name));
            }
            let owner = t
                .owner
                .as_deref()
                .map(|o| owner_of(&entry, o))
                .transpose()?;
            towns.push((t.name.clone(), owner));
        }
        if self.castles.len() > MAX_CASTLES {
            return fail(
                "castles",
                format!(
                    "a world has at most {MAX_CASTLES} castles (got {})",
                    self.castles.len()
                ),
            );
        }
        let mut castle_index = HashMap::new();
        for (i, c) in self.castles.iter().enumerate() {
            let entry = format!("castles[{i}] ({})", c.name);
            place_name(&entry, "castle", &c.name)?;
            if castle_index.insert(c.name.clone(), i).is_some() {
                return fail(entry, format!("duplicate castle `{}`", c.name));
            }
        }
        let mut seen = HashSet::new();
        let mut cells = Vec::with_capacity(self.cells.len());
        for (i, c) in self.cells.iter().enumerate() {
            let entry = format!("cells[{i}] ({}, {})", c.x, c.y);
            let pos = Pos::new(c.x, c.y);
            if !bounds.contains(pos) {
                return fail(
                    entry,
                    format!("outside the {}×{} map", self.width, self.height),
                );
            }
            if !seen.insert(pos) {
                return fail(entry, "duplicate cell");
            }
            let terrain = c
                .terrain
                .parse::<Terrain>()
                .or_else(|_| fail(&entry, format!("unknown terrain `{}`", c.terrain)))?;
            let tr = rs.terrain(terrain);
            let town = match &c.town {
                Some(name) => Some(
                    town_index
                        .get(name)
                        .copied()
                        .map_or_else(|| fail(&entry, format!("unknown town `{name}`")), Ok)?,
                ),
                None => None,
            };
            let owner = match &c.owner {
                Some(Some(name)) => Some(owner_of(&entry, name)?),
                Some(None) => None,
                None => town.and_then(|t| towns[t].1),
            };
            if owner.is_some() && !tr.has(Flag::Ownable) {
                return fail(entry, format!("{terrain} cannot have an owner"));
            }
            let structure = match (c.structure, tr.structure) {
                (Some(s), Some(max)) if (0..=max).contains(&s) => Some(s),
                (Some(s), Some(max)) => {
                    return fail(
                        entry,
                        format!("structure {s} is outside 0..={max} for {terrain}"),
                    )
                }
                (Some(_), None) => return fail(entry, format!("{terrain} has no structure")),
                (None, max) => max,
            };
            let castle = match &c.castle {
                Some(name) => Some(
                    castle_index
                        .get(name)
                        .copied()
                        .map_or_else(|| fail(&entry, format!("unknown castle `{name}`")), Ok)?,
                ),
                None => None,
            };
            cells.push(ValidCell {
                pos,
                terrain,
                town,
                owner,
                structure,
                castle,
            });
        }
        let victory = self.victory.unwrap_or_default();
        victory.check("victory")?;
        let edges = self.valid_edges(bounds)?;
        // Each castle's cells, gathered in one pass over the cells.
        let mut castle_cells: Vec<Vec<(Pos, Terrain)>> = vec![Vec::new(); self.castles.len()];
        for c in &cells {
            if let Some(k) = c.castle {
                castle_cells[k].push((c.pos, c.terrain));
                if castle_cells[k].len() > MAX_CASTLE_CELLS {
                    return fail(
                        format!("castles[{k}] ({})", self.castles[k].name),
                        format!("a castle has at most {MAX_CASTLE_CELLS} cells"),
                    );
                }
            }
        }
        let sections = castle_cells
            .iter()
            .enumerate()
            .flat_map(|(k, cells)| {
                crate::rules::castle::sections(rs, cells)
                    .into_iter()
                    .map(move |s| (k, s))
            })
            .collect();
        Ok(ValidMap {
            name: name.to_string(),
            bounds,
            season,
            rng_seed: self.rng_seed,
            nations,
            towns,
            cells,
            victory,
            castles: self.castles.iter().map(|c| c.name.clone()).collect(),
            sections,
            edges,
        })
    }

    /// The edges: a side of the map's grid between two cells of the map, a known feature, each
    /// edge once (from either of its cells).
    fn valid_edges(&self, bounds: Bounds) -> Result<Vec<ValidEdge>, MapError> {
        let grid = bounds.grid;
        let mut seen = HashSet::new();
        let mut edges = Vec::with_capacity(self.edges.len());
        for (i, e) in self.edges.iter().enumerate() {
            let entry = format!("edges[{i}] ({}, {}, {})", e.x, e.y, e.side);
            let pos = Pos::new(e.x, e.y);
            if !bounds.contains(pos) {
                return fail(
                    entry,
                    format!("outside the {}×{} map", self.width, self.height),
                );
            }
            let names: Vec<&str> = grid.sides().iter().map(|s| s.as_str()).collect();
            let side = Side::on(&e.side, grid).map_or_else(
                || {
                    fail(
                        &entry,
                        format!(
                            "`{}` is no side of a {} cell ({})",
                            e.side,
                            grid.as_str(),
                            names.join(" ")
                        ),
                    )
                },
                Ok,
            )?;
            if !bounds.contains(grid.across(pos, side)) {
                return fail(entry, "the side is on the map's border: no cell across it");
            }
            let feature = e.feature.parse::<EdgeFeature>().or_else(|_| {
                fail(
                    &entry,
                    format!("unknown edge feature `{}` (rampart)", e.feature),
                )
            })?;
            let (pos, side) = grid.canonical(pos, side);
            if !seen.insert((pos, side)) {
                return fail(
                    entry,
                    "this edge is given twice (once from each of its cells?)",
                );
            }
            edges.push(ValidEdge { pos, side, feature });
        }
        Ok(edges)
    }
}

impl ValidMap {
    /// The map file this map was read from, as the exporter would write it: kept when a
    /// campaign begins, so that the next one starts from the map as it was drawn.
    pub fn to_file(&self) -> MapFile {
        let nation = |i: usize| self.nations[i].0.clone();
        MapFile {
            name: self.name.clone(),
            width: self.bounds.width,
            height: self.bounds.height,
            grid: (self.bounds.grid != Grid::Square).then(|| self.bounds.grid.as_str().to_string()),
            season: self.season.as_str().to_string(),
            rng_seed: None,
            nations: self
                .nations
                .iter()
                .map(|(name, color, spawn, treasury)| MapNation {
                    name: name.clone(),
                    color: color.clone(),
                    spawn: Some([spawn.x, spawn.y]),
                    treasury: Some(*treasury),
                })
                .collect(),
            towns: self
                .towns
                .iter()
                .map(|(name, owner)| MapTown {
                    name: name.clone(),
                    owner: owner.map(nation),
                })
                .collect(),
            cells: self
                .cells
                .iter()
                // Unlisted cells are plain.
                .filter(|c| {
                    c.terrain != Terrain::Plain
                        || c.town.is_some()
                        || c.owner.is_some()
                        || c.structure.is_some()
                        || c.castle.is_some()
                })
                .map(|c| MapCell {
                    x: c.pos.x,
                    y: c.pos.y,
                    terrain: c.terrain.as_str().to_string(),
                    town: c.town.map(|t| self.towns[t].0.clone()),
                    // A town cell says its owner, or that it has none, so that it does not
                    // take its town's.
                    owner: match (c.town, c.owner) {
                        (_, Some(o)) => Some(Some(nation(o))),
                        (Some(_), None) => Some(None),
                        (None, None) => None,
                    },
                    structure: c.structure,
                    castle: c.castle.map(|k| self.castles[k].clone()),
                })
                .collect(),
            castles: self
                .castles
                .iter()
                .map(|name| MapCastle { name: name.clone() })
                .collect(),
            victory: (self.victory != MapVictory::default()).then_some(self.victory),
            edges: self
                .edges
                .iter()
                .map(|e| MapEdge {
                    x: e.pos.x,
                    y: e.pos.y,
                    side: e.side.as_str().to_string(),
                    feature: e.feature.as_str().to_string(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> MapFile {
        parse(include_str!("../../../config/worlds/demo.json")).unwrap()
    }

    #[test]
    fn the_demo_map_is_valid_and_has_every_terrain() {
        let v = base().validate(&Ruleset::shipped()).unwrap();
        let terrains: HashSet<Terrain> = v.cells.iter().map(|c| c.terrain).collect();
        for t in Terrain::ALL.iter().filter(|t| **t != Terrain::Plain) {
            assert!(terrains.contains(t), "{t} missing from the demo");
        }
        assert_eq!((v.bounds.width, v.bounds.height), (40, 30));
    }

    #[test]
    fn each_refusal_names_its_entry() {
        let rs = Ruleset::shipped();
        type Change = Box<dyn Fn(&mut MapFile)>;
        let cases: Vec<(Change, &str)> = vec![
            (Box::new(|m| m.cells[0].terrain = "lava".into()), "cells[0]"),
            (Box::new(|m| m.cells[1].x = 40), "cells[1]"),
            (Box::new(|m| m.cells[2] = m.cells[1].clone()), "cells[2]"),
            (
                Box::new(|m| m.cells[3].town = Some("Atlantis".into())),
                "cells[3]",
            ),
            (
                Box::new(|m| m.towns[0].owner = Some("Prussia".into())),
                "towns[0]",
            ),
            (
                Box::new(|m| m.nations[1].color = "green".into()),
                "nations[1]",
            ),
            (Box::new(|m| m.nations[0].spawn = None), "nations[0]"),
            (Box::new(|m| m.season = "autumn".into()), "season"),
            (
                Box::new(|m| {
                    m.victory = Some(MapVictory {
                        points: Some(0),
                        ..Default::default()
                    })
                }),
                "victory.points",
            ),
            (
                Box::new(|m| {
                    m.victory = Some(MapVictory {
                        end_turn: Some(-1),
                        ..Default::default()
                    })
                }),
                "victory.end_turn",
            ),
            (
                Box::new(|m| {
                    m.victory = Some(MapVictory {
                        towns_share: Some(1.5),
                        ..Default::default()
                    })
                }),
                "victory.towns_share",
            ),
        ];
        for (change, entry) in cases {
            let mut m = base();
            change(&mut m);
            let e = m.validate(&rs).unwrap_err();
            assert!(e.entry.starts_with(entry), "{e} should name {entry}");
        }
    }

    /// A map of `n` castles, each one tower on a row of its own world.
    fn towers(n: usize) -> MapFile {
        let mut m = base();
        m.width = 4;
        m.height = n as i32 + 1;
        m.cells.clear();
        m.towns.clear();
        for (i, nation) in m.nations.iter_mut().enumerate() {
            nation.spawn = Some([i as i32, 0]);
        }
        m.castles = (0..n)
            .map(|i| MapCastle {
                name: format!("c{i}"),
            })
            .collect();
        m.cells = (0..n)
            .map(|i| MapCell {
                x: 2,
                y: i as i32 + 1,
                terrain: "tower".into(),
                town: None,
                owner: None,
                structure: None,
                castle: Some(format!("c{i}")),
            })
            .collect();
        m
    }

    #[test]
    fn castles_are_counted_and_each_gets_its_own_cells() {
        let rs = Ruleset::shipped();
        let valid = towers(MAX_CASTLES).validate(&rs).unwrap();
        assert_eq!(valid.sections.len(), MAX_CASTLES);
        // Castle k's one section is its own tower, on row k + 1.
        for (k, s) in &valid.sections {
            assert_eq!(s.cells, vec![Pos::new(2, *k as i32 + 1)]);
        }
        let e = towers(MAX_CASTLES + 1).validate(&rs).unwrap_err();
        assert_eq!(e.entry, "castles");
        let mut big = towers(1);
        big.width = 200;
        big.height = 200;
        big.cells = (0..=MAX_CASTLE_CELLS as i32)
            .map(|i| MapCell {
                x: i % 200,
                y: i / 200,
                terrain: "plain".into(),
                town: None,
                owner: None,
                structure: None,
                castle: Some("c0".into()),
            })
            .collect();
        let e = big.validate(&rs).unwrap_err();
        assert!(e.entry.starts_with("castles[0]"), "{e}");
        assert!(e.message.contains("at most"), "{e}");
    }

    #[test]
    fn a_town_cell_takes_its_towns_owner_unless_told_otherwise() {
        let text = r##"{"name":"t","width":3,"height":1,"nations":[{"name":"A","color":"#000000","spawn":[0,0]}],
            "towns":[{"name":"T","owner":"A"}],
            "cells":[{"x":1,"y":0,"terrain":"church","town":"T"},{"x":2,"y":0,"terrain":"village","town":"T","owner":null}]}"##;
        let v = parse(text).unwrap().validate(&Ruleset::shipped()).unwrap();
        assert_eq!(v.cells[0].owner, Some(0));
        assert_eq!(v.cells[1].owner, None);
    }

    #[test]
    fn a_valid_map_written_back_reads_as_the_same_map() {
        let rs = Ruleset::shipped();
        let mut m = base();
        m.victory = Some(MapVictory {
            points: Some(500),
            end_turn: Some(40),
            towns_share: None,
        });
        let v = m.validate(&rs).unwrap();
        let again = v.to_file().validate(&rs).unwrap();
        assert_eq!(again.victory.points, Some(500));
        assert_eq!(again.victory.end_turn, Some(40));
        assert_eq!(
            again,
            ValidMap {
                rng_seed: again.rng_seed,
                ..v
            }
        );
    }

    #[test]
    fn unknown_victory_keys_are_refused() {
        let text = r##"{"name":"t","width":3,"height":1,"nations":[{"name":"A","color":"#000000","spawn":[0,0]}],
            "victory":{"pointz":3}}"##;
        assert!(parse(text).is_err());
    }
}
