//! A map drawn cell by cell (by the generator or read from Tiled) before it becomes a map file.

use crate::game::maps::mapfile::{MapCastle, MapCell, MapFile, MapNation, MapTown};
use crate::rules::{Pos, Terrain};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SketchCell {
    pub terrain: Option<Terrain>,
    pub town: Option<String>,
    pub owner: Option<String>,
    pub structure: Option<i32>,
    /// The castle the cell belongs to (a Tiled tile's `castle` property).
    pub castle: Option<String>,
}

pub struct Sketch {
    pub name: String,
    pub width: i32,
    pub height: i32,
    pub season: String,
    pub seed: Option<i64>,
    pub nations: Vec<MapNation>,
    pub cells: Vec<SketchCell>,
    pub grid: crate::rules::Grid,
}

/// Colours for nations that do not bring their own.
pub const PALETTE: [&str; 8] = [
    "#2b4c9b", "#2e7d32", "#b71c1c", "#f9a825", "#6a1b9a", "#00838f", "#5d4037", "#37474f",
];

impl Sketch {
    pub fn new(name: &str, width: i32, height: i32) -> Sketch {
        Sketch {
            name: name.to_string(),
            width,
            height,
            season: "summer".into(),
            seed: None,
            nations: Vec::new(),
            cells: vec![SketchCell::default(); (width.max(0) * height.max(0)) as usize],
            grid: crate::rules::Grid::Square,
        }
    }

    fn index(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height)
            .then(|| (p.y * self.width + p.x) as usize)
    }

    pub fn get(&self, p: Pos) -> Option<&SketchCell> {
        self.index(p).map(|i| &self.cells[i])
    }

    pub fn get_mut(&mut self, p: Pos) -> Option<&mut SketchCell> {
        self.index(p).map(|i| &mut self.cells[i])
    }

    pub fn terrain(&self, p: Pos) -> Terrain {
        self.get(p)
            .and_then(|c| c.terrain)
            .unwrap_or(Terrain::Plain)
    }

    pub fn set(&mut self, p: Pos, t: Terrain) {
        if let Some(c) = self.get_mut(p) {
            c.terrain = Some(t);
        }
    }

    /// The map file: plain unlabelled cells left out, towns gathered from the cells, each
    /// town owned by whoever owns its church.
    pub fn into_mapfile(self) -> MapFile {
        let mut towns: BTreeMap<String, Option<String>> = BTreeMap::new();
        let mut castles: Vec<String> = Vec::new();
        // Castles in the order met, each once: looked up in a set, as a map may name thousands.
        let mut named: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut cells = Vec::new();
        for (i, c) in self.cells.iter().enumerate() {
            let (x, y) = (i as i32 % self.width, i as i32 / self.width);
            if let Some(t) = &c.town {
                let entry = towns.entry(t.clone()).or_insert(None);
                if c.terrain == Some(Terrain::Church) && c.owner.is_some() {
                    *entry = c.owner.clone();
                }
            }
            if let Some(k) = c.castle.as_deref().filter(|k| named.insert(k)) {
                castles.push(k.to_string());
            }
            if c.terrain.is_none_or(|t| t == Terrain::Plain)
                && c.town.is_none()
                && c.owner.is_none()
                && c.castle.is_none()
            {
                continue;
            }
            cells.push(MapCell {
                x,
                y,
                terrain: c.terrain.unwrap_or(Terrain::Plain).as_str().to_string(),
                town: c.town.clone(),
                owner: c.owner.clone().map(Some),
                structure: c.structure,
                castle: c.castle.clone(),
            });
        }
        MapFile {
            name: self.name,
            width: self.width,
            height: self.height,
            season: self.season,
            rng_seed: self.seed,
            nations: self.nations,
            towns: towns
                .into_iter()
                .map(|(name, owner)| MapTown { name, owner })
                .collect(),
            cells,
            castles: castles.into_iter().map(|name| MapCastle { name }).collect(),
            victory: None,
            grid: (self.grid != crate::rules::Grid::Square).then(|| self.grid.as_str().to_string()),
            edges: Vec::new(),
        }
    }
}
