//! Hostile inputs for every parser that reads what a stranger sends: the map file, Tiled's TMX
//! and JSON, the ruleset, an order's fields, a message's body and a marker's label, tick
//! schedules and query strings. Each target says what must hold whatever the input: no panic,
//! a refusal that is the caller's fault (4xx), and what an accepted value promises.
//!
//! `cargo test fuzz` runs a few thousand cases of each; `cargo bench --bench fuzz` a million.
//! A failing case is saved under `proptest-regressions/fuzz/` and replayed first ever after.

use grognard::game::maps::{mapfile, tiled_import};
use grognard::game::talk::text::{Body, Label};
use grognard::game::GameError;
use grognard::rules::Ruleset;
use grognard::schedule::Schedule;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
use serde_json::{json, Value};
use std::sync::OnceLock;

fn rules() -> &'static Ruleset {
    static RS: OnceLock<Ruleset> = OnceLock::new();
    RS.get_or_init(Ruleset::shipped)
}

/// A refusal must be the caller's fault, never the server's.
fn refused(e: &GameError) -> Result<(), TestCaseError> {
    prop_assert!(
        (400..500).contains(&e.status()),
        "{} answered {}: {e}",
        e.code(),
        e.status()
    );
    Ok(())
}

// ---------------------------------------------------------------- generators

/// Characters that break parsers: controls, the marks that turn text around, a byte-order
/// mark, the last code point of each plane, combining marks, quotes and angle brackets.
fn nasty_char() -> impl Strategy<Value = char> {
    prop_oneof![
        any::<char>(),
        prop::sample::select(vec![
            '\0',
            '\t',
            '\n',
            '\r',
            '\u{1b}',
            '\u{7f}',
            '\u{85}',
            '\u{200b}',
            '\u{200e}',
            '\u{200f}',
            '\u{061c}',
            '\u{202e}',
            '\u{2066}',
            '\u{2069}',
            '\u{feff}',
            '\u{fffd}',
            '\u{ffff}',
            '\u{1ffff}',
            '\u{10ffff}',
            '\u{301}',
            '<',
            '>',
            '&',
            '"',
            '\'',
            ',',
            ';',
            ':',
            '#',
            'x',
            '0',
            '-',
            ' ',
        ]),
    ]
}

fn nasty_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(nasty_char(), 0..40).prop_map(|v| v.into_iter().collect()),
        any::<String>(),
        Just(String::new()),
    ]
}

/// Numbers as text: huge, negative, not numbers at all.
fn nasty_number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0i64..64).prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| f.to_string()),
        prop::sample::select(vec![
            "-1",
            "0",
            "-0",
            "2147483648",
            "4294967296",
            "99999999999999999999999",
            "1e400",
            "NaN",
            "inf",
            "-inf",
            "0x10",
            " 7 ",
            "",
            "1.5",
            "+3",
            "٣",
        ])
        .prop_map(str::to_string),
    ]
}

/// A JSON value of any shape, with hostile leaves, up to a few levels deep.
fn nasty_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        nasty_text().prop_map(Value::String),
        nasty_number().prop_map(Value::String),
        ((-3i64..50), (-3i64..50)).prop_map(|(x, y)| json!([x, y])),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(nasty_text(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Nesting a reader must refuse rather than follow: none, a little, a lot.
fn depth() -> impl Strategy<Value = usize> {
    prop_oneof![4 => 0usize..4, 1 => 4usize..80, 1 => prop::sample::select(vec![500usize, 5000])]
}

fn prefix() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "", "", "x:", "tiled:", "xmlns:"])
}

/// An attribute `key="value"` under a random prefix, the value a number, a keyword or junk.
fn attr(key: &'static str) -> impl Strategy<Value = String> {
    (
        prefix(),
        prop_oneof![
            nasty_number(),
            prop::sample::select(vec![
                "hexagonal",
                "orthogonal",
                "staggered",
                "x",
                "y",
                "odd",
                "even",
                "zlib",
                "gzip",
                "zstd",
                "base64",
                "csv",
                "lz4",
            ])
            .prop_map(str::to_string),
            nasty_text(),
        ],
        prop::bool::weighted(0.8),
    )
        .prop_map(move |(p, v, present)| {
            if present {
                format!(r#" {p}{key}="{}""#, xml_escape(&v))
            } else {
                String::new()
            }
        })
}

fn xml_escape(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control() && *c != '\u{fffe}' && *c != '\u{ffff}')
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '&' => "&amp;".to_string(),
            '"' => "&quot;".to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// A tile layer's data in one of Tiled's encodings, often of the map's size, sometimes a bomb.
fn layer_data(cells: usize) -> impl Strategy<Value = (String, String)> {
    use base64::Engine;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let ids = prop::collection::vec(prop_oneof![0u32..6, any::<u32>()], cells..=cells);
    prop_oneof![
        ids.clone().prop_map(|v| {
            let csv: Vec<String> = v.iter().map(u32::to_string).collect();
            (r#" encoding="csv""#.to_string(), csv.join(","))
        }),
        (ids, prop::sample::select(vec!["", "zlib", "gzip", "zstd"])).prop_map(move |(v, c)| {
            let raw: Vec<u8> = v.iter().flat_map(|i| i.to_le_bytes()).collect();
            let packed = pack(c, &raw);
            (
                format!(r#" encoding="base64" compression="{c}""#),
                b64(&packed),
            )
        }),
        // A bomb: a megabyte of zeros behind a few hundred bytes (packed once).
        prop::sample::select(vec![0usize, 1, 2]).prop_map(|i| {
            let (c, text) = &bombs()[i];
            (
                format!(r#" encoding="base64" compression="{c}""#),
                text.clone(),
            )
        }),
        (nasty_text(), prop::sample::select(vec!["", "zlib", "zstd"])).prop_map(|(t, c)| {
            (
                format!(r#" encoding="base64" compression="{c}""#),
                xml_escape(&t),
            )
        }),
        nasty_text().prop_map(|t| (r#" encoding="csv""#.to_string(), xml_escape(&t))),
    ]
}

/// A megabyte of zeros in each compression, in Base64.
fn bombs() -> &'static [(&'static str, String); 3] {
    use base64::Engine;
    static BOMBS: OnceLock<[(&'static str, String); 3]> = OnceLock::new();
    BOMBS.get_or_init(|| {
        ["zlib", "gzip", "zstd"].map(|c| {
            let packed = pack(c, &vec![0u8; 1 << 20]);
            (c, base64::engine::general_purpose::STANDARD.encode(packed))
        })
    })
}

/// `raw` compressed as `c` (zlib, gzip, zstd; anything else: as it is).
pub fn pack(c: &str, raw: &[u8]) -> Vec<u8> {
    use std::io::Write;
    match c {
        "zlib" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), Default::default());
            let _ = e.write_all(raw);
            e.finish().unwrap_or_default()
        }
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), Default::default());
            let _ = e.write_all(raw);
            e.finish().unwrap_or_default()
        }
        "zstd" => {
            ruzstd::encoding::compress_to_vec(raw, ruzstd::encoding::CompressionLevel::Fastest)
        }
        _ => raw.to_vec(),
    }
}

fn property() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "terrain",
            "town",
            "owner",
            "structure",
            "castle",
            "color",
        ]),
        prop::sample::select(vec!["", "int", "string", "color", "bool", "float"]),
        prop_oneof![
            prop::sample::select(vec!["forest", "plain", "town", "fort", "tower", "lava"])
                .prop_map(str::to_string),
            nasty_number(),
            nasty_text(),
        ],
    )
        .prop_map(|(name, kind, value)| {
            format!(
                r#"<property name="{name}" type="{kind}" value="{}"/>"#,
                xml_escape(&value)
            )
        })
}

/// A TMX map: hostile attributes under random prefixes, tilesets with properties, layers in
/// every encoding nested in groups, nations, and sometimes cut short.
fn tmx() -> impl Strategy<Value = String> {
    let size = (1usize..6, 1usize..6);
    size.prop_flat_map(|(w, h)| {
        (
            (
                attr("orientation"),
                attr("staggeraxis"),
                attr("staggerindex"),
                attr("hexsidelength"),
                attr("infinite"),
                attr("tilewidth"),
                prefix(),
            ),
            prop::collection::vec((0u32..6, prop::collection::vec(property(), 0..3)), 0..4),
            prop::collection::vec((layer_data(w * h), depth(), prefix()), 0..3),
            prop::collection::vec((nasty_text(), nasty_number(), nasty_number()), 0..3),
            prop::option::weighted(0.1, any::<prop::sample::Index>()),
            Just((w, h)),
        )
    })
    .prop_map(|(map_attrs, tiles, layers, nations, cut, (w, h))| {
        let (o, sa, si, hs, inf, tw, p) = map_attrs;
        let mut s = format!(
            r#"<?xml version="1.0"?><map version="1.10"{o}{sa}{si}{hs}{inf}{tw} {p}width="{w}" height="{h}" tileheight="32">"#
        );
        s.push_str(r#"<tileset firstgid="1" name="t" tilecount="8" columns="4">"#);
        for (id, props) in tiles {
            s.push_str(&format!(r#"<tile id="{id}"><properties>{}</properties></tile>"#, props.concat()));
        }
        s.push_str("</tileset>");
        for ((enc, data), d, p) in layers {
            s.push_str(&"<group>".repeat(d));
            s.push_str(&format!(
                r#"<layer name="l" width="{w}" height="{h}"><data {p}{}>{data}</data></layer>"#,
                enc.trim_start()
            ));
            s.push_str(&"</group>".repeat(d));
        }
        if !nations.is_empty() {
            s.push_str(r#"<objectgroup name="nations">"#);
            for (name, x, y) in nations {
                s.push_str(&format!(
                    r#"<object name="{}" x="{}" y="{}"/>"#,
                    xml_escape(&name),
                    xml_escape(&x),
                    xml_escape(&y)
                ));
            }
            s.push_str("</objectgroup>");
        }
        s.push_str("</map>");
        if let Some(i) = cut {
            let mut at = i.index(s.len());
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            s.truncate(at);
        }
        s
    })
}

/// A Tiled JSON map: the same ideas, as JSON, with values of any shape where numbers belong.
fn tiled_json() -> impl Strategy<Value = String> {
    (
        1i64..6,
        1i64..6,
        prop::sample::select(vec!["orthogonal", "hexagonal", "isometric", ""]),
        prop::collection::vec((0u32..6, nasty_json()), 0..4),
        prop::collection::vec((0u32..8, prop::sample::select(vec!["", "zlib", "gzip", "zstd"])), 0..3),
        depth(),
        nasty_json(),
    )
        .prop_map(|(w, h, orientation, tiles, layers, d, junk)| {
            use base64::Engine;
            let cells = (w * h) as usize;
            let tiles: Vec<Value> = tiles
                .into_iter()
                .map(|(id, v)| json!({"id": id, "properties": [{"name": "terrain", "value": v}]}))
                .collect();
            let mut list: Vec<Value> = layers
                .into_iter()
                .map(|(id, c)| {
                    let raw: Vec<u8> = std::iter::repeat_n(id, cells).flat_map(u32::to_le_bytes).collect();
                    if c.is_empty() && id % 2 == 0 {
                        json!({"type": "tilelayer", "name": "l", "data": vec![id; cells]})
                    } else {
                        json!({"type": "tilelayer", "name": "l", "encoding": "base64", "compression": c,
                               "data": base64::engine::general_purpose::STANDARD.encode(pack(c, &raw))})
                    }
                })
                .collect();
            list.push(json!({"type": "objectgroup", "name": "nations", "objects": [
                {"name": "France", "x": 1.0, "y": 2.0, "properties": [{"name": "treasury", "value": junk}]}
            ]}));
            // Groups written as text: a JSON value that deep would overflow the writer's stack
            // (and its own drop) before the server saw it.
            let layers = format!(
                "{}{}{}",
                r#"[{"type":"group","layers":"#.repeat(d),
                Value::Array(list),
                "}]".repeat(d)
            );
            let map = json!({
                "width": w, "height": h, "tilewidth": 32, "tileheight": 32, "orientation": orientation,
                "layers": "LAYERS", "tilesets": [{"firstgid": 1, "tiles": tiles}],
            });
            map.to_string().replace(r#""LAYERS""#, &layers)
        })
}

/// A map file: a valid one with some entries replaced by anything.
fn map_file() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(
            (
                prop::sample::select(vec![
                    "name", "width", "height", "grid", "season", "rng_seed", "nations", "towns",
                    "cells", "castles", "victory", "edges",
                ]),
                nasty_json(),
            ),
            0..3,
        ),
        prop::collection::vec((-2i32..8, -2i32..8, nasty_text(), nasty_json()), 0..6),
    )
        .prop_map(|(replace, cells)| {
            let mut m = json!({
                "name": "Fuzz", "width": 6, "height": 6,
                "nations": [{"name": "France", "color": "#0000ff", "spawn": [0, 0]},
                            {"name": "Russia", "color": "#00ff00", "spawn": [5, 5]}],
                "towns": [{"name": "T", "owner": "France"}],
                "castles": [{"name": "C"}],
                "cells": cells.into_iter().map(|(x, y, t, c)| json!({
                    "x": x, "y": y,
                    "terrain": if t.len() % 3 == 0 { "tower".to_string() } else { t },
                    "castle": if c.is_null() { json!("C") } else { c },
                })).collect::<Vec<_>>(),
                "edges": [{"x": 1, "y": 1, "side": "E", "feature": "rampart"}],
            });
            for (k, v) in replace {
                m[k] = v;
            }
            m.to_string()
        })
}

/// The shipped ruleset with a line changed: a number made hostile, a line dropped, a deep
/// array added.
fn ruleset() -> impl Strategy<Value = String> {
    let text = include_str!("../../config/rules.toml");
    let lines: Vec<&'static str> = text.lines().collect();
    let n = lines.len();
    (
        prop::collection::vec((0..n, 0u8..3, nasty_number()), 1..4),
        prop::option::weighted(0.05, 1usize..300),
    )
        .prop_map(move |(changes, deep)| {
            let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            for (i, how, v) in changes {
                match how {
                    0 => {
                        if let Some((k, _)) = out[i].split_once('=') {
                            out[i] = format!("{k}= {v}");
                        }
                    }
                    1 => out[i].clear(),
                    _ => out[i] = format!("{}{v}", out[i]),
                }
            }
            if let Some(d) = deep {
                out.push(format!("deep = {}{}", "[".repeat(d), "]".repeat(d)));
            }
            out.join("\n")
        })
}

fn schedule() -> impl Strategy<Value = String> {
    let field = prop_oneof![
        prop::sample::select(vec![
            "*", "*/6", "0", "59", "1-5", "MON-FRI", "*/0", "99", "L", "?"
        ])
        .prop_map(str::to_string),
        nasty_number(),
    ];
    prop_oneof![
        prop::collection::vec(field, 1..8).prop_map(|f| f.join(" ")),
        (
            nasty_number(),
            prop::sample::select(vec!["s", "m", "h", "d", "w", "y", ""])
        )
            .prop_map(|(n, u)| format!("every {n}{u}")),
        (nasty_number(), nasty_text()).prop_map(|(n, f)| format!("every {n}d from {f}")),
        (1i64..100, -5000i64..5000)
            .prop_map(|(n, y)| format!("every {n}h from {y:04}-01-01T00:00:00Z")),
        nasty_text(),
    ]
}

/// A query string of the pages' and the API's keys, values of every kind, some encoded.
fn query() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::sample::select(vec![
                "x", "y", "zoom", "cell", "company", "report", "at.x", "at.y", "by", "page",
                "with", "before", "at", "format", "name", "user",
            ]),
            prop_oneof![nasty_number(), nasty_text()],
            any::<bool>(),
        ),
        0..6,
    )
    .prop_map(|pairs| {
        pairs
            .into_iter()
            .map(|(k, v, encode)| {
                let v = if encode {
                    v.bytes().map(|b| format!("%{b:02X}")).collect()
                } else {
                    v.replace(['&', '#'], "")
                };
                format!("{k}={v}")
            })
            .collect::<Vec<_>>()
            .join("&")
    })
}

// ---------------------------------------------------------------- checks

fn check_tiled(text: &str, format: &str) -> Result<bool, TestCaseError> {
    match tiled_import::read_text(text, format, None) {
        Ok(map) => {
            prop_assert!(map.width >= 1 && map.height >= 1);
            if let Err(e) = map.validate(rules()) {
                refused(&e.into())?;
            }
            Ok(true)
        }
        Err(e) => refused(&e).map(|_| false),
    }
}

fn check_map_file(text: &str) -> Result<bool, TestCaseError> {
    match mapfile::parse(text) {
        Ok(map) => match map.validate(rules()) {
            Ok(valid) => {
                // What was accepted reads back as itself.
                let again = valid.to_file().validate(rules());
                prop_assert!(again.is_ok(), "{:?}", again.err());
                Ok(true)
            }
            Err(e) => refused(&e.into()).map(|_| false),
        },
        Err(e) => refused(&e.into()).map(|_| false),
    }
}

fn check_ruleset(text: &str) -> Result<bool, TestCaseError> {
    let Ok(rs) = Ruleset::from_toml(text) else {
        return Ok(false);
    };
    for season in [
        grognard::rules::Season::Summer,
        grognard::rules::Season::Winter,
    ] {
        prop_assert!(rs.cheapest_step(season) >= 0);
    }
    Ok(true)
}

fn check_order(action: &str, body: &Value) -> Result<bool, TestCaseError> {
    // A body that is not an object of fields is the JSON extractor's refusal (422).
    let Ok(fields) = serde_json::from_value::<grognard::wire::play::OrderFields>(body.clone())
    else {
        return Ok(false);
    };
    match grognard::web::order_input::parse(action, &fields) {
        Ok(_) => Ok(true),
        Err(e) => refused(&e).map(|_| false),
    }
}

/// What a body or label promises once accepted: trimmed, of an allowed length, nothing that
/// a database refuses, a terminal obeys or that turns the text around.
fn check_text(raw: &str, max: usize) -> Result<bool, TestCaseError> {
    let turns = |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}');
    let mut accepted = false;
    match Body::parse(raw, max) {
        Ok(b) => {
            accepted = true;
            let s = b.as_str();
            let n = s.chars().count();
            prop_assert!(n >= 1 && n <= max, "{n} characters");
            prop_assert_eq!(s, s.trim());
            prop_assert!(!s
                .chars()
                .any(|c| (c.is_control() && c != '\n' && c != '\t') || turns(c)));
        }
        Err(e) => refused(&e)?,
    }
    match Label::parse(raw, max) {
        Ok(l) => {
            let s = l.as_str();
            prop_assert!(s.chars().count() <= max && !s.is_empty());
            prop_assert!(!s.chars().any(|c| c.is_control() || turns(c)));
        }
        Err(e) => refused(&e)?,
    }
    Ok(accepted)
}

fn check_schedule(expr: &str, t: i64, anchor: i64) -> Result<bool, TestCaseError> {
    let Ok(s) = Schedule::parse(expr) else {
        return Ok(false);
    };
    if let Some(next) = s.next_after(t, anchor) {
        prop_assert!(next > t, "{expr}: {next} after {t}");
    }
    let due = s.due(t, t.saturating_add(86_400 * 30), 16, anchor);
    prop_assert!(due.len() <= 16);
    prop_assert!(due.windows(2).all(|w| w[0] < w[1] && w[0] > t));
    Ok(true)
}

fn check_query(q: &str) -> Result<bool, TestCaseError> {
    use actix_web::web::Query;
    use grognard::web::pages::world::{parse_cell, WorldQuery};
    let world = Query::<WorldQuery>::from_query(q);
    let accepted = world.is_ok();
    if let Ok(w) = world {
        if let Some(c) = w.cell.as_deref() {
            let _ = parse_cell(c);
        }
        let zooms = [(20, 9, 9), (30, 13, 11), (40, 21, 15)];
        let v = grognard::web::render::viewport::Viewport::around(
            &zooms,
            2000,
            2000,
            (w.x.unwrap_or(0), w.y.unwrap_or(0)),
            w.zoom.unwrap_or(2),
        );
        prop_assert!(v.x0 >= 0 && v.x1 < 2000 && v.y0 >= 0 && v.y1 < 2000 && v.x0 <= v.x1);
    }
    if let Ok(r) = Query::<grognard::wire::campaign::RankingsQuery>::from_query(q) {
        if let Some(by) = r.by.as_deref() {
            if let Err(e) = grognard::game::campaign::scores::RankBy::parse(by) {
                refused(&e)?;
            }
        }
    }
    let _ = Query::<grognard::web::pages::messages::MessagesQuery>::from_query(q);
    let _ = Query::<grognard::wire::editor::AuditQuery>::from_query(q);
    Ok(accepted)
}

// ---------------------------------------------------------------- runners

/// One parser's run: `cases` inputs, a failure saved to `proptest-regressions/fuzz/NAME.txt`.
fn runner(name: &str, cases: u32) -> TestRunner {
    let path: &'static str =
        Box::leak(format!("proptest-regressions/fuzz/{name}.txt").into_boxed_str());
    TestRunner::new(Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(path))),
        ..Config::default()
    })
}

/// The parsers by name, each run for `cases` inputs; an error names the smallest failing one.
pub const TARGETS: [&str; 9] = [
    "tmx",
    "tiled_json",
    "map_file",
    "ruleset",
    "order",
    "text",
    "schedule",
    "query",
    "depth",
];

/// Runs `check` on `cases` inputs of `strategy`; how many were accepted, or the failure.
fn go<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) -> Result<usize, String> {
    let accepted = std::sync::atomic::AtomicUsize::new(0);
    runner(name, cases)
        .run(&strategy, |v| {
            if check(v)? {
                accepted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            Ok(())
        })
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(accepted.into_inner())
}

/// Runs one parser's `cases`; returns how many inputs it accepted.
pub fn run(name: &str, cases: u32) -> Result<usize, String> {
    match name {
        "tmx" => go(name, cases, tmx(), |s| check_tiled(&s, "tmx")),
        "tiled_json" => go(name, cases, tiled_json(), |s| check_tiled(&s, "json")),
        "map_file" => go(name, cases, map_file(), |s| check_map_file(&s)),
        "ruleset" => go(name, cases, ruleset(), |s| check_ruleset(&s)),
        "order" => go(
            name,
            cases,
            (
                prop_oneof![
                    prop::sample::select(vec![
                        "move",
                        "volley",
                        "melee",
                        "bombard",
                        "build-bridge",
                        "repair",
                        "ram",
                        "build-siege-tower",
                        "heal",
                        "reinforce",
                    ])
                    .prop_map(str::to_string),
                    nasty_text(),
                ],
                prop::collection::btree_map(
                    prop::sample::select(vec!["path", "to", "target", "at", "men", "x"]),
                    nasty_json(),
                    0..3,
                ),
            ),
            |(a, body)| {
                let body =
                    Value::Object(body.into_iter().map(|(k, v)| (k.to_string(), v)).collect());
                check_order(&a, &body)
            },
        ),
        "text" => go(name, cases, (nasty_text(), 1usize..50), |(s, max)| {
            check_text(&s, max)
        }),
        "schedule" => go(
            name,
            cases,
            (
                schedule(),
                any::<i64>(),
                prop_oneof![Just(0i64), any::<i64>()],
            ),
            |(s, t, a)| check_schedule(&s, t, a),
        ),
        "query" => go(name, cases, query(), |q| check_query(&q)),
        // Nesting alone, far past any reader's limit, in every format: never accepted.
        "depth" => go(name, cases, (1usize..6_000, 0u8..4), |(d, how)| {
            let text = match how {
                0 => format!("<map width=\"2\" height=\"2\">{}", "<group>".repeat(d)),
                1 => format!(
                    "{{\"width\":2,\"height\":2,\"layers\":{}",
                    "[{\"type\":\"group\",\"layers\":".repeat(d)
                ),
                2 => format!("{}{}", "[".repeat(d), "]".repeat(d)),
                _ => format!("deep = {}{}", "[".repeat(d), "]".repeat(d)),
            };
            let accepted = match how {
                0 => check_tiled(&text, "tmx")?,
                1 => check_tiled(&text, "json")?,
                2 => check_map_file(&text)?,
                _ => check_ruleset(&text)?,
            };
            prop_assert!(!accepted, "accepted nesting {d} deep");
            Ok(false)
        }),
        other => Err(format!("no fuzz target `{other}`")),
    }
}
