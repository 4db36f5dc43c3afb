//! Web Push's cryptography, from RustCrypto's primitives: a payload encrypted for one browser
//! (RFC 8291, the `aes128gcm` coding of RFC 8188, one record) and the server's identity
//! (VAPID, RFC 8292: an ES256 JWT for the push service's origin). The opposite sides (a
//! browser's decryption, a push service's check of the JWT) are here too, for receivers that
//! test what the server sends.

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hkdf::Hkdf;
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use rand::RngCore;
use sha2::Sha256;

/// Salt (16), record size (4), key id length (1), the sender's public key (65).
const HEADER_LEN: usize = 86;
const TAG_LEN: usize = 16;
const RECORD_SIZE: u32 = 4096;
/// The most a payload may hold: push services take 4096 bytes of body, header, tag and
/// delimiter included (RFC 8291 §4).
pub const PAYLOAD_MAX: usize = 4096 - HEADER_LEN - TAG_LEN - 1;
/// Payloads are padded to a multiple of this, so their length tells little of their text.
const PAD_TO: usize = 128;

/// Base64url without padding, as Web Push writes keys; padded input is read too.
pub fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn unb64(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD
        .decode(text.trim().trim_end_matches('='))
        .ok()
}

fn random_secret() -> SecretKey {
    loop {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        // All but a 2^-32 sliver of 32-byte strings are valid scalars.
        if let Ok(k) = SecretKey::from_slice(&bytes) {
            return k;
        }
    }
}

fn public_bytes(secret: &SecretKey) -> Vec<u8> {
    secret
        .public_key()
        .to_encoded_point(false)
        .as_bytes()
        .to_vec()
}

/// The server's VAPID key pair (P-256).
#[derive(Clone)]
pub struct VapidKey {
    secret: SecretKey,
    /// The public key, base64url: worked out once (it costs a scalar multiplication).
    public: String,
}

impl VapidKey {
    fn of(secret: SecretKey) -> VapidKey {
        let public = b64(&public_bytes(&secret));
        VapidKey { secret, public }
    }

    pub fn generate() -> VapidKey {
        VapidKey::of(random_secret())
    }

    /// From its private scalar in base64url (as `private_base64` writes it).
    pub fn from_base64(text: &str) -> Option<VapidKey> {
        let bytes = unb64(text)?;
        SecretKey::from_slice(&bytes).ok().map(VapidKey::of)
    }

    pub fn private_base64(&self) -> String {
        b64(&self.secret.to_bytes())
    }

    /// The public key as browsers take it (`applicationServerKey`): the uncompressed point.
    pub fn public_base64(&self) -> String {
        self.public.clone()
    }

    /// The `Authorization` header for a push to `endpoint`: `vapid t=<JWT>, k=<public key>`,
    /// the JWT valid until `expires` (at most 24 hours ahead, RFC 8292 §2).
    pub fn authorization(&self, endpoint: &str, subject: &str, expires: i64) -> Option<String> {
        let aud = audience(endpoint)?;
        let header = b64(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = VapidClaims {
            aud,
            exp: expires,
            sub: subject.to_string(),
        };
        let claims = b64(&serde_json::to_vec(&claims).ok()?);
        let signed = format!("{header}.{claims}");
        let signature: Signature = SigningKey::from(&self.secret).sign(signed.as_bytes());
        Some(format!(
            "vapid t={signed}.{}, k={}",
            b64(&signature.to_bytes()),
            self.public
        ))
    }
}

/// A push endpoint's origin, the JWT's audience: `scheme://host[:port]`.
pub fn audience(endpoint: &str) -> Option<String> {
    let (scheme, rest) = endpoint.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    if host.is_empty() || !matches!(scheme, "https" | "http") {
        return None;
    }
    Some(format!("{scheme}://{host}"))
}

/// A subscription's keys, read: the browser's public key (`p256dh`) and its `auth` secret.
#[derive(Clone, Debug)]
pub struct SubscriptionKeys {
    public: PublicKey,
    auth: [u8; 16],
}

impl SubscriptionKeys {
    /// Reads `keys.p256dh` (an uncompressed P-256 point) and `keys.auth` (16 bytes), both
    /// base64url; anything else is refused with why.
    pub fn parse(p256dh: &str, auth: &str) -> Result<SubscriptionKeys, &'static str> {
        let point = unb64(p256dh).ok_or("keys.p256dh is not base64url")?;
        if point.len() != 65 || point[0] != 4 {
            return Err("keys.p256dh is not an uncompressed P-256 public key (65 bytes)");
        }
        let public =
            PublicKey::from_sec1_bytes(&point).map_err(|_| "keys.p256dh is not on P-256")?;
        let auth = unb64(auth).ok_or("keys.auth is not base64url")?;
        let auth: [u8; 16] = auth.try_into().map_err(|_| "keys.auth is not 16 bytes")?;
        Ok(SubscriptionKeys { public, auth })
    }
}

/// `plaintext` encrypted for one browser: a fresh key pair and salt each time.
pub fn encrypt(keys: &SubscriptionKeys, plaintext: &[u8]) -> Option<Vec<u8>> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let padded = plaintext.len().div_ceil(PAD_TO) * PAD_TO;
    encrypt_with(keys, plaintext, &random_secret(), salt, padded)
}

/// The content key and nonce of RFC 8291 §3.3–3.4 and RFC 8188 §2.2.
fn derive(
    shared: &[u8],
    auth: &[u8; 16],
    ua_public: &[u8],
    as_public: &[u8],
    salt: &[u8; 16],
) -> ([u8; 16], [u8; 12]) {
    let mut info = Vec::with_capacity(14 + 65 + 65);
    info.extend_from_slice(b"WebPush: info\0");
    info.extend_from_slice(ua_public);
    info.extend_from_slice(as_public);
    let mut ikm = [0u8; 32];
    // The lengths asked for are far under HKDF's limit: expand cannot fail here.
    let _ = Hkdf::<Sha256>::new(Some(auth), shared).expand(&info, &mut ikm);
    let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let (mut cek, mut nonce) = ([0u8; 16], [0u8; 12]);
    let _ = prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek);
    let _ = prk.expand(b"Content-Encoding: nonce\0", &mut nonce);
    (cek, nonce)
}

fn encrypt_with(
    keys: &SubscriptionKeys,
    plaintext: &[u8],
    sender: &SecretKey,
    salt: [u8; 16],
    padded_len: usize,
) -> Option<Vec<u8>> {
    if plaintext.len() > PAYLOAD_MAX {
        return None;
    }
    let padded_len = padded_len.clamp(plaintext.len(), PAYLOAD_MAX);
    let shared = p256::ecdh::diffie_hellman(sender.to_nonzero_scalar(), keys.public.as_affine());
    let ua_public = keys.public.to_encoded_point(false);
    let as_public = public_bytes(sender);
    let (cek, nonce) = derive(
        shared.raw_secret_bytes(),
        &keys.auth,
        ua_public.as_bytes(),
        &as_public,
        &salt,
    );
    // The last (only) record: its text, the delimiter 2, then zeros up to the padded length.
    let mut record = Vec::with_capacity(padded_len + 1);
    record.extend_from_slice(plaintext);
    record.push(2);
    record.resize(padded_len + 1, 0);
    let sealed = Aes128Gcm::new_from_slice(&cek)
        .ok()?
        .encrypt(Nonce::from_slice(&nonce), record.as_slice())
        .ok()?;
    let mut body = Vec::with_capacity(HEADER_LEN + sealed.len());
    body.extend_from_slice(&salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(65);
    body.extend_from_slice(&as_public);
    body.extend_from_slice(&sealed);
    Some(body)
}

/// What a browser holding `ua_secret` and `auth` reads of `body`: the plaintext, or None when
/// it does not open (a wrong key, a changed byte, a malformed header).
pub fn decrypt(ua_secret: &SecretKey, auth: &[u8; 16], body: &[u8]) -> Option<Vec<u8>> {
    if body.len() < HEADER_LEN + TAG_LEN || body[20] != 65 {
        return None;
    }
    let salt: [u8; 16] = body[..16].try_into().ok()?;
    let as_public = &body[21..HEADER_LEN];
    let sender = PublicKey::from_sec1_bytes(as_public).ok()?;
    let shared = p256::ecdh::diffie_hellman(ua_secret.to_nonzero_scalar(), sender.as_affine());
    let ua_public = public_bytes(ua_secret);
    let (cek, nonce) = derive(
        shared.raw_secret_bytes(),
        auth,
        &ua_public,
        as_public,
        &salt,
    );
    let mut record = Aes128Gcm::new_from_slice(&cek)
        .ok()?
        .decrypt(Nonce::from_slice(&nonce), &body[HEADER_LEN..])
        .ok()?;
    // Padding is zeros after the delimiter, which is 2 in the last record.
    let end = record.iter().rposition(|&b| b != 0)?;
    if record[end] != 2 {
        return None;
    }
    record.truncate(end);
    Some(record)
}

/// A browser's side of a subscription, for receivers that play one: a fresh key pair and
/// secret, and the `keys` it would give the server.
pub struct BrowserKeys {
    pub secret: SecretKey,
    pub auth: [u8; 16],
}

impl BrowserKeys {
    pub fn generate() -> BrowserKeys {
        let mut auth = [0u8; 16];
        rand::rng().fill_bytes(&mut auth);
        BrowserKeys {
            secret: random_secret(),
            auth,
        }
    }

    pub fn p256dh(&self) -> String {
        b64(&public_bytes(&self.secret))
    }

    pub fn auth(&self) -> String {
        b64(&self.auth)
    }
}

/// The claims of a VAPID JWT: what the server signs, and what a check finds.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct VapidClaims {
    pub aud: String,
    pub exp: i64,
    pub sub: String,
}

/// What a push service checks of an `Authorization` header (RFC 8292 §2–3): the JWT signed
/// with ES256 by the key given in `k`, for `audience`, not expired at `now` nor more than 24
/// hours ahead, with a subject. Returns the claims and the key.
pub fn verify_authorization(
    header: &str,
    audience: &str,
    now: i64,
) -> Result<(VapidClaims, String), String> {
    let rest = header
        .strip_prefix("vapid ")
        .ok_or("not the vapid scheme")?;
    let (mut token, mut key) = (None, None);
    for part in rest.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => token = Some(v),
            Some(("k", v)) => key = Some(v),
            _ => {}
        }
    }
    let (token, key) = (token.ok_or("no t=")?, key.ok_or("no k=")?);
    let (signed, signature) = token.rsplit_once('.').ok_or("not a JWT")?;
    let (head, claims) = signed.split_once('.').ok_or("not a JWT")?;
    let head: serde_json::Value =
        serde_json::from_slice(&unb64(head).ok_or("header not base64url")?)
            .map_err(|e| e.to_string())?;
    if head["alg"] != "ES256" {
        return Err(format!("alg {} is not ES256", head["alg"]));
    }
    let verifying = VerifyingKey::from_sec1_bytes(&unb64(key).ok_or("k not base64url")?)
        .map_err(|_| "k is not a P-256 key")?;
    let signature = Signature::from_slice(&unb64(signature).ok_or("signature not base64url")?)
        .map_err(|_| "signature is not 64 bytes")?;
    verifying
        .verify(signed.as_bytes(), &signature)
        .map_err(|_| "bad signature")?;
    let claims: VapidClaims = serde_json::from_slice(&unb64(claims).ok_or("claims not base64url")?)
        .map_err(|e| e.to_string())?;
    if claims.aud != audience {
        return Err(format!("aud {} is not {audience}", claims.aud));
    }
    if claims.exp <= now || claims.exp > now + 24 * 3600 {
        return Err(format!(
            "exp {} is not within 24 hours of {now}",
            claims.exp
        ));
    }
    if claims.sub.is_empty() {
        return Err("no sub".into());
    }
    Ok((claims, key.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 8291, Appendix A.
    const PLAINTEXT: &str = "When I grow up, I want to be a watermelon";
    const AS_PRIVATE: &str = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
    const AS_PUBLIC: &str =
        "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
    const UA_PRIVATE: &str = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
    const UA_PUBLIC: &str =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    const SALT: &str = "DGv6ra1nlYgDCS1FRnbzlw";
    const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";
    const BODY: &str = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

    #[test]
    fn the_rfc_8291_example_encrypts_and_decrypts_byte_for_byte() {
        let keys = SubscriptionKeys::parse(UA_PUBLIC, AUTH).unwrap();
        let sender = SecretKey::from_slice(&unb64(AS_PRIVATE).unwrap()).unwrap();
        assert_eq!(b64(&public_bytes(&sender)), AS_PUBLIC);
        let salt: [u8; 16] = unb64(SALT).unwrap().try_into().unwrap();
        let body =
            encrypt_with(&keys, PLAINTEXT.as_bytes(), &sender, salt, PLAINTEXT.len()).unwrap();
        assert_eq!(b64(&body), BODY);

        let ua = SecretKey::from_slice(&unb64(UA_PRIVATE).unwrap()).unwrap();
        let auth: [u8; 16] = unb64(AUTH).unwrap().try_into().unwrap();
        let opened = decrypt(&ua, &auth, &unb64(BODY).unwrap()).unwrap();
        assert_eq!(opened, PLAINTEXT.as_bytes());
        // One changed byte and it does not open.
        let mut changed = unb64(BODY).unwrap();
        let last = changed.len() - 1;
        changed[last] ^= 1;
        assert!(decrypt(&ua, &auth, &changed).is_none());
    }

    #[test]
    fn a_padded_payload_round_trips_and_hides_its_length() {
        let browser = BrowserKeys::generate();
        let keys = SubscriptionKeys::parse(&browser.p256dh(), &browser.auth()).unwrap();
        let a = encrypt(&keys, b"short").unwrap();
        let b = encrypt(&keys, &[b'x'; 100]).unwrap();
        assert_eq!(a.len(), b.len());
        assert_eq!(a.len(), HEADER_LEN + PAD_TO + 1 + TAG_LEN);
        assert_eq!(
            decrypt(&browser.secret, &browser.auth, &a).unwrap(),
            b"short"
        );
        assert!(encrypt(&keys, &vec![b'x'; PAYLOAD_MAX + 1]).is_none());
    }

    #[test]
    fn bad_subscription_keys_are_refused() {
        let auth = b64(&[7u8; 16]);
        assert!(SubscriptionKeys::parse("not base64!", &auth).is_err());
        assert!(SubscriptionKeys::parse(&b64(&[4u8; 65]), &auth).is_err());
        assert!(SubscriptionKeys::parse(UA_PUBLIC, &b64(&[7u8; 15])).is_err());
        assert!(SubscriptionKeys::parse(UA_PUBLIC, &auth).is_ok());
    }

    #[test]
    fn the_vapid_header_checks_out_and_a_changed_one_does_not() {
        let key = VapidKey::generate();
        let again = VapidKey::from_base64(&key.private_base64()).unwrap();
        assert_eq!(again.public_base64(), key.public_base64());
        let endpoint = "https://push.example.net:8443/wpush/v2/abc?x=1";
        let now = 1_000_000;
        let header = key
            .authorization(endpoint, "mailto:gm@example.org", now + 3600)
            .unwrap();
        let (claims, k) =
            verify_authorization(&header, "https://push.example.net:8443", now).unwrap();
        assert_eq!(claims.exp, now + 3600);
        assert_eq!(claims.sub, "mailto:gm@example.org");
        assert_eq!(k, key.public_base64());
        // Another audience, an expired token, another key's signature.
        assert!(verify_authorization(&header, "https://push.example.net", now).is_err());
        assert!(
            verify_authorization(&header, "https://push.example.net:8443", now + 3600).is_err()
        );
        let other = VapidKey::generate();
        let forged = header.replace(&key.public_base64(), &other.public_base64());
        assert!(verify_authorization(&forged, "https://push.example.net:8443", now).is_err());
    }
}
