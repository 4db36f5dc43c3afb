//! Gzip for answers whose whole body is at hand, on the thread that made them.
//!
//! actix-web's `Compress` hands every body over 1 KB to the blocking thread pool and back, and
//! builds a new compressor (hundreds of kilobytes of tables) for each answer. A page is already
//! in memory when it is sent: it is compressed here in one pass with the thread's own
//! compressor, reset between answers, and leaves with its length known. `Compress` still
//! handles streamed and very large bodies, which it keeps off the server's threads.

use flate2::{Compress, Compression, Crc, FlushCompress, Status};
use std::cell::RefCell;

thread_local! {
    static DEFLATE: RefCell<Compress> = RefCell::new(Compress::new(Compression::fast(), false));
}

/// The gzip member header: deflate, no name or time, fastest compression, unknown system.
const HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255];

/// `data` as a gzip member (RFC 1952) at the fastest level.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 3 + 64);
    out.extend_from_slice(&HEADER);
    DEFLATE.with(|d| {
        let mut d = d.borrow_mut();
        d.reset();
        let start = d.total_in();
        loop {
            let read = (d.total_in() - start) as usize;
            if out.capacity() - out.len() < 64 {
                out.reserve(out.capacity().max(1024));
            }
            match d.compress_vec(&data[read..], &mut out, FlushCompress::Finish) {
                Ok(Status::StreamEnd) => break,
                Ok(_) => continue,
                // Deflating bytes in memory does not fail; stop rather than loop.
                Err(_) => break,
            }
        }
    });
    let mut crc = Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::gzip;
    use std::io::Read;

    fn gunzip(z: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(z)
            .read_to_end(&mut out)
            .expect("valid gzip");
        out
    }

    #[test]
    fn what_is_compressed_comes_back_the_same_with_the_thread_s_compressor_reused() {
        let page: Vec<u8> = (0..60_000u32)
            .map(|i| b"<g class=\"cell t-plain\">"[(i % 24) as usize] ^ (i / 7000) as u8)
            .collect();
        let noise: Vec<u8> = (0..5_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for data in [&page[..], &b""[..], &noise[..], b"short", &page[..]] {
            let z = gzip(data);
            assert_eq!(gunzip(&z), data);
            if data.len() == page.len() {
                assert!(z.len() < data.len() / 4, "{} bytes", z.len());
            }
        }
    }
}
