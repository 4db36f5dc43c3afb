//! The map as the SVG partial draws it: cells with their terrain class, owner colour,
//! structure, town labels, and the legend.

use crate::db::models::{CellRow, Nation, Town};
use crate::rules::{Ruleset, Season, Terrain};
use serde::Serialize;
use std::collections::HashMap;

#[derive(Serialize)]
pub struct CellView {
    pub x: i32,
    pub y: i32,
    pub px: i32,
    pub py: i32,
    pub terrain: String,
    pub owner: Option<String>,
    pub owner_color: Option<String>,
    pub town: Option<String>,
    /// Structure as a fraction of the terrain's maximum, in percent.
    pub structure_pct: Option<i32>,
    pub structure: Option<i32>,
    pub fog: bool,
    /// Where clicking the cell leads (the same page with the cell selected).
    pub href: Option<String>,
}

#[derive(Serialize)]
pub struct Label {
    pub name: String,
    pub px: i32,
    pub py: i32,
}

#[derive(Serialize)]
pub struct MapView {
    pub cell: i32,
    pub x0: i32,
    pub y0: i32,
    pub cols: i32,
    pub rows: i32,
    pub width_px: i32,
    pub height_px: i32,
    pub cells: Vec<CellView>,
    pub labels: Vec<Label>,
    pub units: Vec<UnitView>,
    /// Links on the four edges that pan the view (none on the whole-map view).
    pub pan: Option<Pan>,
    pub selected: Option<(i32, i32)>,
}

#[derive(Serialize)]
pub struct Pan {
    pub north: Option<String>,
    pub south: Option<String>,
    pub west: Option<String>,
    pub east: Option<String>,
}

/// A company drawn on the map.
#[derive(Serialize)]
pub struct UnitView {
    pub id: i32,
    pub name: String,
    pub kind: String,
    pub nation: String,
    pub x: i32,
    pub y: i32,
    pub cx: i32,
    pub cy: i32,
    pub color: String,
    pub letter: String,
    pub mine: bool,
    pub selected: bool,
    pub men: Option<i32>,
    pub ap: Option<i32>,
    pub men_pct: i32,
    pub ap_pct: i32,
    pub href: Option<String>,
}

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

/// Builds the drawing of `rows` (a rectangle starting at x0, y0); `fogged` says which cells
/// the viewer does not see.
#[allow(clippy::too_many_arguments)]
pub fn build(
    rs: &Ruleset,
    cell_px: i32,
    (x0, y0, cols, rows_n): (i32, i32, i32, i32),
    rows: &[CellRow],
    nations: &[Nation],
    towns: &[Town],
    fogged: impl Fn(i32, i32) -> bool,
    href: impl Fn(i32, i32) -> Option<String>,
) -> MapView {
    let nation: HashMap<i32, &Nation> = nations.iter().map(|n| (n.id, n)).collect();
    let town: HashMap<i32, &Town> = towns.iter().map(|t| (t.id, t)).collect();
    let mut labels = Vec::new();
    let cells = rows
        .iter()
        .map(|r| {
            let terrain: Terrain = r.terrain.parse().unwrap_or(Terrain::Plain);
            let (px, py) = ((r.x - x0) * cell_px, (r.y - y0) * cell_px);
            let town_name = r.town_id.and_then(|t| town.get(&t)).map(|t| t.name.clone());
            if terrain == Terrain::Church {
                if let Some(name) = &town_name {
                    labels.push(Label {
                        name: name.clone(),
                        px: px + cell_px / 2,
                        py: py - 3,
                    });
                }
            }
            let max = rs.terrain(terrain).structure;
            CellView {
                x: r.x,
                y: r.y,
                px,
                py,
                terrain: r.terrain.clone(),
                owner: r
                    .owner_id
                    .and_then(|o| nation.get(&o))
                    .map(|n| n.name.clone()),
                owner_color: r
                    .owner_id
                    .and_then(|o| nation.get(&o))
                    .map(|n| n.color.clone()),
                town: town_name,
                structure_pct: max.map(|m| r.structure.unwrap_or(0) * 100 / m.max(1)),
                structure: r.structure,
                fog: fogged(r.x, r.y),
                href: href(r.x, r.y),
            }
        })
        .collect();
    MapView {
        cell: cell_px,
        x0,
        y0,
        cols,
        rows: rows_n,
        width_px: cols * cell_px,
        height_px: rows_n * cell_px,
        cells,
        labels,
        units: Vec::new(),
        pan: None,
        selected: None,
    }
}

/// The letter drawn on a company's token.
pub fn letter(kind: &str) -> String {
    match kind {
        "voltigeurs" => "V",
        "cavalry" => "C",
        "artillery" => "A",
        "sappers" => "S",
        _ => "I",
    }
    .to_string()
}
