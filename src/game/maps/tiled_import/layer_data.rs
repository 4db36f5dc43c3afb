//! A tile layer's global tile ids, from what Tiled writes: CSV, Base64, or Base64 of zlib,
//! gzip or zstd. Every reader stops at the layer's `width × height` ids, so a few kilobytes
//! that inflate to gigabytes cost no more than the layer they claim to be.

use super::{bad, too_large};
use crate::game::error::GameResult;
use base64::Engine;
use std::borrow::Cow;
use std::io::Read;

/// How a layer's Base64 bytes are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Zlib,
    Gzip,
    Zstd,
}

impl Compression {
    /// Tiled's names; an empty attribute is no compression.
    pub fn parse(s: Option<&str>, layer: &str) -> GameResult<Compression> {
        match s.map(str::trim).unwrap_or("") {
            "" => Ok(Compression::None),
            "zlib" => Ok(Compression::Zlib),
            "gzip" => Ok(Compression::Gzip),
            "zstd" => Ok(Compression::Zstd),
            other => Err(bad(format!(
                "layer `{layer}`: unknown compression `{other}` (zlib, gzip or zstd)"
            ))),
        }
    }
}

/// A layer's tiles as the file holds them, decoded only when the layer is laid on the map.
#[derive(Debug)]
pub enum Data {
    /// Ids already read (`<tile gid="…"/>` elements, a JSON array).
    Ids(Vec<u32>),
    Csv(String),
    Base64 {
        text: String,
        compression: Compression,
    },
}

impl Data {
    /// The layer's `cells` global ids, or the reason there are not exactly that many.
    pub fn ids(&self, cells: usize, layer: &str) -> GameResult<Vec<u32>> {
        let ids = match self {
            Data::Ids(ids) => return exact(ids.clone(), cells, layer),
            Data::Csv(text) => csv(text, cells, layer)?,
            Data::Base64 { text, compression } => {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(strip_space(text).as_bytes())
                    .map_err(|e| bad(format!("layer `{layer}`: not Base64: {e}")))?;
                inflate(&bytes, *compression, cells, layer)?
            }
        };
        exact(ids, cells, layer)
    }
}

fn exact(ids: Vec<u32>, cells: usize, layer: &str) -> GameResult<Vec<u32>> {
    if ids.len() == cells {
        Ok(ids)
    } else {
        Err(bad(format!(
            "layer `{layer}` has {} tiles for {cells} cells",
            ids.len()
        )))
    }
}

/// Tiled breaks Base64 into lines; the decoder takes none.
fn strip_space(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|b| b.is_ascii_whitespace()) {
        Cow::Owned(text.split_ascii_whitespace().collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// Reads at most `cells` ids; one more is refused rather than read on.
fn csv(text: &str, cells: usize, layer: &str) -> GameResult<Vec<u32>> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut ids = Vec::with_capacity(cells.min(text.len() / 2 + 1));
    for (i, field) in text.split(',').enumerate() {
        if i == cells {
            return Err(too_large(format!(
                "layer `{layer}` has more tiles than its {cells} cells"
            )));
        }
        let field = field.trim();
        ids.push(field.parse::<u32>().map_err(|_| {
            bad(format!(
                "layer `{layer}`: `{}` is not a tile id",
                field.chars().take(20).collect::<String>()
            ))
        })?);
    }
    Ok(ids)
}

/// The ids in the inflated bytes, at most `cells` of them: past that the layer is refused
/// `too_large`. Read a block at a time, so the bytes are never held beside the ids.
fn inflate(bytes: &[u8], c: Compression, cells: usize, layer: &str) -> GameResult<Vec<u32>> {
    let broken = |e: &dyn std::fmt::Display| bad(format!("layer `{layer}`: bad {c:?} data: {e}"));
    let limit = cells.saturating_mul(4);
    let mut reader: Box<dyn Read + '_> = match c {
        Compression::None => Box::new(bytes),
        Compression::Zlib => Box::new(flate2::read::ZlibDecoder::new(bytes)),
        Compression::Gzip => Box::new(flate2::read::GzDecoder::new(bytes)),
        Compression::Zstd => {
            // The window is the decoder's buffer: no layer needs one much larger than itself,
            // but encoders ask for up to 8 MB whatever the size.
            let window = (limit as u64).next_power_of_two().max(8 << 20);
            Box::new(
                ruzstd::decoding::StreamingDecoder::new_with_max_window_size(bytes, window)
                    .map_err(|e| broken(&e))?,
            )
        }
    };
    // Pages the ids never reach are never touched, so never resident: no growing by copies.
    let mut ids = Vec::with_capacity(cells);
    let mut block = vec![0u8; 64 << 10];
    // Bytes of an id split between two blocks.
    let mut carry = 0usize;
    loop {
        let n = match reader.read(&mut block[carry..]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(broken(&e)),
        };
        let filled = carry + n;
        let whole = filled - filled % 4;
        if ids.len() + whole / 4 > cells {
            return Err(too_large(format!(
                "layer `{layer}` inflates past its {limit} bytes ({cells} tiles of 4 bytes)"
            )));
        }
        ids.extend(
            block[..whole]
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        );
        block.copy_within(whole..filled, 0);
        carry = filled - whole;
    }
    if carry != 0 {
        return Err(bad(format!(
            "layer `{layer}`: {} bytes are not whole tile ids",
            ids.len() * 4 + carry
        )));
    }
    Ok(ids)
}

/// `raw` packed as Tiled would pack a layer (the tests' side of [`inflate`]).
#[cfg(test)]
pub(super) fn pack(c: Compression, raw: &[u8]) -> Vec<u8> {
    use std::io::Write;
    match c {
        Compression::None => raw.to_vec(),
        Compression::Zlib => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), Default::default());
            e.write_all(raw).expect("in memory");
            e.finish().expect("in memory")
        }
        Compression::Gzip => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), Default::default());
            e.write_all(raw).expect("in memory");
            e.finish().expect("in memory")
        }
        Compression::Zstd => {
            ruzstd::encoding::compress_to_vec(raw, ruzstd::encoding::CompressionLevel::Fastest)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    fn le(ids: &[u32]) -> Vec<u8> {
        ids.iter().flat_map(|i| i.to_le_bytes()).collect()
    }

    const ALL: [Compression; 4] = [
        Compression::None,
        Compression::Zlib,
        Compression::Gzip,
        Compression::Zstd,
    ];

    #[test]
    fn every_compression_tiled_offers_reads_the_same_ids() {
        let ids = [1, 2, 3, 0x8000_0004, 0, 7];
        for c in ALL {
            let data = Data::Base64 {
                text: b64(&pack(c, &le(&ids))),
                compression: c,
            };
            assert_eq!(data.ids(6, "ground").unwrap(), ids, "{c:?}");
        }
        let csv = Data::Csv(" 1,2,\n3,2147483652,0,7\n".into());
        assert_eq!(csv.ids(6, "ground").unwrap(), ids);
    }

    #[test]
    fn a_bomb_stops_at_the_layer_s_size() {
        // 64 MB of zeros for a layer of 6 cells: refused once the 25th byte is read.
        let raw = vec![0u8; 64 << 20];
        for c in [Compression::Zlib, Compression::Gzip, Compression::Zstd] {
            let packed = pack(c, &raw);
            assert!(packed.len() < 1 << 20, "{c:?} {}", packed.len());
            let data = Data::Base64 {
                text: b64(&packed),
                compression: c,
            };
            let e = data.ids(6, "ground").unwrap_err();
            assert_eq!(e.code(), "too_large", "{c:?}");
        }
        let e = Data::Csv("0,".repeat(10)).ids(6, "g").unwrap_err();
        assert_eq!(e.code(), "too_large");
    }

    #[test]
    fn short_broken_or_unknown_data_is_refused_by_name() {
        let short = Data::Base64 {
            text: b64(&pack(Compression::Zlib, &le(&[1, 2]))),
            compression: Compression::Zlib,
        };
        assert!(short
            .ids(6, "g")
            .unwrap_err()
            .to_string()
            .contains("2 tiles for 6"));
        let broken = Data::Base64 {
            text: b64(b"not zlib at all"),
            compression: Compression::Zlib,
        };
        assert_eq!(broken.ids(6, "g").unwrap_err().code(), "invalid");
        assert!(Data::Csv("1,x,3".into()).ids(3, "g").is_err());
        assert!(Data::Csv("1,-2,3".into()).ids(3, "g").is_err());
        assert!(Compression::parse(Some("lz4"), "g").is_err());
        let odd = Data::Base64 {
            text: b64(&[1, 0, 0]),
            compression: Compression::None,
        };
        assert!(odd.ids(1, "g").is_err());
    }
}
