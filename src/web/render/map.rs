//! The map's SVG as both map pages draw it, written straight into a string (a template loop
//! over hundreds of cells cost most of the page's time).

use crate::db::models::Nation;
use crate::game::play::load::Placed;
use crate::game::play::views::{MapCell, PlayerMap, Seen};
use crate::i18n::{tr, Lang};
use crate::ids::CompanyId;
use crate::ids::NationId;
use crate::rules::{Grid, Kind, Ruleset, Terrain};
use fluent_bundle::FluentValue;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

pub use super::escape;
use super::viewport::{Geometry, Pan, Viewport};

pub struct CellView {
    pub x: i32,
    pub y: i32,
    pub px: i32,
    pub py: i32,
    pub terrain: Terrain,
    pub owner: Option<String>,
    pub owner_color: Option<String>,
    pub town: Option<String>,
    /// Structure as a fraction of the terrain's maximum, in percent.
    pub structure_pct: Option<i32>,
    pub structure: Option<i32>,
    /// A siege tower: finished (true) or being built (false).
    pub siege_tower: Option<bool>,
    pub fog: bool,
}

pub struct Label {
    pub name: String,
    pub px: i32,
    pub py: i32,
    /// A castle's name rather than a town's.
    pub castle: bool,
}

pub struct MapView {
    pub cell: i32,
    pub x0: i32,
    pub y0: i32,
    pub cols: i32,
    pub rows: i32,
    pub width_px: i32,
    pub height_px: i32,
    pub cells: Vec<CellView>,
    /// A cell's link is this followed by `x,y` (none: cells are not links).
    pub cell_href: Option<String>,
    pub labels: Vec<Label>,
    pub units: Vec<UnitView>,
    /// Links on the four edges that pan the view (none on the whole-map view).
    pub pan: Option<Pan>,
    pub selected: Option<(i32, i32)>,
    /// A move's planned steps, from the company's cell, drawn as a line under the companies.
    pub path: Vec<(i32, i32)>,
    /// The words of the companies' tooltips, in the page's language.
    pub words: &'static MapWords,
    /// Draw every cell (the editor paints them one by one). Otherwise plain cells with nothing
    /// on them are one ground pattern under the view and the fog one band per run of cells;
    /// the page's script finds a cell from where the map was clicked.
    pub every_cell: bool,
    /// Without `every_cell`: the fog of the cells not in `cells`, one flag a cell of the view,
    /// row by row (empty: the cells say it all).
    pub fog: Vec<bool>,
    /// The viewer's nation's markers in the view: where, and their labels.
    pub markers: Vec<((i32, i32), String)>,
    /// The world's grid: squares, or hexes (docs/rules.md §13).
    pub grid: Grid,
    /// Ramparts on cell sides in the view, each under its one name.
    pub edges: Vec<(i32, i32, crate::rules::Side)>,
    /// The attack the page reports, drawn where it struck for a moment.
    pub hit: Option<Hit>,
    /// The castle sections in view.
    pub sections: Vec<SectionMark>,
}

/// A castle section on the map: outlined while the pointer is over it or one of its cells is
/// picked, named in its tooltip.
#[derive(Clone, Debug)]
pub struct SectionMark {
    /// "Castle Mozhaisk: wall 2", in the page's language.
    pub label: String,
    /// Its cells in view.
    pub cells: Vec<(i32, i32)>,
    /// One of its cells is picked.
    pub on: bool,
}

/// An attack as the map shows it just after: a ring on the attacker, the losses on the target.
#[derive(Clone, Debug)]
pub struct Hit {
    pub from: (i32, i32),
    pub at: (i32, i32),
    /// The target's men put out of action, and the attacker's.
    pub inflicted: i32,
    pub suffered: i32,
}

/// The words the drawing says: a company's kind, "on leave", its men and AP, the panning
/// edges; looked up once a page, not once a company.
pub struct MapWords {
    lang: Lang,
    /// Each kind's name, in `Kind::ALL` order.
    kinds: Vec<String>,
    on_leave: String,
    /// North, south, west, east.
    pan: [String; 4],
}

impl MapWords {
    /// The words in `lang`, looked up once for the life of the process.
    pub fn of(lang: Lang) -> &'static MapWords {
        static WORDS: std::sync::OnceLock<[MapWords; 2]> = std::sync::OnceLock::new();
        let all = WORDS.get_or_init(|| Lang::ALL.map(MapWords::new));
        all.iter().find(|w| w.lang == lang).unwrap_or(&all[0])
    }

    fn new(lang: Lang) -> MapWords {
        MapWords {
            lang,
            kinds: Kind::ALL
                .iter()
                .map(|k| tr(lang, &format!("kind-{}", k.as_str()), &[]))
                .collect(),
            on_leave: tr(lang, "unit-on-leave", &[]),
            pan: ["pan-north", "pan-south", "pan-west", "pan-east"].map(|k| tr(lang, k, &[])),
        }
    }

    /// A kind's name.
    pub fn kind(&self, kind: Kind) -> &str {
        &self.kinds[kind.index()]
    }
}

/// A kind as the page's script draws a company of it: its name, its letter, and what its bars
/// are measured against.
#[derive(Serialize)]
struct KindMark<'a> {
    name: &'a str,
    letter: &'static str,
    full_strength: i32,
    max_ap: i32,
}

/// What static/app.js needs to draw a company the live stream brings as
/// [`MapView::unit_svg`] draws it, in the page's language.
#[derive(Serialize)]
pub struct Marks<'a> {
    kinds: BTreeMap<&'static str, KindMark<'a>>,
    on_leave: &'a str,
    /// The tooltip's figures, `{men}` and `{ap}` standing for the numbers.
    figures: String,
    /// The nations' names as the language says them.
    nations: BTreeMap<&'a str, String>,
}

impl MapWords {
    /// The words and figures to draw companies of these nations with, as the server does.
    pub fn marks<'a>(&'a self, rs: &Ruleset, nations: &'a [Nation]) -> Marks<'a> {
        let figures = [
            ("men", FluentValue::from("{men}")),
            ("ap", FluentValue::from("{ap}")),
        ];
        Marks {
            kinds: Kind::ALL
                .iter()
                .map(|k| {
                    let rules = rs.kind(*k);
                    let mark = KindMark {
                        name: self.kind(*k),
                        letter: letter(*k),
                        full_strength: rules.full_strength,
                        max_ap: rules.max_ap,
                    };
                    (k.as_str(), mark)
                })
                .collect(),
            on_leave: &self.on_leave,
            figures: tr(self.lang, "company-line", &figures),
            nations: nations
                .iter()
                .map(|n| {
                    let name = crate::i18n::proper_name(self.lang, &n.name);
                    (n.name.as_str(), name)
                })
                .collect(),
        }
    }
}

/// A company drawn on the map.
pub struct UnitView {
    pub id: CompanyId,
    pub name: String,
    pub kind: Kind,
    pub nation: String,
    pub x: i32,
    pub y: i32,
    pub cx: i32,
    pub cy: i32,
    pub color: String,
    pub letter: &'static str,
    pub mine: bool,
    /// Of the viewer's nation: never drawn as an enemy.
    pub friend: bool,
    pub selected: bool,
    pub on_leave: bool,
    pub men: Option<i32>,
    pub ap: Option<i32>,
    pub men_pct: i32,
    pub ap_pct: i32,
    pub href: Option<String>,
}

impl UnitView {
    /// A company as the map draws it: its bars are its men and AP against its kind's full
    /// strength and most AP (figures only the viewer's own companies show).
    pub fn of(
        rs: &Ruleset,
        vp: &Viewport,
        (p, seen): &(Placed, Seen),
        nation: Option<&Nation>,
        href: Option<String>,
    ) -> UnitView {
        let c = &p.company;
        let k = rs.kind(c.kind);
        let (cx, cy) = vp.pixel_centre(c.x, c.y);
        let (men, ap) = (seen.figures.then_some(c.men), seen.figures.then_some(c.ap));
        let pct = |v: Option<i32>, of: i32| v.map_or(0, |v| (v * 100 / of.max(1)).clamp(0, 100));
        UnitView {
            id: c.id,
            name: c.name.clone(),
            kind: c.kind,
            nation: nation.map(|n| n.name.clone()).unwrap_or_default(),
            x: c.x,
            y: c.y,
            cx,
            cy,
            color: nation.map_or_else(|| "#000000".into(), |n| n.color.clone()),
            letter: letter(c.kind),
            mine: seen.mine,
            friend: seen.friend,
            selected: false,
            on_leave: seen.on_leave,
            men,
            ap,
            men_pct: pct(men, k.full_strength),
            ap_pct: pct(ap, k.max_ap),
            href,
        }
    }
}

fn num(o: &mut String, n: i32) {
    o.push_str(itoa::Buffer::new().format(n));
}

/// ` name="n"`
fn attr(o: &mut String, name: &str, n: i32) {
    o.push(' ');
    o.push_str(name);
    o.push_str("=\"");
    num(o, n);
    o.push('"');
}

/// ` x="…" y="…" width="…" height="…"`
fn rect_attrs(o: &mut String, x: i32, y: i32, w: i32, h: i32) {
    attr(o, "x", x);
    attr(o, "y", y);
    attr(o, "width", w);
    attr(o, "height", h);
}

/// Writes `<a href="…` with the link escaped; the caller closes the attribute.
fn open_link(o: &mut String, href: &str) {
    o.push_str("<a href=\"");
    escape(o, href);
}

/// The map's frame as a page's template and script read it: its size, its cells' size and
/// grid, and for the scripts the whole [`Layout`].
#[derive(Serialize)]
struct Frame {
    width_px: i32,
    height_px: i32,
    cell: i32,
    grid: Grid,
    /// The view's layout (`viewport::Layout`) as JSON, written here rather than by the
    /// template's `json_encode` after a trip through its context, which cost more (measured).
    layout: String,
}

/// Where a page's template prints `map_svg`: the drawing is written there after the template
/// is rendered, instead of being copied through the template engine.
pub const MARK: &str = "<!--map-->";

/// Where a page's template prints `legend`: the legend, written once for each language and
/// season, is copied there after the template is rendered, as the drawing is.
pub const LEGEND_MARK: &str = "<!--legend-->";

impl MapView {
    /// Where the drawing's cells lie.
    fn geo(&self) -> Geometry {
        Geometry {
            x0: self.x0,
            y0: self.y0,
            cols: self.cols,
            rows: self.rows,
            cell: self.cell,
            grid: self.grid,
        }
    }

    /// Puts the map into a page's context: `map` for the frame's sizes, `map_svg` and `legend`
    /// for where the drawing and the legend go (see [`MapView::write_into`]).
    pub fn insert_into(&self, ctx: &mut tera::Context) {
        ctx.insert(
            "map",
            &Frame {
                width_px: self.width_px,
                height_px: self.height_px,
                cell: self.cell,
                grid: self.grid,
                layout: serde_json::to_string(&self.geo().layout()).unwrap_or_default(),
            },
        );
        ctx.insert("map_svg", MARK);
        ctx.insert("legend", LEGEND_MARK);
    }

    /// A rendered page with the drawing written where the template printed `map_svg`, and
    /// `legend` where it printed `legend`.
    pub fn write_into(&self, page: String, legend: &str) -> String {
        let Some(at) = page.find(MARK) else {
            return page;
        };
        let mut o = String::with_capacity(page.len() + self.size_hint() + legend.len());
        let legend_at = |from: usize| page[from..].find(LEGEND_MARK).map(|i| from + i);
        // The legend is after the map on both map pages; before it, it is written all the same.
        match legend_at(0).filter(|l| *l < at) {
            Some(l) => {
                o.push_str(&page[..l]);
                o.push_str(legend);
                o.push_str(&page[l + LEGEND_MARK.len()..at]);
                self.write_svg(&mut o);
                o.push_str(&page[at + MARK.len()..]);
            }
            None => {
                o.push_str(&page[..at]);
                self.write_svg(&mut o);
                let rest = at + MARK.len();
                match legend_at(rest) {
                    Some(l) => {
                        o.push_str(&page[rest..l]);
                        o.push_str(legend);
                        o.push_str(&page[l + LEGEND_MARK.len()..]);
                    }
                    None => o.push_str(&page[rest..]),
                }
            }
        }
        o
    }

    /// About the drawing's size: its cells, the fog's bands (a couple a row, without
    /// `every_cell`), its companies.
    fn size_hint(&self) -> usize {
        let fog = if self.every_cell {
            0
        } else {
            self.rows.max(0) as usize * 120
        };
        self.cells.len() * 150 + fog + self.units.len() * 500 + self.markers.len() * 200 + 2048
    }

    /// The inside of the map's `<svg>` element.
    pub fn svg(&self) -> String {
        let mut o = String::with_capacity(self.size_hint());
        self.write_svg(&mut o);
        o
    }

    /// Cells, companies, town names and pan edges. Keeps the markup the scripts and tests rely
    /// on (`g.cell[data-x][data-y]`, `rect.bg`, `g.unit[data-company]`). What every cell has in
    /// common is said once: the sizes of its rectangles in the style sheet (one rule per cell
    /// size, see [`cell_size_rule`]), its terrain's picture at this size in a `<use>` that the
    /// cells use in turn.
    fn write_svg(&self, o: &mut String) {
        let c = self.cell;
        o.push_str("<defs>");
        let pictures = Terrain::ALL
            .iter()
            .filter(|t| **t != Terrain::Plain)
            .map(|t| t.as_str())
            .chain(["breach", "siege"]);
        for t in pictures {
            o.push_str("<use id=\"c-");
            o.push_str(t);
            o.push_str("\" href=\"#s-");
            o.push_str(t);
            o.push('"');
            attr(o, "width", c);
            attr(o, "height", c);
            o.push_str("/>");
        }
        if self.grid == Grid::Hex {
            // One hexagon, drawn by every cell; and one a pixel inside it, for owners.
            let (w, h) = (f64::from(c), self.geo().height());
            let _ = write!(
                o,
                "<polygon id=\"hex\" points=\"{} 0 {w} {q} {w} {tq} {} {h} 0 {tq} 0 {q}\"/>\
                 <polygon id=\"hex-in\" points=\"{} 1 {} {q1} {} {tq1} {} {} 1 {tq1} 1 {q1}\"/>",
                w / 2.0,
                w / 2.0,
                w / 2.0,
                w - 1.0,
                w - 1.0,
                w / 2.0,
                h - 1.0,
                q = h / 4.0,
                tq = h * 3.0 / 4.0,
                q1 = h / 4.0 + 0.5,
                tq1 = h * 3.0 / 4.0 - 0.5,
            );
        }
        if !self.every_cell {
            o.push_str("<pattern id=\"ground\" patternUnits=\"userSpaceOnUse\"");
            match self.grid {
                Grid::Square => {
                    attr(o, "width", c);
                    attr(o, "height", c);
                    o.push_str(
                        "><g class=\"t-plain ground-tile\"><rect class=\"bg\"/></g></pattern>",
                    );
                }
                Grid::Hex => {
                    // Two rows of hexes repeat: every hex that reaches into the tile is in it,
                    // or its corners would show the page through.
                    let step = self.geo().step();
                    attr(o, "width", c);
                    attr(o, "height", 2 * step);
                    // The tile starts on an unshifted row: on a view whose first row is odd
                    // the tiling starts a row lower.
                    if self.y0 & 1 == 1 {
                        attr(o, "y", step);
                    }
                    o.push_str("><g class=\"t-plain ground-tile\">");
                    let half = c / 2;
                    for (x, y) in [
                        (0, 0),
                        (0, 2 * step),
                        (-half, -step),
                        (half, -step),
                        (-half, step),
                        (half, step),
                    ] {
                        o.push_str("<use class=\"bg\" href=\"#hex\"");
                        attr(o, "x", x);
                        attr(o, "y", y);
                        o.push_str("/>");
                    }
                    o.push_str("</g></pattern>");
                }
            }
        }
        o.push_str("</defs>\n");
        if !self.every_cell {
            o.push_str("<rect class=\"ground\" fill=\"url(#ground)\"");
            attr(o, "width", self.width_px);
            attr(o, "height", self.height_px);
            o.push_str("/>\n");
            self.fog_runs(o);
        }
        let href = self.cell_href.as_deref().map(|h| {
            let mut e = String::with_capacity(h.len() + 16);
            escape(&mut e, h);
            e
        });
        for v in &self.cells {
            if self.every_cell || !self.bare(v) {
                self.cell_svg(o, v, href.as_deref());
            }
        }
        self.path_svg(o);
        self.sections_svg(o);
        // Town names under the companies: a company standing in a town is not hidden by it.
        for l in &self.labels {
            o.push_str(if l.castle {
                "<text class=\"town-label castle-label\""
            } else {
                "<text class=\"town-label\""
            });
            attr(o, "x", l.px);
            attr(o, "y", l.py);
            o.push('>');
            escape(o, &l.name);
            o.push_str("</text>\n");
        }
        for u in &self.units {
            self.unit_svg(o, u);
        }
        self.edges_svg(o);
        self.markers_svg(o);
        self.hit_svg(o);
        if let Some(p) = &self.pan {
            let (w, h) = (self.width_px, self.height_px);
            let edges = [
                (&p.north, (0, 0, w, 8)),
                (&p.south, (0, h - 8, w, 8)),
                (&p.west, (0, 0, 8, h)),
                (&p.east, (w - 8, 0, 8, h)),
            ];
            for ((href, (x, y, ew, eh)), name) in edges.into_iter().zip(&self.words.pan) {
                if let Some(href) = href {
                    open_link(o, href);
                    o.push_str("\" class=\"pan-edge\" aria-label=\"");
                    escape(o, name);
                    let _ = write!(
                        o,
                        "\"><rect x=\"{x}\" y=\"{y}\" width=\"{ew}\" height=\"{eh}\"/></a>"
                    );
                }
            }
        }
    }

    /// Castle sections: each a group with its name, its cells' shapes (what the pointer is
    /// over: the grid's hexagon or a square) and its outline (the sides whose neighbour is not
    /// of the section), which the style sheet shows while the pointer is over a shape or a
    /// cell of it is picked.
    fn sections_svg(&self, o: &mut String) {
        let g = self.geo();
        for s in &self.sections {
            let cells: std::collections::HashSet<(i32, i32)> = s.cells.iter().copied().collect();
            o.push_str(if s.on {
                "<g class=\"section on\"><title>"
            } else {
                "<g class=\"section\"><title>"
            });
            escape(o, &s.label);
            o.push_str("</title>");
            for &(x, y) in &s.cells {
                let (px, py) = g.origin(x, y);
                match self.grid {
                    Grid::Square => {
                        let _ = write!(
                            o,
                            "<rect class=\"section-area\" x=\"{px}\" y=\"{py}\" width=\"{c}\" height=\"{c}\"/>",
                            c = self.cell
                        );
                    }
                    Grid::Hex => {
                        let _ = write!(
                            o,
                            "<use class=\"section-area\" href=\"#hex\" x=\"{px}\" y=\"{py}\"/>"
                        );
                    }
                }
            }
            o.push_str("<path class=\"section-line\" d=\"");
            for &(x, y) in &s.cells {
                for side in self.grid.sides() {
                    let next = self.grid.across(crate::rules::Pos::new(x, y), *side);
                    if !cells.contains(&(next.x, next.y)) {
                        side_path(o, &g, (x, y), *side);
                    }
                }
            }
            o.push_str("\"/></g>\n");
        }
    }

    /// Ramparts: a thick line along each side that carries one, all in one path.
    fn edges_svg(&self, o: &mut String) {
        if self.edges.is_empty() {
            return;
        }
        let g = self.geo();
        let mut d = String::new();
        for &(x, y, side) in &self.edges {
            side_path(&mut d, &g, (x, y), side);
        }
        o.push_str("<path class=\"rampart\" d=\"");
        o.push_str(&d);
        o.push_str("\"/>\n");
    }

    /// The attack just reported: a ring round the attacker, the losses over each side's cell
    /// (the style fades them out after a few seconds).
    fn hit_svg(&self, o: &mut String) {
        let Some(h) = &self.hit else { return };
        let g = self.geo();
        let inside = |c| self.shows(c);
        let r = f64::from(self.cell) * 0.5;
        o.push_str("<g class=\"hit\" aria-hidden=\"true\">");
        if inside(h.from) {
            let (cx, cy) = g.centre(h.from.0, h.from.1);
            let _ = write!(
                o,
                "<circle class=\"hit-from\" cx=\"{cx}\" cy=\"{cy}\" r=\"{r:.1}\"/>"
            );
            if h.suffered > 0 {
                let _ = write!(
                    o,
                    "<text class=\"hit-losses\" x=\"{cx}\" y=\"{:.1}\">−{}</text>",
                    f64::from(cy) - r,
                    h.suffered
                );
            }
        }
        if inside(h.at) {
            let (cx, cy) = g.centre(h.at.0, h.at.1);
            let _ = write!(o, "<circle class=\"hit-at\" cx=\"{cx}\" cy=\"{cy}\" r=\"{r:.1}\"/><text class=\"hit-losses\" x=\"{cx}\" y=\"{:.1}\">−{}</text>", f64::from(cy) - r, h.inflicted);
        }
        o.push_str("</g>\n");
    }

    /// Markers: a pennant in the top right corner of their cell, the label as its title.
    /// Whether cell `(x, y)` is in the drawing.
    fn shows(&self, (x, y): (i32, i32)) -> bool {
        (self.x0..self.x0 + self.cols).contains(&x) && (self.y0..self.y0 + self.rows).contains(&y)
    }

    fn markers_svg(&self, o: &mut String) {
        let c = self.cell;
        for ((x, y), label) in &self.markers {
            if !self.shows((*x, *y)) {
                continue;
            }
            let (px, py) = self.geo().origin(*x, *y);
            let py = py + self.geo().picture_dy();
            let (pole, top) = (px + c - c / 4, py + 2);
            let _ = writeln!(
                o,
                "<g class=\"marker\"><title>{}</title><path d=\"M{pole} {top}v{h}M{pole} {top}l-{w} {hw}l{w} {hw}z\"/></g>",
                {
                    let mut e = String::with_capacity(label.len() + 8);
                    escape(&mut e, label);
                    e
                },
                h = c * 2 / 3,
                w = c * 2 / 5,
                hw = c / 5,
            );
        }
    }

    /// The planned path: a line through the cells' centres, a dot on each step.
    fn path_svg(&self, o: &mut String) {
        if self.path.len() < 2 {
            return;
        }
        let g = self.geo();
        let centre = |(x, y): (i32, i32)| g.centre(x, y);
        o.push_str("<g class=\"planned\"><polyline points=\"");
        for (i, p) in self.path.iter().enumerate() {
            let (px, py) = centre(*p);
            if i > 0 {
                o.push(' ');
            }
            num(o, px);
            o.push(',');
            num(o, py);
        }
        o.push_str("\"/>");
        for p in &self.path[1..] {
            let (px, py) = centre(*p);
            o.push_str("<circle");
            attr(o, "cx", px);
            attr(o, "cy", py);
            o.push_str(" r=\"3\"/>");
        }
        o.push_str("</g>\n");
    }

    /// A plain cell with nothing on it, not selected: the ground pattern draws it.
    fn bare(&self, v: &CellView) -> bool {
        v.terrain == Terrain::Plain
            && v.owner.is_none()
            && v.town.is_none()
            && v.structure.is_none()
            && v.siege_tower.is_none()
            && self.selected != Some((v.x, v.y))
    }

    /// The fog as one band per run of shaded cells in a row (cells drawn on their own shade
    /// themselves on top).
    fn fog_runs(&self, o: &mut String) {
        let (cols, rows) = (self.cols.max(0) as usize, self.rows.max(0) as usize);
        let mut fog = if self.fog.len() == cols * rows {
            self.fog.clone()
        } else {
            vec![false; cols * rows]
        };
        for v in self.cells.iter().filter(|v| v.fog) {
            let (i, j) = (v.x - self.x0, v.y - self.y0);
            if (0..self.cols).contains(&i) && (0..self.rows).contains(&j) {
                fog[j as usize * cols + i as usize] = true;
            }
        }
        let c = self.cell;
        for (j, row) in fog.chunks(cols.max(1)).enumerate() {
            let mut i = 0;
            while i < row.len() {
                if !row[i] {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < row.len() && row[i] {
                    i += 1;
                }
                let g = self.geo();
                let y = self.y0 + j as i32;
                if self.grid == Grid::Hex {
                    // Hexes of a row do not make a rectangle: each is shaded, by the one
                    // hexagon the drawing reuses.
                    for k in start..i {
                        let (px, py) = g.origin(self.x0 + k as i32, y);
                        o.push_str("<use class=\"fog-run\" href=\"#hex\"");
                        attr(o, "x", px);
                        attr(o, "y", py);
                        o.push_str("/>");
                    }
                    continue;
                }
                // A band over the run's cells.
                let (px, py) = g.origin(self.x0 + start as i32, y);
                o.push_str("<rect class=\"fog-run\"");
                rect_attrs(o, px, py, (i - start) as i32 * c, c);
                o.push_str("/>");
            }
        }
        o.push('\n');
    }

    /// One cell; `href` is the cell links' common start, already escaped. The cell says what
    /// it is in its classes and data attributes (the cell panel and the legend say the rest),
    /// which keeps the page small: there are hundreds of cells.
    fn cell_svg(&self, o: &mut String, v: &CellView, href: Option<&str>) {
        // Plain pushes and `itoa`: `write!` with its formatting machinery, per attribute of
        // every cell, was a fifth of the page's time.
        let c = self.cell;
        if let Some(h) = href {
            o.push_str("<a href=\"");
            o.push_str(h);
            num(o, v.x);
            o.push(',');
            num(o, v.y);
            o.push_str("\" class=\"cell-link\">");
        }
        let t = v.terrain.as_str();
        o.push_str("<g class=\"cell t-");
        o.push_str(t);
        if v.fog {
            o.push_str(" fog");
        }
        if self.selected == Some((v.x, v.y)) {
            o.push_str(" selected");
        }
        o.push('"');
        attr(o, "data-x", v.x);
        attr(o, "data-y", v.y);
        if let Some(owner) = &v.owner {
            o.push_str(" data-owner=\"");
            escape(o, owner);
            o.push('"');
        }
        if let Some(town) = &v.town {
            o.push_str(" data-town=\"");
            escape(o, town);
            o.push('"');
        }
        if let Some(s) = v.structure {
            attr(o, "data-structure", s);
        }
        let (px, py) = (v.px, v.py);
        let hex = self.grid == Grid::Hex;
        o.push_str(if hex {
            "><use class=\"bg\" href=\"#hex\""
        } else {
            "><rect class=\"bg\""
        });
        attr(o, "x", px);
        attr(o, "y", py);
        o.push_str("/>");
        // A square picture sits in the middle of a hexagon.
        let py = py + self.geo().picture_dy();
        if v.terrain != Terrain::Plain {
            o.push_str("<use href=\"#c-");
            o.push_str(t);
            o.push('"');
            attr(o, "x", px);
            attr(o, "y", py);
            o.push_str("/>");
        }
        if let Some(color) = &v.owner_color {
            if hex {
                o.push_str("<use class=\"owner\" href=\"#hex-in\"");
                attr(o, "x", px);
                attr(o, "y", v.py);
            } else {
                o.push_str("<rect class=\"owner\"");
                attr(o, "x", px + 1);
                attr(o, "y", py + 1);
            }
            o.push_str(" stroke=\"");
            escape(o, color);
            o.push_str("\"/>");
        }
        if v.structure_pct == Some(0) {
            // Breached: the wall's picture cracked open.
            o.push_str("<use href=\"#c-breach\"");
            attr(o, "x", px);
            attr(o, "y", py);
            o.push_str("/>");
        }
        if let Some(done) = v.siege_tower {
            o.push_str(if done {
                "<use href=\"#c-siege\""
            } else {
                "<use class=\"unfinished\" href=\"#c-siege\""
            });
            attr(o, "x", px);
            attr(o, "y", py);
            o.push_str("/>");
        }
        if let Some(pct) = v.structure_pct {
            o.push_str("<rect class=\"structure-bg\"");
            rect_attrs(o, px + 2, py + c - 4, c - 4, 2);
            o.push_str("/><rect class=\"structure\"");
            rect_attrs(o, px + 2, py + c - 4, (c - 4) * pct / 100, 2);
            o.push_str("/>");
        }
        o.push_str("</g>");
        if href.is_some() {
            o.push_str("</a>");
        }
        o.push('\n');
    }

    fn unit_svg(&self, o: &mut String, u: &UnitView) {
        let c = self.cell as f64;
        if let Some(h) = &u.href {
            open_link(o, h);
            o.push_str("\" class=\"unit-link\">");
        }
        let _ = write!(
            o,
            "<g class=\"unit {}{}{}\" data-company=\"{}\" data-x=\"{}\" data-y=\"{}\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"",
            if u.mine {
                "mine"
            } else if u.friend {
                "friend"
            } else {
                "enemy"
            },
            if u.selected { " selected" } else { "" },
            if u.on_leave { " leave" } else { "" },
            u.id,
            u.x,
            u.y,
            u.cx,
            u.cy,
            c * 0.4
        );
        escape(o, &u.color);
        let _ = write!(
            o,
            "\"/><text x=\"{}\" y=\"{}\" class=\"unit-letter\">{}</text>",
            u.cx,
            u.cy as f64 + c * 0.15,
            u.letter
        );
        if u.mine {
            let bx = u.cx as f64 - c * 0.4;
            let by = u.cy as f64 - c * 0.5 + 1.0;
            let bw = c * 0.8;
            let _ = write!(
                o,
                "<rect class=\"bar-bg\" x=\"{bx}\" y=\"{by}\" width=\"{bw}\" height=\"4\"/><rect class=\"bar-men\" x=\"{bx}\" y=\"{by}\" width=\"{}\" height=\"2\"/><rect class=\"bar-ap\" x=\"{bx}\" y=\"{}\" width=\"{}\" height=\"2\"/>",
                bw * u.men_pct as f64 / 100.0,
                by + 2.0,
                bw * u.ap_pct as f64 / 100.0
            );
        }
        o.push_str("<title>");
        escape(o, &u.name);
        o.push_str(" (");
        escape(o, self.words.kind(u.kind));
        o.push_str(", ");
        escape(o, &crate::i18n::proper_name(self.words.lang, &u.nation));
        o.push(')');
        if u.on_leave {
            o.push_str(" · ");
            escape(o, &self.words.on_leave);
        }
        if u.mine {
            let figures = [
                ("men", FluentValue::from(u.men.unwrap_or(0) as i64)),
                ("ap", FluentValue::from(u.ap.unwrap_or(0) as i64)),
            ];
            o.push_str(" · ");
            escape(o, &tr(self.words.lang, "company-line", &figures));
        }
        o.push_str("</title></g>");
        if u.href.is_some() {
            o.push_str("</a>");
        }
        o.push('\n');
    }
}

/// Builds the drawing of a viewport's cells; with `fog`, cells the viewer's nation does not
/// see are shaded; `cell_href` is the link of a cell less its `x,y` (None: no links).
pub fn build(
    rs: &Ruleset,
    vp: &Viewport,
    map: &PlayerMap,
    fog: bool,
    cell_href: Option<String>,
    lang: Lang,
) -> MapView {
    let mut labels = Vec::new();
    let nations = by_id(&map.nations);
    let cells = map
        .cells
        .iter()
        .map(|c| cell_view(rs, vp, c, map, &nations, fog, &mut labels))
        .collect();
    frame(vp, cells, cell_href, labels, lang)
}

/// The drawing of the world page: plain cells with nothing on them, not `selected`, are the
/// ground pattern and are not kept one by one (hundreds of the view's cells, for a few dozen
/// drawn), their fog only as a flag in [`MapView::fog`]; no links on cells.
pub fn build_shown(
    rs: &Ruleset,
    vp: &Viewport,
    map: &PlayerMap,
    fog: bool,
    selected: Option<(i32, i32)>,
    lang: Lang,
) -> MapView {
    let mut labels = Vec::new();
    let nations = by_id(&map.nations);
    let (cols, rows) = (vp.cols().max(0) as usize, vp.rows().max(0) as usize);
    let mut fogged = vec![false; cols * rows];
    let mut drawn = Vec::new();
    for c in &map.cells {
        // As `MapView::bare` reads the cell's view.
        let bare = c.terrain == Terrain::Plain
            && c.owner.is_none()
            && c.town.is_none()
            && c.structure.is_none()
            && c.siege_tower.is_none()
            && selected != Some((c.at.x, c.at.y));
        if !bare {
            drawn.push(cell_view(rs, vp, c, map, &nations, fog, &mut labels));
        } else if fog && !c.seen {
            let (i, j) = (c.at.x - vp.x0, c.at.y - vp.y0);
            if (0..vp.cols()).contains(&i) && (0..vp.rows()).contains(&j) {
                fogged[j as usize * cols + i as usize] = true;
            }
        }
    }
    // A castle's name over the middle of its cells in view, along their top.
    for (name, (x0, y0, x1, _)) in &map.castles {
        let g = vp.geometry();
        let (left, top) = g.origin(*x0, *y0);
        let (right, _) = g.origin(*x1, *y0);
        labels.push(Label {
            name: name.clone(),
            px: (left + right + vp.cell_px) / 2,
            py: (top - 3).max(11),
            castle: true,
        });
    }
    let mut m = frame(vp, drawn, None, labels, lang);
    m.selected = selected;
    m.every_cell = false;
    m.fog = fogged;
    m
}

/// A path's line along a side of cell `(x, y)`, as the drawing's geometry places it (nothing
/// for a side the grid's cells do not have).
fn side_path(d: &mut String, g: &Geometry, (x, y): (i32, i32), side: crate::rules::Side) {
    let (px, py) = g.origin(x, y);
    let (px, py) = (f64::from(px), f64::from(py));
    if let Some(((ax, ay), (bx, by))) = g.side_line(side) {
        let _ = write!(
            d,
            "M{:.1} {:.1}L{:.1} {:.1}",
            px + ax,
            py + ay,
            px + bx,
            py + by
        );
    }
}

/// The castle sections of a map as it draws them, named in `lang`; a picked cell's outlined.
pub fn section_marks(
    sections: &[crate::game::play::views::MapSection],
    selected: Option<(i32, i32)>,
    lang: Lang,
) -> Vec<SectionMark> {
    sections
        .iter()
        .map(|s| {
            let cells: Vec<(i32, i32)> = s.section.cells.iter().map(|p| (p.x, p.y)).collect();
            let name = crate::i18n::section_name(lang, s.section.kind.as_str(), &s.section.name);
            SectionMark {
                label: tr(
                    lang,
                    "cell-section",
                    &[
                        ("castle", FluentValue::from(s.castle.as_str())),
                        ("section", FluentValue::from(name)),
                    ],
                ),
                on: selected.is_some_and(|c| cells.contains(&c)),
                cells,
            }
        })
        .collect()
}

/// A player's map drawn whole: its cells (`build_shown`), its companies, each with the link
/// `href` gives it, and its ramparts. The world page adds its own marks; the landing page's
/// picture is this alone.
pub fn build_map(
    rs: &Ruleset,
    vp: &Viewport,
    map: &PlayerMap,
    fog: bool,
    selected: Option<(i32, i32)>,
    lang: Lang,
    href: impl Fn(
        &(
            crate::game::play::load::Placed,
            crate::game::play::views::Seen,
        ),
    ) -> Option<String>,
) -> MapView {
    let mut m = build_shown(rs, vp, map, fog, selected, lang);
    m.units = map
        .companies
        .iter()
        .map(|s| UnitView::of(rs, vp, s, map.nation(s.0.nation_id), href(s)))
        .collect();
    m.edges = ramparts(&map.edges);
    m
}

/// The sides the drawing marks as ramparts, of a map's edges.
pub fn ramparts(
    edges: &[(
        crate::rules::Pos,
        crate::rules::Side,
        crate::rules::names::EdgeFeature,
    )],
) -> Vec<(i32, i32, crate::rules::Side)> {
    edges
        .iter()
        .filter(|(_, _, f)| *f == crate::rules::names::EdgeFeature::Rampart)
        .map(|(p, side, _)| (p.x, p.y, *side))
        .collect()
}

/// The world's nations by id.
fn by_id(nations: &[Nation]) -> HashMap<NationId, &Nation> {
    nations.iter().map(|n| (n.id, n)).collect()
}

/// A cell as the drawing shows it; a church's town name goes to `labels`.
fn cell_view(
    rs: &Ruleset,
    vp: &Viewport,
    c: &MapCell,
    map: &PlayerMap,
    nations: &HashMap<NationId, &Nation>,
    fog: bool,
    labels: &mut Vec<Label>,
) -> CellView {
    let cell_px = vp.cell_px;
    let (px, py) = vp.geometry().origin(c.at.x, c.at.y);
    let town = c.town.and_then(|t| map.town(t));
    if c.terrain == Terrain::Church {
        if let Some(name) = town {
            labels.push(Label {
                name: name.to_string(),
                px: px + cell_px / 2,
                py: py - 3,
                castle: false,
            });
        }
    }
    let owner = c.owner.and_then(|o| nations.get(&o));
    let max = rs.terrain(c.terrain).structure;
    CellView {
        x: c.at.x,
        y: c.at.y,
        px,
        py,
        terrain: c.terrain,
        owner: owner.map(|n| n.name.clone()),
        owner_color: owner.map(|n| n.color.clone()),
        town: town.map(str::to_string),
        structure_pct: max.map(|m| c.structure.unwrap_or(0) * 100 / m.max(1)),
        structure: c.structure,
        siege_tower: c.siege_tower.map(|t| t.finished),
        fog: fog && !c.seen,
    }
}

fn frame(
    vp: &Viewport,
    cells: Vec<CellView>,
    cell_href: Option<String>,
    labels: Vec<Label>,
    lang: Lang,
) -> MapView {
    let cell_px = vp.cell_px;
    let g = vp.geometry();
    MapView {
        cell: cell_px,
        x0: vp.x0,
        y0: vp.y0,
        cols: vp.cols(),
        rows: vp.rows(),
        width_px: g.width_px(),
        height_px: g.height_px(),
        cells,
        cell_href,
        labels,
        units: Vec::new(),
        pan: None,
        selected: None,
        path: Vec::new(),
        words: MapWords::of(lang),
        every_cell: true,
        fog: Vec::new(),
        markers: Vec::new(),
        grid: vp.grid,
        edges: Vec::new(),
        hit: None,
        sections: Vec::new(),
    }
}

/// The style sheet's rule that sizes the cells of a map drawn at `cell` pixels a cell: cells
/// carry only their position, and the page's security policy admits no inline style.
pub fn cell_size_rule(cell: i32) -> String {
    format!(
        "svg.map[data-cell=\"{cell}\"] .bg {{ width: {cell}px; height: {cell}px; }} \
         svg.map[data-cell=\"{cell}\"] .owner {{ width: {o}px; height: {o}px; }}",
        o = cell - 2
    )
}

/// The letter drawn on a company's token.
pub fn letter(kind: Kind) -> &'static str {
    match kind {
        Kind::Infantry => "I",
        Kind::Voltigeurs => "V",
        Kind::Cavalry => "C",
        Kind::Artillery => "A",
        Kind::Sappers => "S",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::render::viewport::Zooms;

    const Z: Zooms = [(14, 48, 32), (22, 30, 20), (34, 18, 12)];

    #[test]
    fn the_viewport_centres_and_stops_at_the_edges() {
        let vp = Viewport::around(&Z, 120, 120, (60, 60), 2);
        assert_eq!(vp.rect(), (46, 51, 75, 70));
        assert_eq!(vp.centre(), (60, 60));
        // A view around its own centre is itself, at every zoom: links do not creep.
        for z in 1..=3 {
            let v = Viewport::around(&Z, 120, 120, (61, 57), z);
            assert_eq!(Viewport::around(&Z, 120, 120, v.centre(), z), v);
        }
        assert_eq!((vp.cols(), vp.rows(), vp.cell_px), (30, 20, 22));
        // Near a corner the rectangle keeps its size and stays on the map.
        let corner = Viewport::around(&Z, 120, 120, (1, 119), 2);
        assert_eq!(corner.rect(), (0, 100, 29, 119));
        // A world smaller than the zoom's rectangle is shown whole; zoom is clamped to 1–3.
        let small = Viewport::around(&Z, 16, 10, (8, 5), 9);
        assert_eq!((small.rect(), small.zoom), ((0, 0, 15, 9), 3));
        // Centres far outside the map (or near i32's ends) do not overflow.
        let far = Viewport::around(&Z, 120, 120, (i32::MIN, i32::MAX), 1);
        assert_eq!(far.rect(), (0, 88, 47, 119));
    }

    #[test]
    fn pan_links_go_half_a_screen_and_only_where_the_world_goes_on() {
        let vp = Viewport::around(&Z, 120, 120, (0, 60), 2);
        let pan = vp.pan(120, 120, |x, y, z| format!("{x},{y},{z}"));
        assert_eq!(pan.west, None);
        assert_eq!(pan.east.as_deref(), Some("29,60,2"));
        assert_eq!(pan.north.as_deref(), Some("14,50,2"));
        let zooms = vp.zoom_links(None, |x, y, z| format!("{x},{y},{z}"));
        assert_eq!(zooms.iter().filter(|z| z.current).count(), 1);
        assert_eq!(zooms[0].href, "14,60,1");
    }

    #[test]
    fn a_cell_keeps_the_markup_scripts_and_tests_rely_on() {
        let vp = Viewport::around(&Z, 16, 10, (8, 5), 3);
        let mut m = MapView {
            cell: 34,
            x0: vp.x0,
            y0: vp.y0,
            cols: vp.cols(),
            rows: vp.rows(),
            width_px: vp.cols() * 34,
            height_px: vp.rows() * 34,
            cells: vec![CellView {
                x: 3,
                y: 4,
                px: 102,
                py: 136,
                terrain: Terrain::Fort,
                owner: Some("Fr<ance".into()),
                owner_color: Some("#2b4c9b".into()),
                town: None,
                structure_pct: Some(50),
                structure: Some(10),
                siege_tower: None,
                fog: true,
            }],
            cell_href: Some("?x=8&y=5&cell=".into()),
            labels: Vec::new(),
            units: Vec::new(),
            pan: None,
            selected: Some((3, 4)),
            path: Vec::new(),
            words: MapWords::of(Lang::Fr),
            every_cell: true,
            fog: Vec::new(),
            markers: Vec::new(),
            grid: Grid::Square,
            edges: Vec::new(),
            hit: None,
            sections: Vec::new(),
        };
        let svg = m.svg();
        let (shared, cells) = svg.split_once("</defs>\n").expect("defs");
        assert!(shared.contains("<use id=\"c-fort\" href=\"#s-fort\" width=\"34\" height=\"34\"/>"));
        assert!(!shared.contains("c-plain"));
        assert_eq!(
            cells,
            "<a href=\"?x=8&amp;y=5&amp;cell=3,4\" class=\"cell-link\"><g class=\"cell t-fort fog selected\" \
             data-x=\"3\" data-y=\"4\" data-owner=\"Fr&lt;ance\" data-structure=\"10\">\
             <rect class=\"bg\" x=\"102\" y=\"136\"/>\
             <use href=\"#c-fort\" x=\"102\" y=\"136\"/>\
             <rect class=\"owner\" x=\"103\" y=\"137\" stroke=\"#2b4c9b\"/>\
             <rect class=\"structure-bg\" x=\"104\" y=\"166\" width=\"30\" height=\"2\"/>\
             <rect class=\"structure\" x=\"104\" y=\"166\" width=\"15\" height=\"2\"/></g></a>\n"
        );
        m.cell_href = None;
        assert!(!m.svg().contains("<a "));
        // A company's tooltip speaks the page's language.
        m.units.push(UnitView {
            id: CompanyId(7),
            name: "Garde".into(),
            kind: Kind::Cavalry,
            nation: "France".into(),
            x: 3,
            y: 4,
            cx: 119,
            cy: 153,
            color: "#2b4c9b".into(),
            letter: "C",
            mine: true,
            friend: true,
            selected: false,
            on_leave: true,
            men: Some(120),
            ap: Some(10),
            men_pct: 100,
            ap_pct: 50,
            href: None,
        });
        assert!(m.svg().contains(
            "<title>Garde (cavalerie, France) · en permission · 120 hommes · 10 PA</title>"
        ));
        // A friend's mark and an enemy's are told apart by class, never both.
        m.units[0].mine = false;
        assert!(m
            .svg()
            .contains("<g class=\"unit friend leave\" data-company=\"7\""));
        m.units[0].friend = false;
        assert!(m
            .svg()
            .contains("<g class=\"unit enemy leave\" data-company=\"7\""));
        // A planned path: one line through the cells' centres from the company, a dot per step
        // (none on the start), drawn under the companies; a single cell draws nothing.
        m.path = vec![(3, 4)];
        assert!(!m.svg().contains("class=\"planned\""));
        m.path = vec![(3, 4), (4, 4), (5, 3)];
        let svg = m.svg();
        let planned = "<g class=\"planned\"><polyline points=\"119,153 153,153 187,119\"/>\
                       <circle cx=\"153\" cy=\"153\" r=\"3\"/><circle cx=\"187\" cy=\"119\" r=\"3\"/></g>";
        let at = svg.find(planned).expect(&svg);
        assert!(at < svg.find("<g class=\"unit").unwrap());
    }

    #[test]
    fn the_world_page_draws_plain_ground_once_and_fog_in_bands() {
        let cell = |x: i32, y: i32, terrain: Terrain, fog: bool, owner: Option<&str>| CellView {
            x,
            y,
            px: x * 10,
            py: y * 10,
            terrain,
            owner: owner.map(str::to_string),
            owner_color: None,
            town: None,
            structure_pct: None,
            structure: None,
            siege_tower: None,
            fog,
        };
        let m = MapView {
            cell: 10,
            x0: 0,
            y0: 0,
            cols: 3,
            rows: 2,
            width_px: 30,
            height_px: 20,
            cells: vec![
                cell(0, 0, Terrain::Plain, true, None),
                cell(1, 0, Terrain::Plain, true, None),
                cell(2, 0, Terrain::Forest, true, None),
                cell(0, 1, Terrain::Plain, false, None),
                cell(1, 1, Terrain::Plain, true, None),
                cell(2, 1, Terrain::Plain, false, Some("France")),
            ],
            cell_href: None,
            labels: Vec::new(),
            units: Vec::new(),
            pan: None,
            selected: Some((1, 1)),
            path: Vec::new(),
            words: MapWords::of(Lang::En),
            every_cell: false,
            fog: Vec::new(),
            markers: Vec::new(),
            grid: Grid::Square,
            edges: Vec::new(),
            hit: None,
            sections: Vec::new(),
        };
        let svg = m.svg();
        let (defs, drawn) = svg.split_once("</defs>\n").expect("defs");
        assert!(defs.contains(
            "<pattern id=\"ground\" patternUnits=\"userSpaceOnUse\" width=\"10\" height=\"10\">"
        ));
        assert!(drawn.starts_with(
            "<rect class=\"ground\" fill=\"url(#ground)\" width=\"30\" height=\"20\"/>\n\
             <rect class=\"fog-run\" x=\"0\" y=\"0\" width=\"30\" height=\"10\"/>\
             <rect class=\"fog-run\" x=\"10\" y=\"10\" width=\"10\" height=\"10\"/>\n"
        ));
        // The forest, the selected cell and the owned cell are cells of their own; the plain
        // ones with nothing on them are not.
        let cells: Vec<&str> = drawn.matches("<g class=\"cell ").collect();
        assert_eq!(cells.len(), 3, "{drawn}");
        assert!(drawn.contains("<g class=\"cell t-forest fog\" data-x=\"2\" data-y=\"0\">"));
        assert!(drawn.contains("<g class=\"cell t-plain fog selected\" data-x=\"1\" data-y=\"1\">"));
        assert!(drawn.contains("data-x=\"2\" data-y=\"1\" data-owner=\"France\""));
        assert!(!drawn.contains("data-x=\"0\" data-y=\"0\""));
        assert!(!drawn.contains("data-x=\"0\" data-y=\"1\""));
    }

    #[test]
    fn a_castle_section_is_its_cells_shape_and_the_outline_of_its_outer_sides() {
        let vp = Viewport::around(&Z, 16, 10, (8, 5), 3);
        let mut m = frame(&vp, Vec::new(), None, Vec::new(), Lang::En);
        m.cell = 10;
        m.x0 = 0;
        m.y0 = 0;
        m.sections = vec![SectionMark {
            label: "Castle <M>: wall 2".into(),
            cells: vec![(1, 1), (2, 1)],
            on: false,
        }];
        let svg = m.svg();
        // Two cells side by side: two squares to point at, six sides outlined (not the one
        // they share), under the name.
        assert!(
            svg.contains(
                "<g class=\"section\"><title>Castle &lt;M&gt;: wall 2</title>\
                 <rect class=\"section-area\" x=\"10\" y=\"10\" width=\"10\" height=\"10\"/>\
                 <rect class=\"section-area\" x=\"20\" y=\"10\" width=\"10\" height=\"10\"/>\
                 <path class=\"section-line\" d=\"M10.0 10.0L20.0 10.0M10.0 20.0L20.0 20.0M10.0 10.0L10.0 20.0\
                 M20.0 10.0L30.0 10.0M30.0 10.0L30.0 20.0M20.0 20.0L30.0 20.0\"/></g>"
            ),
            "{svg}"
        );
        // A cell of it picked: outlined for good.
        m.sections[0].on = true;
        assert!(m.svg().contains("<g class=\"section on\"><title>"));
        // On hexes a cell's shape is the grid's hexagon, and the outline follows its sides.
        m.grid = Grid::Hex;
        m.sections[0].cells = vec![(1, 1)];
        let svg = m.svg();
        assert!(
            svg.contains("<use class=\"section-area\" href=\"#hex\""),
            "{svg}"
        );
        let line = svg
            .split("class=\"section-line\" d=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap();
        assert_eq!(line.matches('M').count(), 6, "{line}");
    }

    #[test]
    fn the_script_s_marks_say_what_the_drawing_says() {
        let rs = Ruleset::shipped();
        let nations = vec![Nation {
            id: crate::ids::NationId(4),
            world_id: crate::ids::WorldId(1),
            name: "Russia".into(),
            color: "#2e7d32".into(),
            spawn_x: 0,
            spawn_y: 0,
            treasury: 0,
            points: 0,
        }];
        let words = MapWords::of(Lang::Fr);
        let marks = serde_json::to_value(words.marks(&rs, &nations)).unwrap();
        let cavalry = &marks["kinds"]["cavalry"];
        assert_eq!(cavalry["letter"], "C");
        assert_eq!(
            cavalry["full_strength"],
            rs.kind(Kind::Cavalry).full_strength
        );
        assert_eq!(cavalry["max_ap"], rs.kind(Kind::Cavalry).max_ap);
        // static/app.js writes the tooltip of a company from these, as `unit_svg` does.
        let title = format!(
            "Garde ({}, {}) · {} · {}",
            cavalry["name"].as_str().unwrap(),
            marks["nations"]["Russia"].as_str().unwrap(),
            marks["on_leave"].as_str().unwrap(),
            marks["figures"]
                .as_str()
                .unwrap()
                .replace("{men}", "120")
                .replace("{ap}", "10"),
        );
        assert_eq!(
            title,
            "Garde (cavalerie, Russie) · en permission · 120 hommes · 10 PA"
        );
    }

    #[test]
    fn the_world_page_s_drawing_keeps_only_the_cells_it_draws_and_draws_the_same() {
        let rs = Ruleset::shipped();
        let vp = Viewport::around(&Z, 16, 10, (8, 5), 3);
        let nations = vec![Nation {
            id: crate::ids::NationId(4),
            world_id: crate::ids::WorldId(1),
            name: "France".into(),
            color: "#2b4c9b".into(),
            spawn_x: 0,
            spawn_y: 0,
            treasury: 0,
            points: 0,
        }];
        let mut cells = Vec::new();
        for y in vp.y0..=vp.y1 {
            for x in vp.x0..=vp.x1 {
                let france = Some(crate::ids::NationId(4));
                let ulm = Some(crate::ids::TownId(1));
                let (terrain, owner, town, structure) = match (x + 3 * y) % 11 {
                    0 => (Terrain::Forest, None, None, None),
                    1 => (Terrain::Fort, france, None, Some(7)),
                    2 => (Terrain::Church, france, ulm, None),
                    3 => (Terrain::Plain, france, None, None),
                    _ => (Terrain::Plain, None, None, None),
                };
                // Now and then a siege tower on bare ground: drawn all the same.
                let siege_tower =
                    ((x + 3 * y) % 11 == 4).then_some(crate::game::play::views::SiegeTower {
                        builds: 3,
                        structure: 6,
                        finished: true,
                    });
                cells.push(MapCell {
                    at: crate::rules::Pos::new(x, y),
                    terrain,
                    owner,
                    town,
                    structure,
                    siege_tower,
                    seen: (x * y) % 3 == 0,
                });
            }
        }
        let map = PlayerMap {
            cells,
            companies: Vec::new(),
            edges: Vec::new(),
            nation_id: None,
            nations,
            towns: [(crate::ids::TownId(1), "Ulm".to_string())].into(),
            castles: Vec::new(),
            looked_into_fog: false,
        };
        let selected = Some((vp.x0 + 1, vp.y0 + 1));
        let mut every = build(&rs, &vp, &map, true, None, Lang::En);
        every.selected = selected;
        every.every_cell = false;
        let shown = build_shown(&rs, &vp, &map, true, selected, Lang::En);
        assert!(shown.cells.len() < every.cells.len() / 2);
        assert_eq!(shown.svg(), every.svg());
    }

    #[test]
    fn escape_covers_markup_and_quotes() {
        let mut s = String::new();
        escape(&mut s, "<a href=\"x\">'&'</a>");
        assert_eq!(s, "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;");
    }
}
