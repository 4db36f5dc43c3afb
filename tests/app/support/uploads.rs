//! Uploads an attacker would send a game master's routes: nesting past any reader's depth,
//! compression bombs (with and without a namespace prefix), a map file of 20,000 castles.
//! Each is refused with a 422 and a code; none may take the server's stack or memory.

use base64::Engine;

/// One hostile upload: what it is, the API route, its content type, its body, and the code
/// it must be refused with.
pub struct Upload {
    pub what: &'static str,
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: String,
    pub code: &'static str,
}

/// A TMX map of `w`×`h` around `inner` (layers, groups…).
pub fn tmx_map(w: u32, h: u32, inner: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="{w}" height="{h}" tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="4" columns="2"/>
{inner}
</map>"#
    )
}

/// `n` groups nested around one layer: 45 KB at 3,000.
pub fn nested_groups(n: usize) -> String {
    tmx_map(
        2,
        2,
        &format!(
            "{}<layer name=\"g\" width=\"2\" height=\"2\"><data encoding=\"csv\">0,0,0,0</data></layer>{}",
            "<group>".repeat(n),
            "</group>".repeat(n)
        ),
    )
}

/// `bytes` zeros compressed as `how` (zlib, gzip or zstd), in Base64.
pub fn bomb(how: &str, bytes: usize) -> String {
    base64::engine::general_purpose::STANDARD
        .encode(crate::fuzz_targets::pack(how, &vec![0u8; bytes]))
}

/// A 10×10 layer whose data inflates to `bytes`, its compression attribute written `attr`.
pub fn tmx_bomb(attr: &str, how: &str, bytes: usize) -> String {
    tmx_map(
        10,
        10,
        &format!(
            r#"<layer name="ground" width="10" height="10"><data encoding="base64" {attr}="{how}">{}</data></layer>"#,
            bomb(how, bytes)
        ),
    )
}

/// A 2000×2000 map whose every cell is a tile of terrain `lava`, in a few kilobytes.
pub fn lava_world() -> String {
    let ids: Vec<u8> = std::iter::repeat_n(1u32, 2000 * 2000)
        .flat_map(u32::to_le_bytes)
        .collect();
    let data =
        base64::engine::general_purpose::STANDARD.encode(crate::fuzz_targets::pack("zlib", &ids));
    tmx_map(
        2000,
        2000,
        &format!(
            r#"<tileset firstgid="1" name="hot" tilewidth="32" tileheight="32" tilecount="1" columns="1">
  <tile id="0"><properties><property name="terrain" value="lava"/></properties></tile>
 </tileset>
 <layer name="ground" width="2000" height="2000"><data encoding="base64" compression="zlib">{data}</data></layer>"#
        ),
    )
}

/// A map file of `n` castles of one tower each.
pub fn castles_map(n: usize) -> String {
    let side = (n as f64).sqrt().ceil() as usize + 1;
    let castles: Vec<String> = (0..n).map(|i| format!(r#"{{"name":"c{i}"}}"#)).collect();
    let cells: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"x":{},"y":{},"terrain":"tower","castle":"c{i}"}}"#,
                i % side,
                i / side + 1
            )
        })
        .collect();
    format!(
        r##"{{"name":"Towers","width":{side},"height":{},"nations":[{{"name":"A","color":"#000000","spawn":[0,0]}}],"castles":[{}],"cells":[{}]}}"##,
        side + 1,
        castles.join(","),
        cells.join(",")
    )
}

/// Every hostile upload of the walk.
pub fn hostile_uploads() -> Vec<Upload> {
    let tmx = |what, body, code| Upload {
        what,
        path: "/api/v1/worlds/import-tiled?format=tmx",
        content_type: "application/xml",
        body,
        code,
    };
    let deep_json = format!(
        r#"{{"width":2,"height":2,"tilewidth":32,"tileheight":32,"tilesets":[],"layers":{}{}}}"#,
        r#"[{"type":"group","layers":"#.repeat(3000),
        "}]".repeat(3000)
    );
    vec![
        tmx("3,000 nested groups", nested_groups(3000), "too_deep"),
        tmx("5,000 nested groups", nested_groups(5000), "too_deep"),
        // 87 KB that inflate to 64 MB, the compression behind a prefix.
        tmx(
            "a prefixed zlib bomb",
            tmx_bomb("x:compression", "zlib", 64 << 20),
            "too_large",
        ),
        tmx(
            "a zlib bomb",
            tmx_bomb("compression", "zlib", 64 << 20),
            "too_large",
        ),
        tmx(
            "a gzip bomb",
            tmx_bomb("compression", "gzip", 64 << 20),
            "too_large",
        ),
        tmx(
            "a zstd bomb",
            tmx_bomb("compression", "zstd", 256 << 20),
            "too_large",
        ),
        tmx(
            "a prefixed size past a world's",
            tmx_map(2, 2, "").replace(r#"width="2""#, r#"t:width="100000""#),
            "invalid",
        ),
        tmx(
            "the largest world with a broken layer",
            tmx_map(
                2000,
                2000,
                r#"<layer name="ground" width="2000" height="2000"><data encoding="csv">1,2</data></layer>"#,
            ),
            "invalid",
        ),
        tmx(
            "the largest world painted with an unknown terrain",
            lava_world(),
            "invalid",
        ),
        tmx(
            "an entity declaration",
            format!(
                "<!DOCTYPE map [<!ENTITY a \"{}\">]>{}",
                "a".repeat(1000),
                tmx_map(2, 2, "")
            ),
            "invalid",
        ),
        Upload {
            what: "3,000 nested JSON groups",
            path: "/api/v1/worlds/import-tiled?format=json",
            content_type: "application/json",
            body: deep_json,
            code: "too_deep",
        },
        Upload {
            what: "a map file of 20,000 castles",
            path: "/api/v1/worlds",
            content_type: "application/json",
            body: castles_map(20_000),
            code: "invalid",
        },
        Upload {
            what: "a deeply nested map file",
            path: "/api/v1/worlds",
            content_type: "application/json",
            body: format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
            code: "invalid",
        },
    ]
}
