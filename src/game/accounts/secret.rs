//! Secrets: random tokens, their hashes, and comparing them in constant time.

use sha2::{Digest, Sha256};

/// Hex of `n` random bytes (the thread RNG is a CSPRNG seeded from the OS).
pub fn random_hex(n: usize) -> String {
    (0..n)
        .map(|_| format!("{:02x}", rand::random::<u8>()))
        .collect()
}

pub fn sha256_hex(s: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    // Written digit by digit: a `format!` per byte was most of the token check's own time.
    let mut out = String::with_capacity(64);
    for b in Sha256::digest(s.as_bytes()) {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
    out
}

/// Compares secrets in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}
