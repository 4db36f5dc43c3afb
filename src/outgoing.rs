//! Requests the server sends to addresses players give it (webhooks, push services): only to
//! public addresses, checked when the connection is made (the name is resolved once and the
//! connection goes to the address checked, so a name that resolves elsewhere the second time
//! cannot slip through), with a timeout, no redirects and a bounded answer.

use crate::config::PushSettings;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;
use std::time::Duration;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

/// Whether `ip` is a public unicast address: not loopback, private, link-local (the cloud
/// metadata address among them), unique-local, shared (CGNAT), multicast, documentation,
/// reserved or unspecified; an IPv4 address inside an IPv6 one is judged as IPv4.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0
        || a == 10
        || a == 127
        || (a == 100 && (64..128).contains(&b))
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 0 && (c == 0 || c == 2))
        || (a == 192 && b == 88 && c == 99)
        || (a == 192 && b == 168)
        || (a == 198 && (b == 18 || b == 19))
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113)
        || a >= 224)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and
    // 6to4 (2002:ab:cd::): the IPv4 address is where the packet goes.
    let embedded =
        |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    if s[..5] == [0; 5] && (s[5] == 0xffff || s[5] == 0) && !(s[5] == 0 && s[6] == 0) {
        return is_public_v4(embedded(s[6], s[7]));
    }
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0; 4] {
        return is_public_v4(embedded(s[6], s[7]));
    }
    if s[0] == 0x2002 {
        return is_public_v4(embedded(s[1], s[2]));
    }
    // Global unicast is 2000::/3; within it, Teredo (2001::/32), benchmarking (2001:2::/48),
    // ORCHID (2001:10::/28, 2001:20::/28) and documentation (2001:db8::/32) are not public.
    (s[0] & 0xe000) == 0x2000
        && !(s[0] == 0x2001
            && (s[1] == 0
                || s[1] == 2
                || (s[1] & 0xfff0) == 0x10
                || (s[1] & 0xfff0) == 0x20
                || s[1] == 0xdb8))
        && !(s[0] == 0x3fff && s[1] < 0x1000)
}

/// The resolver of outgoing requests: only public addresses are kept (all when
/// `allow_private`); a name left with none is refused.
#[derive(Debug)]
struct PublicOnly {
    allow_private: bool,
    inner: DefaultResolver,
}

impl Resolver for PublicOnly {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let all = self.inner.resolve(uri, config, timeout)?;
        let mut kept = self.empty();
        for addr in all
            .iter()
            .filter(|a| self.allow_private || is_public(a.ip()))
        {
            kept.push(*addr);
        }
        if kept.is_empty() {
            return Err(ureq::Error::Io(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                NOT_PUBLIC,
            )));
        }
        Ok(kept)
    }
}

const NOT_PUBLIC: &str = "the address is not a public one";

/// What came back.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    /// `Retry-After` in seconds, when given as such.
    pub retry_after: Option<u64>,
}

/// Why nothing came back.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The address is not a public one (or the URL is not allowed): never retried.
    #[error("{0}")]
    NotPublic(String),
    /// Timeout, refused connection, a broken answer: may be retried.
    #[error("{0}")]
    Failed(String),
    /// Too many addresses being checked at once: the caller may try again shortly.
    #[error("too many addresses are being checked; try again in a moment")]
    Busy,
}

/// Addresses checked at once at most: each holds a thread of its own while its name resolves
/// (a player cannot pile up threads with names that never answer).
const CHECKS: usize = 16;

/// The client of outgoing requests.
pub struct Outgoing {
    agent: ureq::Agent,
    allow_private: bool,
    answer_limit: u64,
    timeout: Duration,
    checks: Arc<tokio::sync::Semaphore>,
}

impl Outgoing {
    pub fn new(s: &PushSettings) -> Outgoing {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(s.timeout_seconds.max(1))))
            .max_redirects(0)
            .http_status_as_error(false)
            .https_only(!s.allow_private)
            .user_agent("Grognard")
            .build();
        let resolver = PublicOnly {
            allow_private: s.allow_private,
            inner: DefaultResolver::default(),
        };
        Outgoing {
            agent: ureq::Agent::with_parts(config, DefaultConnector::default(), resolver),
            allow_private: s.allow_private,
            answer_limit: s.answer_limit,
            timeout: Duration::from_secs(s.timeout_seconds.max(1)),
            checks: Arc::new(tokio::sync::Semaphore::new(CHECKS)),
        }
    }

    /// Whether a URL may be registered: `https` (or `http` with `allow_private`), a host, and
    /// every address it resolves to now public. Checked again at each connection. The name is
    /// resolved on a thread of its own, waited for `timeout_seconds` at most, so that a name
    /// slow to resolve holds neither a worker nor the database's threads.
    pub async fn check(&self, url: &str) -> Result<(), SendError> {
        let uri: ureq::http::Uri = url
            .parse()
            .map_err(|_| SendError::NotPublic("not a URL".into()))?;
        match uri.scheme_str() {
            Some("https") => {}
            Some("http") if self.allow_private => {}
            _ => {
                return Err(SendError::NotPublic(
                    "only https addresses are allowed".into(),
                ))
            }
        }
        let Some(authority) = uri.authority() else {
            return Err(SendError::NotPublic("the address has no host".into()));
        };
        if authority.as_str().contains('@') {
            return Err(SendError::NotPublic(
                "the address carries credentials".into(),
            ));
        }
        let port = authority
            .port_u16()
            .unwrap_or(if uri.scheme_str() == Some("https") {
                443
            } else {
                80
            });
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        // Held by the resolving thread until the name resolves, even after the wait ends: at
        // most `CHECKS` such threads live at once.
        let permit = self
            .checks
            .clone()
            .try_acquire_owned()
            .map_err(|_| SendError::Busy)?;
        let (tx, rx) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("resolve".into())
            .spawn(move || {
                let _permit = permit;
                let _ = tx.send(std::net::ToSocketAddrs::to_socket_addrs(&(
                    host.as_str(),
                    port,
                )));
            })
            .map_err(|e| SendError::Failed(e.to_string()))?;
        let addrs: Vec<std::net::SocketAddr> = match tokio::time::timeout(self.timeout, rx).await {
            Ok(Ok(Ok(found))) => found.collect(),
            _ => return Err(SendError::NotPublic("the host cannot be found".into())),
        };
        if addrs.is_empty() || (!self.allow_private && addrs.iter().any(|a| !is_public(a.ip()))) {
            return Err(SendError::NotPublic(NOT_PUBLIC.into()));
        }
        Ok(())
    }

    /// POSTs `body` of `content_type` with `headers`; reads at most the answer limit of its
    /// body.
    pub fn post(
        &self,
        url: &str,
        content_type: &str,
        headers: &[(&str, String)],
        body: &[u8],
    ) -> Result<Answer, SendError> {
        let mut req = self.agent.post(url).header("Content-Type", content_type);
        for (k, v) in headers {
            req = req.header(*k, v.as_str());
        }
        match req.send(body) {
            Ok(mut res) => {
                let status = res.status().as_u16();
                let retry_after = res
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse().ok());
                // What the receiver says is read (bounded) and dropped.
                let _ = res
                    .body_mut()
                    .with_config()
                    .limit(self.answer_limit)
                    .read_to_vec();
                Ok(Answer {
                    status,
                    retry_after,
                })
            }
            Err(ureq::Error::Io(e)) if e.to_string().contains(NOT_PUBLIC) => {
                Err(SendError::NotPublic(NOT_PUBLIC.into()))
            }
            Err(ureq::Error::RequireHttpsOnly(_)) => Err(SendError::NotPublic(
                "only https addresses are allowed".into(),
            )),
            Err(e) => Err(SendError::Failed(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(s: &str) -> bool {
        is_public(s.parse().unwrap())
    }

    #[test]
    fn only_public_unicast_addresses_are_public() {
        for ok in [
            "93.184.215.14",
            "8.8.8.8",
            "1.1.1.1",
            "2606:4700::1111",
            "2a00:1450::1",
        ] {
            assert!(public(ok), "{ok}");
        }
        for not in [
            "127.0.0.1",
            "127.8.9.10",
            "0.0.0.0",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "224.0.0.1",
            "239.255.255.250",
            "255.255.255.255",
            "240.0.0.1",
            "192.0.2.1",
            "198.51.100.1",
            "203.0.113.9",
            "198.18.0.1",
            "::1",
            "::",
            "fe80::1",
            "fc00::1",
            "fd12:3456::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "2002:7f00:1::",
            "2001:db8::1",
            "2001::1",
            "fec0::1",
        ] {
            assert!(!public(not), "{not}");
        }
        // Just outside the private blocks.
        assert!(public("172.32.0.1") && public("100.128.0.1") && public("11.0.0.1"));
        assert!(public("::ffff:8.8.8.8"));
    }
}
