//! Maps drawn in the Tiled editor: `.tmx` files (through the `tiled` crate) and Tiled JSON
//! (`.tmj`/`.json`). Tiles carry custom properties that say what a cell is:
//!
//! - `terrain` (string, one of the ruleset's terrains): the cell's terrain; tiles without it
//!   leave the cell as the layers below made it;
//! - `town`, `owner` (strings): the town the cell belongs to, the nation that owns it;
//! - `structure` (int): structure points of a fort, fortifications or castle cell;
//! - `castle` (string): the castle the cell belongs to (docs/rules.md §12).
//!
//! Tile layers are read bottom to top, a higher layer's tile overriding a lower one. An object
//! layer named `nations` lists the nations: each object's name is the nation, its position the
//! spawn cell, with optional properties `color` (`#rrggbb`) and `treasury` (int). Without it the
//! map gets France and Russia in opposite corners. Map properties `name` and `season` name the
//! world and its season.
//!
//! Both formats are read into one [`Doc`] (`tmx`, `tmj`), laid on the map here; the tile data
//! in any encoding Tiled writes (`layer_data`). Every bound is counted: elements
//! [`tmx::MAX_DEPTH`] deep, a layer's ids no more than its cells, [`MAX_TILES_READ`] ids in
//! all.

mod layer_data;
mod tmj;
mod tmx;

use crate::game::error::{GameError, GameResult};
use crate::game::maps::mapfile::{MapFile, MapNation};
use crate::game::maps::sketch::{Sketch, SketchCell, PALETTE};
use crate::rules::{Grid, Terrain};
use layer_data::Data;
use std::collections::HashMap;
use std::path::Path;

/// The tile ids read from all layers together: sixteen layers of a 1000×1000 world, four of
/// the largest. Past it the map is refused `too_large` rather than read on.
pub const MAX_TILES_READ: usize = 16 << 20;

/// A Tiled map as both formats give it.
#[derive(Debug, Default)]
pub struct Doc {
    width: i64,
    height: i64,
    tile_w: f64,
    tile_h: f64,
    hexagonal: bool,
    stagger_y: bool,
    stagger_odd: bool,
    hex_side: Option<f64>,
    infinite: bool,
    props: Props,
    /// Tile properties by global tile id.
    tiles: HashMap<u32, Props>,
    /// Tile layers and `nations` object layers, bottom to top, groups flattened.
    layers: Vec<Layer>,
}

#[derive(Debug)]
enum Layer {
    Tiles { name: String, data: Data },
    Nations(Vec<Nation>),
}

/// An object of the `nations` layer.
#[derive(Debug)]
struct Nation {
    name: String,
    x: f64,
    y: f64,
    props: Props,
}

/// A property value as far as the mapping cares.
#[derive(Clone, Debug, PartialEq)]
pub enum Prop {
    Text(String),
    Int(i64),
}

type Props = HashMap<String, Prop>;

fn text(p: &Props, key: &str) -> Option<String> {
    match p.get(key) {
        Some(Prop::Text(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

fn int(p: &Props, key: &str) -> Option<i64> {
    match p.get(key) {
        Some(Prop::Int(i)) => Some(*i),
        Some(Prop::Text(s)) => s.trim().parse().ok(),
        None => None,
    }
}

fn bad(m: impl Into<String>) -> GameError {
    GameError::Invalid(m.into().into())
}

fn too_deep(m: impl Into<String>) -> GameError {
    GameError::TooDeep(m.into().into())
}

fn too_large(m: impl Into<String>) -> GameError {
    GameError::TooLarge(m.into().into())
}

/// Lays a tile's properties onto a cell.
/// `at` names the cell, said only in a refusal.
fn paint(cell: &mut SketchCell, props: &Props, at: &dyn Fn() -> String) -> GameResult<()> {
    let Some(t) = text(props, "terrain") else {
        return Ok(());
    };
    cell.terrain = Some(t.parse::<Terrain>().map_err(|_| {
        bad(format!(
            "{}: unknown terrain `{t}` in the tile's `terrain` property",
            at()
        ))
    })?);
    if let Some(town) = text(props, "town") {
        cell.town = Some(town);
    }
    if let Some(owner) = text(props, "owner") {
        cell.owner = Some(owner);
    }
    if let Some(castle) = text(props, "castle") {
        cell.castle = Some(castle);
    }
    if let Some(s) = int(props, "structure") {
        cell.structure = Some(
            i32::try_from(s)
                .map_err(|_| bad(format!("{}: structure {s} is out of range", at())))?,
        );
    }
    Ok(())
}

/// How a Tiled map's pixels fall into its cells: tiles `w` by `h`; on a hexagonal map rows
/// `row` apart (half the tile's height and its side's length), odd rows shifted half a tile.
#[derive(Clone, Copy, Debug)]
struct TileSize {
    w: f64,
    h: f64,
    row: Option<f64>,
}

impl TileSize {
    fn new(w: f64, h: f64, grid: Grid, hex_side: Option<f64>) -> TileSize {
        let (w, h) = (w.max(1.0), h.max(1.0));
        let row = (grid == Grid::Hex).then(|| ((h + hex_side.unwrap_or(h / 2.0)) / 2.0).max(1.0));
        TileSize { w, h, row }
    }

    /// The cell a point of the map lies in: on hexes, the one whose centre is nearest.
    fn cell_of(&self, x: f64, y: f64) -> [i32; 2] {
        let Some(row) = self.row else {
            return [(x / self.w).floor() as i32, (y / self.h).floor() as i32];
        };
        let r = (y / row).floor() as i64;
        let mut best = (f64::INFINITY, [0, 0]);
        for cy in [r - 1, r] {
            let shift = if cy & 1 == 1 { self.w / 2.0 } else { 0.0 };
            let c = ((x - shift) / self.w).floor() as i64;
            for cx in [c - 1, c, c + 1] {
                let (px, py) = (
                    cx as f64 * self.w + shift + self.w / 2.0,
                    cy as f64 * row + self.h / 2.0,
                );
                let d = (px - x).powi(2) + (py - y).powi(2);
                if d < best.0 {
                    best = (d, [cx as i32, cy as i32]);
                }
            }
        }
        best.1
    }
}

/// A nation from an object of the `nations` layer.
fn nation(
    i: usize,
    name: &str,
    x: f64,
    y: f64,
    tile: TileSize,
    props: &Props,
) -> GameResult<MapNation> {
    if name.trim().is_empty() {
        return Err(bad("an object of the `nations` layer has no name"));
    }
    // A position no map has (infinite, not a number, beyond any size) is refused here rather
    // than rounded to some cell.
    let limit = f64::from(i32::MAX);
    if !(x.is_finite() && y.is_finite() && x.abs() < limit && y.abs() < limit) {
        return Err(bad(format!(
            "the nation `{}` of the `nations` layer is at no cell of the map",
            name.trim()
        )));
    }
    Ok(MapNation {
        name: name.trim().to_string(),
        color: text(props, "color").unwrap_or_else(|| PALETTE[i % PALETTE.len()].to_string()),
        spawn: Some(tile.cell_of(x, y)),
        treasury: int(props, "treasury"),
    })
}

/// The grid of a Tiled map: orthogonal (and the other square layouts) make square worlds; a
/// hexagonal map must be the game's own hexes, pointy-top with odd rows shifted
/// (`staggeraxis="y"`, `staggerindex="odd"`), whose tiles are then the cells one for one.
fn grid_of(hexagonal: bool, axis_y: bool, index_odd: bool) -> GameResult<Grid> {
    match (hexagonal, axis_y, index_odd) {
        (false, _, _) => Ok(Grid::Square),
        (true, true, true) => Ok(Grid::Hex),
        (true, _, _) => Err(bad(
            "a hexagonal Tiled map must stagger its odd rows (staggeraxis=\"y\", staggerindex=\"odd\"): \
             the game's hexes are pointy-top with odd rows shifted right",
        )),
    }
}

fn finish(mut s: Sketch, props: &Props, default_name: &str, name: Option<&str>) -> MapFile {
    s.name = name
        .map(str::to_string)
        .or_else(|| text(props, "name"))
        .unwrap_or_else(|| default_name.to_string());
    if let Some(season) = text(props, "season") {
        s.season = season;
    }
    if s.nations.is_empty() {
        s.nations = vec![
            MapNation {
                name: "France".into(),
                color: PALETTE[0].into(),
                spawn: Some([0, 0]),
                treasury: None,
            },
            MapNation {
                name: "Russia".into(),
                color: PALETTE[1].into(),
                spawn: Some([s.width - 1, s.height - 1]),
                treasury: None,
            },
        ];
    }
    s.into_mapfile()
}

fn check_size(w: i64, h: i64) -> GameResult<(i32, i32)> {
    let max = crate::game::maps::mapfile::MAX_SIDE as i64;
    if !(1..=max).contains(&w) || !(1..=max).contains(&h) {
        return Err(bad(format!(
            "the map is {w}×{h}; a world is 1 to {max} cells on each side"
        )));
    }
    Ok((w as i32, h as i32))
}

/// Calls `f` with each cell of a layer that holds a tile with properties, and where it is.
fn lay(
    doc: &Doc,
    name: &str,
    data: &Data,
    width: i32,
    mut f: impl FnMut(usize, &Props, &dyn Fn() -> String) -> GameResult<()>,
) -> GameResult<()> {
    let cells = doc.width as usize * doc.height as usize;
    for (i, gid) in data.ids(cells, name)?.into_iter().enumerate() {
        // The top bits of a gid are flip flags.
        if let Some(props) = doc.tiles.get(&(gid & 0x0FFF_FFFF)) {
            let (x, y) = (i as i32 % width, i as i32 / width);
            f(i, props, &|| format!("layer `{name}`, cell ({x}, {y})"))?;
        }
    }
    Ok(())
}

/// Lays a read map on a sketch: its grid, its layers bottom to top, its nations.
fn from_doc(doc: Doc, name: Option<&str>, default_name: &str) -> GameResult<MapFile> {
    if doc.infinite {
        return Err(bad(
            "infinite Tiled maps cannot be imported: give the map a fixed size",
        ));
    }
    let (w, h) = check_size(doc.width, doc.height)?;
    let grid = grid_of(doc.hexagonal, doc.stagger_y, doc.stagger_odd)?;
    let cells = w as usize * h as usize;
    let tile = TileSize::new(doc.tile_w, doc.tile_h, grid, doc.hex_side);
    // Every layer is read and checked (its size, its tiles' properties, its nations) before
    // the map's cells are laid out: a refused map costs one layer's ids, never a world's
    // worth of cells.
    let mut read = 0usize;
    let mut nations = Vec::new();
    for layer in &doc.layers {
        match layer {
            Layer::Tiles { name, data } => {
                read += cells;
                if read > MAX_TILES_READ {
                    return Err(too_large(format!(
                        "the map's layers hold more than {MAX_TILES_READ} tiles in all"
                    )));
                }
                lay(&doc, name, data, w, |_, props, at| {
                    paint(&mut SketchCell::default(), props, at)
                })?;
            }
            Layer::Nations(list) => {
                for (i, o) in list.iter().enumerate() {
                    nations.push(nation(i, &o.name, o.x, o.y, tile, &o.props)?);
                }
            }
        }
    }
    let mut s = Sketch::new(default_name, w, h);
    s.grid = grid;
    s.nations = nations;
    for layer in &doc.layers {
        if let Layer::Tiles { name, data } = layer {
            lay(&doc, name, data, w, |i, props, at| {
                paint(&mut s.cells[i], props, at)
            })?;
        }
    }
    Ok(finish(s, &doc.props, default_name, name))
}

// ---------------------------------------------------------------- entry points

/// Reads a Tiled map file (`.tmx`, or `.tmj`/`.json`), with its external tilesets.
pub fn read_file(path: &Path, name: Option<&str>) -> GameResult<MapFile> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("Tiled map")
        .to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut sources = |src: &str| -> GameResult<String> {
        std::fs::read_to_string(dir.join(src)).map_err(|e| bad(format!("tileset {src}: {e}")))
    };
    let doc = match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_lowercase)
        .as_deref()
    {
        Some("tmx") => tmx::read_map(&text, &mut sources)?,
        Some("tmj") | Some("json") => tmj::read_map(&text, &mut sources)?,
        _ => {
            return Err(bad(format!(
                "{}: a Tiled map is a .tmx, .tmj or .json file",
                path.display()
            )))
        }
    };
    from_doc(doc, name, &stem)
}

/// Reads an uploaded Tiled map (tilesets embedded); `format` is `tmx` or `json`.
pub fn read_text(text: &str, format: &str, name: Option<&str>) -> GameResult<MapFile> {
    let mut none = |src: &str| -> GameResult<String> {
        Err(bad(format!(
            "tileset `{src}` is external: embed the tilesets in an uploaded map"
        )))
    };
    let doc = match format {
        "tmx" => tmx::read_map(text, &mut none)?,
        "json" | "tmj" => tmj::read_map(text, &mut none)?,
        other => return Err(bad(format!("unknown Tiled format `{other}` (tmx or json)"))),
    };
    from_doc(doc, name, "Tiled map")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"<?xml version="1.0"?>
<map version="1.10" width="3" height="2" tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" name="t" tilecount="4" columns="2"/>
 <layer id="1" name="ground" width="3" height="2"><data encoding="csv">0,0,0,0,0,0</data></layer>
</map>"#;

    #[test]
    fn a_point_of_a_hexagonal_map_falls_in_the_hex_whose_centre_is_nearest() {
        // Tiles 32×32, sides 16 long: rows 24 apart, odd rows shifted 16 right.
        let t = TileSize::new(32.0, 32.0, Grid::Hex, Some(16.0));
        assert_eq!(t.cell_of(16.0, 16.0), [0, 0]);
        assert_eq!(t.cell_of(32.0, 40.0), [0, 1]);
        assert_eq!(t.cell_of(5.0, 44.0), [-1, 1]);
        assert_eq!(t.cell_of(80.0, 64.0), [2, 2]);
        let square = TileSize::new(32.0, 32.0, Grid::Square, None);
        assert_eq!(square.cell_of(80.0, 64.0), [2, 2]);
        assert_eq!(square.cell_of(31.9, 32.0), [0, 1]);
        // A position no map has is refused, not rounded to some cell.
        for (x, y) in [(f64::INFINITY, 0.0), (0.0, f64::NAN), (3e38, 5.0)] {
            assert!(nation(0, "France", x, y, t, &Props::default()).is_err());
        }
        assert!(nation(0, "France", 40.0, 40.0, t, &Props::default()).is_ok());
    }

    #[test]
    fn hexagonal_maps_with_odd_rows_staggered_are_hex_worlds() {
        // No tileset: every cell plain.
        let tmx = |attrs: &str| {
            format!(
                r#"<?xml version="1.0"?>
<map version="1.10" {attrs} width="3" height="2" tilewidth="32" tileheight="32" infinite="0">
 <layer id="1" name="ground" width="3" height="2"><data encoding="csv">0,0,0,0,0,0</data></layer>
</map>"#
            )
        };
        let hex =
            tmx(r#"orientation="hexagonal" staggeraxis="y" staggerindex="odd" hexsidelength="16""#);
        assert_eq!(
            read_text(&hex, "tmx", None).unwrap().grid.as_deref(),
            Some("hex")
        );
        let square = tmx(r#"orientation="orthogonal""#);
        assert_eq!(read_text(&square, "tmx", None).unwrap().grid, None);
        for other in [
            r#"orientation="hexagonal" staggeraxis="x" staggerindex="odd" hexsidelength="16""#,
            r#"orientation="hexagonal" staggeraxis="y" staggerindex="even" hexsidelength="16""#,
        ] {
            let e = read_text(&tmx(other), "tmx", None).unwrap_err().to_string();
            assert!(e.contains("staggerindex"), "{e}");
        }
        let json = r#"{"width": 3, "height": 2, "tilewidth": 32, "tileheight": 32, "orientation": "hexagonal",
            "staggeraxis": "y", "staggerindex": "odd", "layers": [], "tilesets": []}"#;
        assert_eq!(
            read_text(json, "json", None).unwrap().grid.as_deref(),
            Some("hex")
        );
        let even = json.replace(r#""staggerindex": "odd""#, r#""staggerindex": "even""#);
        assert!(read_text(&even, "json", None).is_err());
    }

    #[test]
    fn what_a_map_would_cost_is_refused_before_it_is_paid() {
        assert!(read_text(SMALL, "tmx", None).is_ok());
        let deep = |n: usize| {
            SMALL
                .replace("<layer ", &format!("{}<layer ", "<group>".repeat(n)))
                .replace("</layer>", &format!("</layer>{}", "</group>".repeat(n)))
        };
        assert!(read_text(&deep(20), "tmx", None).is_ok());
        for (bomb, code, says) in [
            (
                SMALL.replace(
                    r#"width="3" height="2" tilewidth"#,
                    r#"width="100000" height="100000" tilewidth"#,
                ),
                "invalid",
                "cells on each side",
            ),
            (
                SMALL.replace(
                    r#"name="ground" width="3""#,
                    r#"name="ground" width="2000000000""#,
                ),
                "invalid",
                "the map 3",
            ),
            (
                SMALL.replace(r#"infinite="0""#, r#"infinite="1""#),
                "invalid",
                "infinite",
            ),
            // A prefix hides nothing: the attribute is known by its local name.
            (
                SMALL.replace(r#"infinite="0""#, r#"x:infinite="1""#),
                "invalid",
                "infinite",
            ),
            (
                SMALL.replace(
                    r#"width="3" height="2" tile"#,
                    r#"x:width="100000" height="2" tile"#,
                ),
                "invalid",
                "cells on each side",
            ),
            (
                SMALL.replace(r#"infinite="0""#, r#"infinite="0" y:infinite="1""#),
                "invalid",
                "twice",
            ),
            (
                SMALL.replace(
                    r#"encoding="csv""#,
                    r#"encoding="base64" x:compression="lz4""#,
                ),
                "invalid",
                "unknown compression",
            ),
            (deep(5000), "too_deep", "deep"),
            (SMALL.replace("<map ", "<mapx "), "invalid", "one <map>"),
            (
                format!("{SMALL}{}", SMALL.replace("<?xml version=\"1.0\"?>", "")),
                "invalid",
                "one root element",
            ),
            (
                SMALL.replace(
                    "<?xml version=\"1.0\"?>",
                    "<!DOCTYPE map [<!ENTITY a \"aaaa\">]>",
                ),
                "invalid",
                "document type",
            ),
        ] {
            let e = read_text(&bomb, "tmx", None).unwrap_err();
            assert_eq!(e.code(), code, "{e}");
            assert!(e.to_string().contains(says), "{e}");
        }
        let json_deep = format!(
            r#"{{"width": 3, "height": 2, "layers": [{}{}], "tilesets": []}}"#,
            r#"{"type": "group", "layers": ["#.repeat(200),
            "]}".repeat(200)
        );
        assert_eq!(
            read_text(&json_deep, "json", None).unwrap_err().code(),
            "too_deep"
        );
    }
}

/// Tiled's own example maps (tests/fixtures/tiled, with `terrain` properties added to a few
/// tiles): what each cell becomes, counted by an independent reader of the same files.
#[cfg(test)]
mod examples {
    use super::*;
    use std::collections::BTreeMap;

    fn fixture(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/tiled")
            .join(name)
    }

    /// Cells by terrain, plain left out (the map file leaves plain cells out).
    fn counts(map: &MapFile) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for c in &map.cells {
            *out.entry(c.terrain.clone()).or_default() += 1;
        }
        out
    }

    fn expect(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
        pairs.iter().map(|(t, n)| (t.to_string(), *n)).collect()
    }

    #[test]
    fn the_desert_imports_from_disk_with_its_external_tileset() {
        // One zlib layer, 40×40; tiles 9 mountain, 30 forest, 33 road in desert.tsx.
        let map = read_file(&fixture("desert.tmx"), None).unwrap();
        assert_eq!((map.width, map.height), (40, 40));
        assert_eq!(map.name, "desert");
        assert_eq!(
            counts(&map),
            expect(&[("forest", 5), ("mountain", 31), ("road", 143)])
        );
        assert!(map.validate(&crate::rules::Ruleset::shipped()).is_ok());
        // Uploaded, the same map must carry its tileset inside.
        let text = std::fs::read_to_string(fixture("desert.tmx")).unwrap();
        let e = read_text(&text, "tmx", None).unwrap_err();
        assert!(e.to_string().contains("embed"), "{e}");
    }

    #[test]
    fn uploaded_examples_import_in_every_compression() {
        let rs = crate::rules::Ruleset::shipped();
        for (file, grid, size, want) in [
            (
                "hexagonal-mini.tmx",
                Some("hex"),
                (20, 20),
                expect(&[("forest", 94), ("river", 40)]),
            ),
            (
                "orthogonal-outside.tmx",
                None,
                (45, 31),
                expect(&[("forest", 6), ("river", 18), ("road", 96)]),
            ),
            (
                "csvmap.tmx",
                None,
                (100, 100),
                expect(&[("forest", 22), ("river", 12)]),
            ),
        ] {
            let text = std::fs::read_to_string(fixture(file)).unwrap();
            let map = read_text(&text, "tmx", None).unwrap();
            assert_eq!(map.grid.as_deref(), grid, "{file}");
            assert_eq!((map.width, map.height), size, "{file}");
            assert_eq!(counts(&map), want, "{file}");
            assert!(map.validate(&rs).is_ok(), "{file}");
            // The same layers written again in gzip and zstd read the same.
            if text.contains(r#"compression="zlib""#) {
                for c in ["gzip", "zstd"] {
                    let again = recompress(&text, c);
                    let map = read_text(&again, "tmx", None).unwrap();
                    assert_eq!(counts(&map), want, "{file} in {c}");
                }
            }
        }
    }

    /// The text with each zlib layer inflated and packed again as `to`.
    fn recompress(text: &str, to: &str) -> String {
        use base64::Engine;
        use std::io::Read;
        let b64 = &base64::engine::general_purpose::STANDARD;
        let mut out = String::new();
        let mut rest = text;
        let open = r#"compression="zlib">"#;
        while let Some(i) = rest.find(open) {
            let (before, after) = rest.split_at(i + open.len());
            out.push_str(
                &before.replace(r#"compression="zlib""#, &format!(r#"compression="{to}""#)),
            );
            let end = after.find("</data>").unwrap();
            let packed = b64
                .decode(after[..end].split_whitespace().collect::<String>())
                .unwrap();
            let mut raw = Vec::new();
            flate2::read::ZlibDecoder::new(&packed[..])
                .read_to_end(&mut raw)
                .unwrap();
            let again =
                layer_data::pack(layer_data::Compression::parse(Some(to), "").unwrap(), &raw);
            out.push_str(&b64.encode(again));
            rest = &after[end..];
        }
        out.push_str(rest);
        out
    }
}
