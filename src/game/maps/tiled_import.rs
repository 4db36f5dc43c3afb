//! Maps drawn in the Tiled editor: `.tmx` files (through the `tiled` crate) and Tiled JSON
//! (`.tmj`/`.json`). Tiles carry custom properties that say what a cell is:
//!
//! - `terrain` (string, one of the ruleset's terrains): the cell's terrain; tiles without it
//!   leave the cell as the layers below made it;
//! - `town`, `owner` (strings): the town the cell belongs to, the nation that owns it;
//! - `structure` (int): structure points of a fort, fortifications or castle cell;
//! - `castle` (string): the castle the cell belongs to (docs/rules.md §10).
//!
//! Tile layers are read bottom to top, a higher layer's tile overriding a lower one. An object
//! layer named `nations` lists the nations: each object's name is the nation, its position the
//! spawn cell, with optional properties `color` (`#rrggbb`) and `treasury` (int). Without it the
//! map gets France and Russia in opposite corners. Map properties `name` and `season` name the
//! world and its season.

use crate::game::error::{GameError, GameResult};
use crate::game::maps::mapfile::{MapFile, MapNation};
use crate::game::maps::sketch::{Sketch, SketchCell, PALETTE};
use crate::rules::{Grid, Pos, Terrain};
use base64::Engine;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

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

/// Lays a tile's properties onto a cell.
fn paint(cell: &mut SketchCell, props: &Props, where_: &str) -> GameResult<()> {
    let Some(t) = text(props, "terrain") else {
        return Ok(());
    };
    cell.terrain = Some(t.parse::<Terrain>().map_err(|_| {
        bad(format!(
            "{where_}: unknown terrain `{t}` in the tile's `terrain` property"
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
                .map_err(|_| bad(format!("{where_}: structure {s} is out of range")))?,
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

// ---------------------------------------------------------------- TMX, through the crate

fn tiled_props(p: &tiled::Properties) -> Props {
    p.iter()
        .filter_map(|(k, v)| {
            let v = match v {
                tiled::PropertyValue::StringValue(s) | tiled::PropertyValue::FileValue(s) => {
                    Prop::Text(s.clone())
                }
                tiled::PropertyValue::IntValue(i) => Prop::Int(*i as i64),
                tiled::PropertyValue::ColorValue(c) => {
                    Prop::Text(format!("#{:02x}{:02x}{:02x}", c.red, c.green, c.blue))
                }
                tiled::PropertyValue::BoolValue(b) => Prop::Text(b.to_string()),
                _ => return None,
            };
            Some((k.clone(), v))
        })
        .collect()
}

fn from_tmx_map(map: &tiled::Map, name: Option<&str>, default_name: &str) -> GameResult<MapFile> {
    if map.infinite() {
        return Err(bad(
            "infinite Tiled maps cannot be imported: give the map a fixed size",
        ));
    }
    let (w, h) = check_size(map.width as i64, map.height as i64)?;
    let mut s = Sketch::new(default_name, w, h);
    s.grid = grid_of(
        map.orientation == tiled::Orientation::Hexagonal,
        map.stagger_axis == tiled::StaggerAxis::Y,
        map.stagger_index == tiled::StaggerIndex::Odd,
    )?;
    let tile = TileSize::new(
        map.tile_width as f64,
        map.tile_height as f64,
        s.grid,
        map.hex_side_length.map(f64::from),
    );
    for layer in map.layers() {
        let lname = layer.name.clone();
        match layer.layer_type() {
            tiled::LayerType::Tiles(tl) => {
                for y in 0..h {
                    for x in 0..w {
                        if let Some(t) = tl.get_tile(x, y).and_then(|lt| lt.get_tile()) {
                            let props = tiled_props(&t.properties);
                            paint(
                                s.get_mut(Pos::new(x, y)).expect("in the map"),
                                &props,
                                &format!("layer `{lname}`, cell ({x}, {y})"),
                            )?;
                        }
                    }
                }
            }
            tiled::LayerType::Objects(ol) if lname == "nations" => {
                for (i, o) in ol.objects().enumerate() {
                    s.nations.push(nation(
                        i,
                        &o.name,
                        o.x as f64,
                        o.y as f64,
                        tile,
                        &tiled_props(&o.properties),
                    )?);
                }
            }
            _ => {}
        }
    }
    Ok(finish(s, &tiled_props(&map.properties), default_name, name))
}

/// Serves one TMX text from memory (tilesets must be embedded in it).
struct OneFile {
    path: PathBuf,
    text: Vec<u8>,
}

impl tiled::ResourceReader for OneFile {
    type Resource = Cursor<Vec<u8>>;
    type Error = std::io::Error;

    fn read_from(&mut self, path: &Path) -> std::io::Result<Cursor<Vec<u8>>> {
        if path == self.path {
            Ok(Cursor::new(self.text.clone()))
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "{} is not part of an uploaded map: embed its tilesets",
                    path.display()
                ),
            ))
        }
    }
}

// ---------------------------------------------------------------- Tiled JSON

#[derive(Deserialize)]
struct JProp {
    name: String,
    value: Value,
}

fn jprops(v: &[JProp]) -> Props {
    v.iter()
        .filter_map(|p| {
            let v = match &p.value {
                Value::String(s) => Prop::Text(s.clone()),
                Value::Number(n) => Prop::Int(n.as_i64()?),
                Value::Bool(b) => Prop::Text(b.to_string()),
                _ => return None,
            };
            Some((p.name.clone(), v))
        })
        .collect()
}

#[derive(Deserialize)]
struct JMap {
    width: i64,
    height: i64,
    #[serde(default)]
    orientation: String,
    #[serde(default)]
    staggeraxis: String,
    #[serde(default)]
    staggerindex: String,
    #[serde(default)]
    hexsidelength: Option<f64>,
    #[serde(default)]
    tilewidth: f64,
    #[serde(default)]
    tileheight: f64,
    #[serde(default)]
    infinite: bool,
    #[serde(default)]
    properties: Vec<JProp>,
    #[serde(default)]
    layers: Vec<JLayer>,
    #[serde(default)]
    tilesets: Vec<JTilesetRef>,
}

#[derive(Deserialize)]
struct JLayer {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    data: Option<Value>,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    compression: Option<String>,
    #[serde(default)]
    objects: Vec<JObject>,
    #[serde(default)]
    layers: Vec<JLayer>,
}

#[derive(Deserialize)]
struct JObject {
    #[serde(default)]
    name: String,
    x: f64,
    y: f64,
    #[serde(default)]
    properties: Vec<JProp>,
}

#[derive(Deserialize)]
struct JTilesetRef {
    firstgid: u32,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    tiles: Vec<JTile>,
}

#[derive(Deserialize)]
struct JTileset {
    #[serde(default)]
    tiles: Vec<JTile>,
}

#[derive(Deserialize)]
struct JTile {
    id: u32,
    #[serde(default)]
    properties: Vec<JProp>,
}

/// Tile properties by global tile id.
fn json_tiles(map: &JMap, dir: Option<&Path>) -> GameResult<HashMap<u32, Props>> {
    let mut out = HashMap::new();
    for ts in &map.tilesets {
        let local: Vec<(u32, Props)> = match &ts.source {
            None => ts
                .tiles
                .iter()
                .map(|t| (t.id, jprops(&t.properties)))
                .collect(),
            Some(src) => {
                let dir = dir.ok_or_else(|| {
                    bad(format!(
                        "tileset `{src}` is external: embed the tilesets in an uploaded map"
                    ))
                })?;
                let path = dir.join(src);
                if src.ends_with(".tsx") {
                    let set = tiled::Loader::new()
                        .load_tsx_tileset(&path)
                        .map_err(|e| bad(format!("tileset {src}: {e}")))?;
                    set.tiles()
                        .map(|(id, t)| (id, tiled_props(&t.properties)))
                        .collect()
                } else {
                    let text = std::fs::read_to_string(&path)
                        .map_err(|e| bad(format!("tileset {src}: {e}")))?;
                    let set: JTileset = serde_json::from_str(&text)
                        .map_err(|e| bad(format!("tileset {src}: {e}")))?;
                    set.tiles
                        .iter()
                        .map(|t| (t.id, jprops(&t.properties)))
                        .collect()
                }
            }
        };
        for (id, props) in local {
            out.insert(ts.firstgid + id, props);
        }
    }
    Ok(out)
}

/// A tile layer's global ids, from a plain array or uncompressed base64.
fn json_data(l: &JLayer, cells: usize) -> GameResult<Vec<u32>> {
    let ids: Vec<u32> = match (&l.data, l.encoding.as_deref()) {
        (Some(Value::Array(a)), _) => a.iter().map(|v| v.as_u64().unwrap_or(0) as u32).collect(),
        (Some(Value::String(s)), Some("base64")) => {
            if l.compression.as_deref().is_some_and(|c| !c.is_empty()) {
                return Err(bad(format!(
                    "layer `{}` is compressed: save it as CSV or uncompressed Base64",
                    l.name
                )));
            }
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(s.trim())
                .map_err(|e| bad(format!("layer `{}`: {e}", l.name)))?;
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        }
        _ => return Err(bad(format!("layer `{}` has no tile data", l.name))),
    };
    if ids.len() != cells {
        return Err(bad(format!(
            "layer `{}` has {} tiles for {cells} cells",
            l.name,
            ids.len()
        )));
    }
    Ok(ids)
}

fn json_layers(
    layers: &[JLayer],
    s: &mut Sketch,
    tiles: &HashMap<u32, Props>,
    tile: TileSize,
) -> GameResult<()> {
    for l in layers {
        match l.kind.as_str() {
            "tilelayer" => {
                let ids = json_data(l, s.cells.len())?;
                for (i, gid) in ids.into_iter().enumerate() {
                    // The top bits of a gid are flip flags.
                    if let Some(props) = tiles.get(&(gid & 0x0FFF_FFFF)) {
                        let (x, y) = (i as i32 % s.width, i as i32 / s.width);
                        paint(
                            &mut s.cells[i],
                            props,
                            &format!("layer `{}`, cell ({x}, {y})", l.name),
                        )?;
                    }
                }
            }
            "objectgroup" if l.name == "nations" => {
                for (i, o) in l.objects.iter().enumerate() {
                    s.nations
                        .push(nation(i, &o.name, o.x, o.y, tile, &jprops(&o.properties))?);
                }
            }
            "group" => json_layers(&l.layers, s, tiles, tile)?,
            _ => {}
        }
    }
    Ok(())
}

fn from_json(
    text: &str,
    dir: Option<&Path>,
    name: Option<&str>,
    default_name: &str,
) -> GameResult<MapFile> {
    let map: JMap =
        serde_json::from_str(text).map_err(|e| bad(format!("not a Tiled JSON map: {e}")))?;
    if map.infinite {
        return Err(bad(
            "infinite Tiled maps cannot be imported: give the map a fixed size",
        ));
    }
    let (w, h) = check_size(map.width, map.height)?;
    let tiles = json_tiles(&map, dir)?;
    let mut s = Sketch::new(default_name, w, h);
    // Tiled's defaults when a hexagonal map leaves them out: rows staggered, the odd ones.
    s.grid = grid_of(
        map.orientation == "hexagonal",
        matches!(map.staggeraxis.as_str(), "" | "y"),
        matches!(map.staggerindex.as_str(), "" | "odd"),
    )?;
    let tile = TileSize::new(map.tilewidth, map.tileheight, s.grid, map.hexsidelength);
    json_layers(&map.layers, &mut s, &tiles, tile)?;
    Ok(finish(s, &jprops(&map.properties), default_name, name))
}

// ---------------------------------------------------------------- entry points

/// Reads a Tiled map file (`.tmx`, or `.tmj`/`.json`), with its external tilesets.
pub fn read_file(path: &Path, name: Option<&str>) -> GameResult<MapFile> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("Tiled map")
        .to_string();
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_lowercase)
        .as_deref()
    {
        Some("tmx") => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| bad(format!("{}: {e}", path.display())))?;
            check_tmx_text(&text)?;
            let map = tiled::Loader::new()
                .load_tmx_map(path)
                .map_err(|e| bad(format!("{}: {e}", path.display())))?;
            from_tmx_map(&map, name, &stem)
        }
        Some("tmj") | Some("json") => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| bad(format!("{}: {e}", path.display())))?;
            from_json(&text, path.parent(), name, &stem)
        }
        _ => Err(bad(format!(
            "{}: a Tiled map is a .tmx, .tmj or .json file",
            path.display()
        ))),
    }
}

/// The attributes of every `<tag …>` in an XML text, as written (no entity decoding: the
/// numbers and keywords looked at here need none).
fn xml_tags<'a>(text: &'a str, tag: &str) -> Vec<Vec<(&'a str, &'a str)>> {
    let open = format!("<{tag}");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(&open) {
        let after = &rest[i + open.len()..];
        rest = after;
        if !after.starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/') {
            continue;
        }
        let end = after.find('>').unwrap_or(after.len());
        let mut attrs = Vec::new();
        let mut a = &after[..end];
        while let Some(eq) = a.find('=') {
            let key = a[..eq].trim();
            let v = a[eq + 1..].trim_start();
            let Some(q) = v.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                break;
            };
            let Some(close) = v[1..].find(q) else {
                break;
            };
            attrs.push((
                key.rsplit(char::is_whitespace).next().unwrap_or(key),
                &v[1..1 + close],
            ));
            a = &v[close + 2..];
        }
        out.push(attrs);
    }
    out
}

/// What the TMX reader would be asked to allocate or inflate, checked on the text before it
/// runs: the map's and each layer's size within a world's, no infinite (chunked) maps, no
/// compressed layers (a few kilobytes of zlib can stand for gigabytes), tilesets of a sane
/// tile count.
fn check_tmx_text(text: &str) -> GameResult<()> {
    let num = |attrs: &[(&str, &str)], key: &str| -> Option<i64> {
        attrs
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| v.trim().parse().ok())
    };
    let maps = xml_tags(text, "map");
    let [map] = maps.as_slice() else {
        return Err(bad("a TMX map has one <map> element"));
    };
    check_size(
        num(map, "width").unwrap_or(0),
        num(map, "height").unwrap_or(0),
    )?;
    if num(map, "infinite").unwrap_or(0) != 0 {
        return Err(bad(
            "infinite Tiled maps are not supported: give the map a fixed size",
        ));
    }
    for layer in xml_tags(text, "layer") {
        check_size(
            num(&layer, "width").unwrap_or(1),
            num(&layer, "height").unwrap_or(1),
        )?;
    }
    for data in xml_tags(text, "data") {
        if data
            .iter()
            .any(|(k, v)| *k == "compression" && !v.is_empty())
        {
            return Err(bad(
                "compressed layers are not accepted: save the map as CSV or uncompressed Base64",
            ));
        }
    }
    let max_tiles = 1 << 16;
    for set in xml_tags(text, "tileset") {
        if num(&set, "tilecount").unwrap_or(0) > max_tiles {
            return Err(bad(format!("a tileset has at most {max_tiles} tiles")));
        }
    }
    Ok(())
}

/// Reads an uploaded Tiled map (tilesets embedded); `format` is `tmx` or `json`.
pub fn read_text(text: &str, format: &str, name: Option<&str>) -> GameResult<MapFile> {
    match format {
        "tmx" => {
            check_tmx_text(text)?;
            let path = PathBuf::from("uploaded.tmx");
            let mut loader = tiled::Loader::with_reader(OneFile {
                path: path.clone(),
                text: text.as_bytes().to_vec(),
            });
            let map = loader
                .load_tmx_map(&path)
                .map_err(|e| bad(format!("not a usable TMX map: {e}")))?;
            from_tmx_map(&map, name, "Tiled map")
        }
        "json" | "tmj" => from_json(text, None, name, "Tiled map"),
        other => Err(bad(format!("unknown Tiled format `{other}` (tmx or json)"))),
    }
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
    fn what_the_tmx_reader_would_allocate_is_checked_first() {
        assert!(check_tmx_text(SMALL).is_ok());
        for (bomb, says) in [
            (
                SMALL.replace(
                    r#"width="3" height="2" tilewidth"#,
                    r#"width="100000" height="100000" tilewidth"#,
                ),
                "cells on each side",
            ),
            (
                SMALL.replace(
                    r#"name="ground" width="3""#,
                    r#"name="ground" width="2000000000""#,
                ),
                "cells on each side",
            ),
            (
                SMALL.replace(r#"infinite="0""#, r#"infinite="1""#),
                "infinite",
            ),
            (
                SMALL.replace(
                    r#"encoding="csv""#,
                    r#"encoding="base64" compression="zlib""#,
                ),
                "compressed",
            ),
            (
                SMALL.replace(r#"tilecount="4""#, r#"tilecount="4000000000""#),
                "at most",
            ),
            (SMALL.replace("<map ", "<mapx "), "one <map>"),
        ] {
            let e = check_tmx_text(&bomb).unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
            assert!(read_text(&bomb, "tmx", None).is_err());
        }
    }
}
