//! Tiled's JSON (`.tmj`/`.json` maps, `.tsj`/`.json` tilesets). Nesting is bounded by the JSON
//! reader's own limit (refused `too_deep`); a layer's ids are read as numbers or kept as
//! Base64 text until the layer is laid, never as a tree of values.

use super::layer_data::{Compression, Data};
use super::{bad, tmx, too_deep, Doc, Layer, Nation, Prop, Props};
use crate::game::error::GameResult;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

/// Groups of layers deeper than this are refused (the JSON reader stops well before).
const MAX_GROUPS: usize = 32;

#[derive(Deserialize)]
struct JProp {
    name: String,
    #[serde(default, rename = "type")]
    kind: String,
    value: Value,
}

fn jprops(v: &[JProp]) -> Props {
    v.iter()
        .filter_map(|p| {
            let v = match &p.value {
                Value::String(s) if p.kind == "color" && s.len() == 9 && s.starts_with('#') => {
                    Prop::Text(format!("#{}", &s[3..]))
                }
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
    data: Option<JData>,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    compression: Option<String>,
    #[serde(default)]
    objects: Vec<JObject>,
    #[serde(default)]
    layers: Vec<JLayer>,
}

/// A layer's `data`: an array of ids, or a Base64 string.
enum JData {
    Ids(Vec<u32>),
    Text(String),
}

impl<'de> Deserialize<'de> for JData {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<JData, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JData;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of tile ids or a Base64 string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<JData, E> {
                Ok(JData::Text(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<JData, A::Error> {
                let mut ids = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
                while let Some(id) = seq.next_element::<u32>()? {
                    ids.push(id);
                }
                Ok(JData::Ids(ids))
            }
        }
        d.deserialize_any(V)
    }
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

/// A JSON text of type `T`; nesting past the reader's limit is `too_deep`.
fn parse<T: for<'de> Deserialize<'de>>(text: &str, what: &str) -> GameResult<T> {
    serde_json::from_str(text).map_err(|e| {
        let m = e.to_string();
        if m.starts_with("recursion limit exceeded") {
            too_deep(format!(
                "{what} nests deeper than a JSON reader follows: {m}"
            ))
        } else {
            bad(format!("{what}: {m}"))
        }
    })
}

/// Reads a Tiled JSON map; `sources` loads an external tileset (uploads have none).
pub fn read_map(text: &str, sources: &mut tmx::Sources<'_>) -> GameResult<Doc> {
    let map: JMap = parse(text, "not a Tiled JSON map")?;
    let mut doc = Doc {
        width: map.width,
        height: map.height,
        tile_w: map.tilewidth,
        tile_h: map.tileheight,
        // Tiled's defaults when a hexagonal map leaves them out: rows staggered, the odd ones.
        hexagonal: map.orientation == "hexagonal",
        stagger_y: matches!(map.staggeraxis.as_str(), "" | "y"),
        stagger_odd: matches!(map.staggerindex.as_str(), "" | "odd"),
        hex_side: map.hexsidelength,
        infinite: map.infinite,
        props: jprops(&map.properties),
        ..Doc::default()
    };
    for ts in &map.tilesets {
        let local: Vec<(u32, Props)> = match &ts.source {
            None => ts
                .tiles
                .iter()
                .map(|t| (t.id, jprops(&t.properties)))
                .collect(),
            Some(src) => {
                let text = sources(src)?;
                if src.ends_with(".tsx") {
                    let mut set = Doc::default();
                    tmx::read_tileset(&text, 0, &mut set)?;
                    set.tiles.into_iter().collect()
                } else {
                    let set: JTileset = parse(&text, &format!("tileset {src}"))?;
                    set.tiles
                        .iter()
                        .map(|t| (t.id, jprops(&t.properties)))
                        .collect()
                }
            }
        };
        for (id, props) in local {
            let gid = ts
                .firstgid
                .checked_add(id)
                .ok_or_else(|| bad("a tileset's tile id runs past the largest tile id"))?;
            doc.tiles.insert(gid, props);
        }
    }
    layers(map.layers, &mut doc, 0)?;
    Ok(doc)
}

fn layers(list: Vec<JLayer>, doc: &mut Doc, depth: usize) -> GameResult<()> {
    if depth > MAX_GROUPS {
        return Err(too_deep(format!(
            "the map nests groups of layers more than {MAX_GROUPS} deep"
        )));
    }
    for l in list {
        match l.kind.as_str() {
            "tilelayer" => {
                let data = match (l.data, l.encoding.as_deref()) {
                    (Some(JData::Ids(ids)), _) => Data::Ids(ids),
                    (Some(JData::Text(text)), Some("base64")) => Data::Base64 {
                        text,
                        compression: Compression::parse(l.compression.as_deref(), &l.name)?,
                    },
                    _ => return Err(bad(format!("layer `{}` has no tile data", l.name))),
                };
                doc.layers.push(Layer::Tiles { name: l.name, data });
            }
            "objectgroup" if l.name == "nations" => {
                let list = l
                    .objects
                    .into_iter()
                    .map(|o| Nation {
                        props: jprops(&o.properties),
                        name: o.name,
                        x: o.x,
                        y: o.y,
                    })
                    .collect();
                doc.layers.push(Layer::Nations(list));
            }
            "group" => layers(l.layers, doc, depth + 1)?,
            _ => {}
        }
    }
    Ok(())
}
