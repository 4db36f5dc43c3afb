//! A castle's sections (docs/rules.md §12): each tower, each gate, each run of wall between
//! them, and the courtyard cut into four quarters by the middle of its bounding box; and who
//! holds each: the one nation with companies in it.

use super::grid::Pos;
use super::names::Terrain;
use super::ruleset::{Flag, Ruleset};
use super::state::NationId;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SectionKind {
    Tower,
    Gate,
    Wall,
    Courtyard,
}

impl SectionKind {
    pub const ALL: [SectionKind; 4] = [
        SectionKind::Tower,
        SectionKind::Gate,
        SectionKind::Wall,
        SectionKind::Courtyard,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SectionKind::Tower => "tower",
            SectionKind::Gate => "gate",
            SectionKind::Wall => "wall",
            SectionKind::Courtyard => "courtyard",
        }
    }
}

impl std::str::FromStr for SectionKind {
    type Err = super::names::UnknownName;
    fn from_str(s: &str) -> Result<SectionKind, Self::Err> {
        SectionKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| super::names::UnknownName {
                what: "section kind",
                name: s.to_string(),
            })
    }
}

/// One section: its kind, a name within its castle (`tower 1`, `wall 2`, `courtyard NW`),
/// and its cells in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Section {
    pub kind: SectionKind,
    pub name: String,
    pub cells: Vec<Pos>,
}

/// The sections of one castle from its cells. Towers and gates are sections of one cell;
/// wall and fortified wall cells joined side by side make a run; the courtyard's ground
/// (courtyard and buildings, and any other cell of the castle that is no wall) is cut into
/// quarters by the middle of its bounding box. Cells are read in row order, so the same
/// castle always gives the same sections with the same names.
pub fn sections(rs: &Ruleset, cells: &[(Pos, Terrain)]) -> Vec<Section> {
    let mut sorted: Vec<(Pos, Terrain)> = cells.to_vec();
    sorted.sort_by_key(|(p, _)| (p.y, p.x));
    let has = |t: Terrain, f: Flag| rs.terrain(t).has(f);
    let mut out: Vec<Section> = Vec::new();
    let mut count: BTreeMap<SectionKind, usize> = BTreeMap::new();
    let mut push = |kind: SectionKind, cells: Vec<Pos>, out: &mut Vec<Section>| {
        let n = count.entry(kind).or_insert(0);
        *n += 1;
        out.push(Section {
            kind,
            name: format!("{} {}", kind.as_str(), n),
            cells,
        });
    };
    let is_run = |t: Terrain| has(t, Flag::Wall) && !has(t, Flag::Gate) && !has(t, Flag::Hooks);
    let walls: BTreeSet<(i32, i32)> = sorted
        .iter()
        .filter(|(_, t)| is_run(*t))
        .map(|(p, _)| (p.y, p.x))
        .collect();
    let mut seen: BTreeSet<(i32, i32)> = BTreeSet::new();
    for (p, t) in &sorted {
        if has(*t, Flag::Hooks) && has(*t, Flag::Wall) {
            push(SectionKind::Tower, vec![*p], &mut out);
        } else if has(*t, Flag::Gate) {
            push(SectionKind::Gate, vec![*p], &mut out);
        } else if is_run(*t) && !seen.contains(&(p.y, p.x)) {
            // The run: wall cells reached side by side (not corner to corner) from this one.
            let mut run = Vec::new();
            let mut todo = vec![(p.y, p.x)];
            seen.insert((p.y, p.x));
            while let Some((y, x)) = todo.pop() {
                run.push(Pos::new(x, y));
                for n in [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)] {
                    if walls.contains(&n) && seen.insert(n) {
                        todo.push(n);
                    }
                }
            }
            run.sort_by_key(|p| (p.y, p.x));
            push(SectionKind::Wall, run, &mut out);
        }
    }
    let ground: Vec<Pos> = sorted
        .iter()
        .filter(|(_, t)| !has(*t, Flag::Wall))
        .map(|(p, _)| *p)
        .collect();
    if let (Some(x0), Some(x1), Some(y0), Some(y1)) = (
        ground.iter().map(|p| p.x).min(),
        ground.iter().map(|p| p.x).max(),
        ground.iter().map(|p| p.y).min(),
        ground.iter().map(|p| p.y).max(),
    ) {
        // Twice the middle, so that an odd width splits on a cell boundary of whole numbers.
        let (mx, my) = (x0 + x1, y0 + y1);
        for (name, north, west) in [
            ("NW", true, true),
            ("NE", true, false),
            ("SW", false, true),
            ("SE", false, false),
        ] {
            let quarter: Vec<Pos> = ground
                .iter()
                .copied()
                .filter(|p| (2 * p.y <= my) == north && (2 * p.x <= mx) == west)
                .collect();
            if !quarter.is_empty() {
                out.push(Section {
                    kind: SectionKind::Courtyard,
                    name: format!("courtyard {name}"),
                    cells: quarter,
                });
            }
        }
    }
    out
}

/// Who holds a section: the one nation with companies on its cells, none if no one or
/// several are there.
pub fn holder(section: &[Pos], companies: &[(Pos, NationId)]) -> Option<NationId> {
    let mut there = companies
        .iter()
        .filter(|(p, _)| section.contains(p))
        .map(|(_, n)| *n);
    let first = there.next()?;
    there.all(|n| n == first).then_some(first)
}
