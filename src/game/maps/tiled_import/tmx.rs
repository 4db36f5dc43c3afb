//! Tiled's XML (`.tmx` maps, `.tsx` tilesets), read as a stream of elements: no recursion, at
//! most [`MAX_DEPTH`] elements deep, every element and attribute known by its local name (a
//! namespace prefix changes nothing), and tile data kept as text until the layer is laid.

use super::layer_data::{Compression, Data};
use super::{bad, too_deep, Doc, Layer, Nation, Prop, Props};
use crate::game::error::GameResult;
use quick_xml::events::{BytesStart, Event};

/// Deeper than any map Tiled writes (a map, a few groups, a layer, its data, a tile).
pub const MAX_DEPTH: usize = 64;

/// The tile layer being read: its data's encoding (`None` for `<tile>` elements) and what
/// it has read so far (text may come in several pieces).
#[derive(Debug, Default)]
struct OpenLayer {
    name: String,
    encoding: Option<Compression>,
    base64: bool,
    ids: Vec<u32>,
    text: String,
}

/// Where a `<properties>` element's values go.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Owner {
    Map,
    Tile(u32),
    Nation(usize),
    Nobody,
}

/// What an open element is, as far as the reading cares.
#[derive(Debug)]
enum Open {
    Map,
    Tileset {
        firstgid: u32,
    },
    Tile {
        gid: u32,
    },
    Properties(Owner),
    Property {
        owner: Owner,
        name: String,
        kind: String,
        text: String,
        has_value: bool,
    },
    Layer,
    Data,
    Nations,
    Object(usize),
    Other,
}

/// The attributes of an element by local name; a name given twice (with or without a prefix)
/// is refused, so no spelling of an attribute can hide another.
struct Attrs {
    tag: String,
    list: Vec<(String, String)>,
}

impl Attrs {
    fn of(e: &BytesStart<'_>) -> GameResult<Attrs> {
        let tag = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
        let mut list: Vec<(String, String)> = Vec::new();
        for a in e.attributes() {
            let a = a.map_err(|err| bad(format!("<{tag}>: {err}")))?;
            let key = String::from_utf8_lossy(a.key.local_name().as_ref()).into_owned();
            if key == "xmlns" || a.key.as_ref().starts_with(b"xmlns:") {
                continue;
            }
            if list.iter().any(|(k, _)| *k == key) {
                return Err(bad(format!(
                    "<{tag}>: the attribute `{key}` is given twice"
                )));
            }
            let v = a
                .unescape_value()
                .map_err(|err| bad(format!("<{tag}> {key}: {err}")))?;
            list.push((key, v.into_owned()));
        }
        Ok(Attrs { tag, list })
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.list
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_ref())
    }

    fn text(&self, key: &str) -> String {
        self.get(key).unwrap_or("").to_string()
    }

    fn int(&self, key: &str) -> GameResult<Option<i64>> {
        self.get(key)
            .map(|v| {
                v.trim().parse::<i64>().map_err(|_| {
                    bad(format!(
                        "<{}> {key}: `{}` is not a whole number",
                        self.tag,
                        short(v)
                    ))
                })
            })
            .transpose()
    }

    fn float(&self, key: &str) -> GameResult<Option<f64>> {
        self.get(key)
            .map(|v| {
                v.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite())
                    .ok_or_else(|| {
                        bad(format!(
                            "<{}> {key}: `{}` is not a number",
                            self.tag,
                            short(v)
                        ))
                    })
            })
            .transpose()
    }

    fn id(&self, key: &str) -> GameResult<u32> {
        let v = self.int(key)?.unwrap_or(0);
        u32::try_from(v).map_err(|_| bad(format!("<{}> {key}: {v} is out of range", self.tag)))
    }
}

fn short(s: &str) -> String {
    s.chars().take(20).collect()
}

/// A property's value as the mapping reads it: colours `#aarrggbb` as `#rrggbb`.
fn prop_value(kind: &str, value: &str) -> Option<Prop> {
    match kind {
        "" | "string" | "file" | "bool" => Some(Prop::Text(value.to_string())),
        "int" | "object" => value.trim().parse().ok().map(Prop::Int),
        "color" => {
            let v = value.trim();
            Some(Prop::Text(if v.len() == 9 && v.starts_with('#') {
                format!("#{}", &v[3..])
            } else {
                v.to_string()
            }))
        }
        _ => None,
    }
}

/// Loads an external tileset's text by its `source`; uploads have none.
pub type Sources<'s> = dyn FnMut(&str) -> GameResult<String> + 's;

/// Reads a TMX map.
pub fn read_map(text: &str, sources: &mut Sources<'_>) -> GameResult<Doc> {
    let mut doc = Doc::default();
    let mut saw_map = false;
    walk(text, &mut doc, None, sources, &mut saw_map)?;
    if !saw_map {
        return Err(bad("a TMX map has one <map> element at its root"));
    }
    Ok(doc)
}

/// Reads a `.tsx` tileset's tile properties into `doc`, its ids counted from `firstgid`.
pub(super) fn read_tileset(text: &str, firstgid: u32, doc: &mut Doc) -> GameResult<()> {
    let mut tsx = Doc::default();
    let mut saw_map = false;
    walk(
        text,
        &mut tsx,
        Some(firstgid),
        &mut |src: &str| Err(bad(format!("tileset {src}: a tileset cannot name another"))),
        &mut saw_map,
    )?;
    if saw_map {
        return Err(bad("a tileset file holds a <tileset>, not a <map>"));
    }
    doc.tiles.extend(tsx.tiles);
    Ok(())
}

fn walk(
    text: &str,
    doc: &mut Doc,
    tileset_root: Option<u32>,
    sources: &mut Sources<'_>,
    saw_map: &mut bool,
) -> GameResult<()> {
    let mut reader = quick_xml::Reader::from_str(text);
    reader.check_end_names(true);
    let mut stack: Vec<Open> = Vec::new();
    let mut layer: Option<OpenLayer> = None;
    // A document has one root element: a second `<map>` must not start the map over.
    let mut roots = 0;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| bad(format!("not a usable TMX file: {e}")))?;
        let (start, empty) = match event {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(_) => {
                let Some(open) = stack.pop() else {
                    return Err(bad("not a usable TMX file: an element closes twice"));
                };
                close(open, doc, &mut layer)?;
                continue;
            }
            Event::Text(t) => {
                if let Some(Open::Data) | Some(Open::Property { .. }) = stack.last() {
                    let s = t
                        .unescape()
                        .map_err(|e| bad(format!("not a usable TMX file: {e}")))?;
                    append_text(&mut stack, &mut layer, &s);
                }
                continue;
            }
            Event::CData(t) => {
                let bytes = t.into_inner();
                let s = std::str::from_utf8(&bytes)
                    .map_err(|e| bad(format!("not a usable TMX file: {e}")))?;
                append_text(&mut stack, &mut layer, s);
                continue;
            }
            Event::DocType(_) => {
                return Err(bad("a TMX map declares no document type"));
            }
            Event::Eof => break,
            _ => continue,
        };
        if stack.len() >= MAX_DEPTH {
            return Err(too_deep(format!(
                "the map nests elements more than {MAX_DEPTH} deep"
            )));
        }
        let a = Attrs::of(&start)?;
        if stack.is_empty() {
            roots += 1;
            if roots > 1 {
                return Err(bad("a TMX file has one root element"));
            }
        }
        let parent = stack.last();
        let open = match (a.tag.as_str(), parent) {
            ("map", None) if tileset_root.is_none() => {
                *saw_map = true;
                map_attrs(&a, doc)?;
                Open::Map
            }
            ("tileset", None) => match tileset_root {
                Some(firstgid) => Open::Tileset { firstgid },
                None => return Err(bad("a TMX map has one <map> element at its root")),
            },
            (_, None) => return Err(bad("a TMX map has one <map> element at its root")),
            ("tileset", Some(Open::Map)) => {
                let firstgid = a.id("firstgid")?;
                if let Some(src) = a.get("source") {
                    read_tileset(&sources(src)?, firstgid, doc)?;
                }
                Open::Tileset { firstgid }
            }
            ("tile", Some(Open::Tileset { firstgid })) => {
                let gid = firstgid
                    .checked_add(a.id("id")?)
                    .ok_or_else(|| bad("a tileset's tile id runs past the largest tile id"))?;
                Open::Tile { gid }
            }
            ("properties", Some(p)) => Open::Properties(match p {
                Open::Map => Owner::Map,
                Open::Tile { gid } => Owner::Tile(*gid),
                Open::Object(i) => Owner::Nation(*i),
                _ => Owner::Nobody,
            }),
            ("property", Some(Open::Properties(owner))) => Open::Property {
                owner: *owner,
                name: a.text("name"),
                kind: a.text("type"),
                has_value: a.get("value").is_some(),
                text: a.text("value"),
            },
            ("layer", Some(Open::Map | Open::Other)) if in_layers(&stack) => {
                for (key, want) in [("width", doc.width), ("height", doc.height)] {
                    if let Some(v) = a.int(key)? {
                        if v != want {
                            return Err(bad(format!(
                                "layer `{}` is {key} {v}, the map {want}",
                                a.text("name")
                            )));
                        }
                    }
                }
                layer = Some(OpenLayer {
                    name: a.text("name"),
                    ..OpenLayer::default()
                });
                Open::Layer
            }
            ("data", Some(Open::Layer)) => {
                if let Some(l) = layer.as_mut() {
                    match a.get("encoding").map(str::trim) {
                        None | Some("") => l.encoding = None,
                        Some("csv") => l.encoding = Some(Compression::None),
                        Some("base64") => {
                            l.encoding = Some(Compression::parse(a.get("compression"), &l.name)?);
                            l.base64 = true;
                        }
                        Some(other) => {
                            return Err(bad(format!(
                                "layer `{}`: unknown encoding `{}` (csv or base64)",
                                l.name,
                                short(other)
                            )))
                        }
                    }
                }
                Open::Data
            }
            ("tile", Some(Open::Data)) => {
                if let Some(l) = layer.as_mut() {
                    if l.encoding.is_some() {
                        return Err(bad(format!(
                            "layer `{}` mixes <tile> and encoded data",
                            l.name
                        )));
                    }
                    l.ids.push(a.id("gid")?);
                }
                Open::Other
            }
            ("chunk", Some(Open::Data)) => {
                return Err(bad(
                    "infinite Tiled maps cannot be imported: give the map a fixed size",
                ))
            }
            ("objectgroup", Some(Open::Map | Open::Other)) if in_layers(&stack) => {
                if a.get("name").map(str::trim) == Some("nations") {
                    doc.layers.push(Layer::Nations(Vec::new()));
                    Open::Nations
                } else {
                    Open::Other
                }
            }
            ("object", Some(Open::Nations)) => {
                let Some(Layer::Nations(list)) = doc.layers.last_mut() else {
                    return Err(bad("an object outside its layer"));
                };
                list.push(Nation {
                    name: a.text("name"),
                    x: a.float("x")?.unwrap_or(0.0),
                    y: a.float("y")?.unwrap_or(0.0),
                    props: Props::new(),
                });
                Open::Object(list.len() - 1)
            }
            ("group", Some(Open::Map | Open::Other)) if in_layers(&stack) => Open::Other,
            _ => Open::Other,
        };
        if empty {
            close(open, doc, &mut layer)?;
        } else {
            stack.push(open);
        }
    }
    if !stack.is_empty() {
        return Err(bad("not a usable TMX file: it ends inside an element"));
    }
    Ok(())
}

/// Layers sit in the map or in groups of layers, never elsewhere (a tile's object group is
/// its collision shapes, not a layer).
fn in_layers(stack: &[Open]) -> bool {
    matches!(stack.first(), Some(Open::Map)) && stack[1..].iter().all(|o| matches!(o, Open::Other))
}

fn append_text(stack: &mut [Open], layer: &mut Option<OpenLayer>, s: &str) {
    match stack.last_mut() {
        Some(Open::Data) => {
            if let Some(l) = layer.as_mut() {
                l.text.push_str(s);
            }
        }
        Some(Open::Property {
            text,
            has_value: false,
            ..
        }) => text.push_str(s),
        _ => {}
    }
}

fn close(open: Open, doc: &mut Doc, layer: &mut Option<OpenLayer>) -> GameResult<()> {
    match open {
        Open::Property {
            owner,
            name,
            kind,
            text,
            ..
        } => {
            let Some(v) = prop_value(&kind, &text) else {
                return Ok(());
            };
            let props = match owner {
                Owner::Map => &mut doc.props,
                Owner::Tile(gid) => doc.tiles.entry(gid).or_default(),
                Owner::Nation(i) => match doc.layers.last_mut() {
                    Some(Layer::Nations(list)) => match list.get_mut(i) {
                        Some(n) => &mut n.props,
                        None => return Ok(()),
                    },
                    _ => return Ok(()),
                },
                Owner::Nobody => return Ok(()),
            };
            props.insert(name, v);
        }
        Open::Layer => {
            if let Some(l) = layer.take() {
                let data = match (l.encoding, l.base64) {
                    (None, _) => Data::Ids(l.ids),
                    (Some(compression), true) => Data::Base64 {
                        text: l.text,
                        compression,
                    },
                    (Some(_), false) => Data::Csv(l.text),
                };
                doc.layers.push(Layer::Tiles { name: l.name, data });
            }
        }
        _ => {}
    }
    Ok(())
}

fn map_attrs(a: &Attrs, doc: &mut Doc) -> GameResult<()> {
    doc.width = a.int("width")?.unwrap_or(0);
    doc.height = a.int("height")?.unwrap_or(0);
    doc.tile_w = a.float("tilewidth")?.unwrap_or(0.0);
    doc.tile_h = a.float("tileheight")?.unwrap_or(0.0);
    doc.hexagonal = a.get("orientation").map(str::trim) == Some("hexagonal");
    doc.stagger_y = matches!(a.get("staggeraxis").map(str::trim), None | Some("y"));
    doc.stagger_odd = matches!(a.get("staggerindex").map(str::trim), None | Some("odd"));
    doc.hex_side = a.float("hexsidelength")?;
    doc.infinite = a.int("infinite")?.unwrap_or(0) != 0;
    super::check_size(doc.width, doc.height)?;
    if doc.infinite {
        return Err(bad(
            "infinite Tiled maps cannot be imported: give the map a fixed size",
        ));
    }
    Ok(())
}
