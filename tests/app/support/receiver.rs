//! A real local HTTP receiver, as a webhook endpoint or a push service would be: it records
//! every request and answers the statuses it is told to, in turn (204 once they run out). On
//! paths under `/push/` it is a push service: a request without a valid VAPID JWT for its
//! origin (RFC 8292) is refused with 401 and the reason kept. `Browser` plays the browser
//! whose subscription points there and opens what was pushed to it (RFC 8291).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// A request as received.
#[derive(Clone, Debug)]
pub struct Received {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Why a push service refused it (a missing or bad VAPID JWT).
    pub refused: Option<String>,
    /// The status it was answered.
    pub status: u16,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

#[derive(Default)]
struct State {
    received: Vec<Received>,
    answers: std::collections::VecDeque<u16>,
    /// How long the next requests' answers wait, in turn.
    delays: std::collections::VecDeque<std::time::Duration>,
}

pub struct Receiver {
    pub port: u16,
    state: Arc<Mutex<State>>,
}

impl Receiver {
    pub fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(mut conn) = conn else { continue };
                let shared = shared.clone();
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(conn.try_clone().unwrap());
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let path = line.split(' ').nth(1).unwrap_or("").to_string();
                    let mut headers = Vec::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let l = line.trim_end();
                        if l.is_empty() {
                            break;
                        }
                        if let Some((k, v)) = l.split_once(':') {
                            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
                        }
                    }
                    let len: usize = headers
                        .iter()
                        .find(|(k, _)| k == "content-length")
                        .and_then(|(_, v)| v.parse().ok())
                        .unwrap_or(0);
                    let mut body = vec![0; len];
                    if reader.read_exact(&mut body).is_err() {
                        return;
                    }
                    let refused = path.starts_with("/push/").then(|| {
                        let auth = headers
                            .iter()
                            .find(|(k, _)| k == "authorization")
                            .map_or("", |(_, v)| v.as_str());
                        grognard::webpush::verify_authorization(
                            auth,
                            &format!("http://127.0.0.1:{port}"),
                            grognard::db::now(),
                        )
                        .err()
                    });
                    let refused = refused.flatten();
                    let (status, delay) = {
                        let mut s = shared.lock().unwrap();
                        let delay = s.delays.pop_front();
                        let status = match refused {
                            Some(_) => 401,
                            None => s.answers.pop_front().unwrap_or(204),
                        };
                        s.received.push(Received {
                            path,
                            headers,
                            body,
                            refused,
                            status,
                        });
                        (status, delay)
                    };
                    if let Some(d) = delay {
                        std::thread::sleep(d);
                    }
                    let extra = if status == 429 {
                        "Retry-After: 1\r\n"
                    } else {
                        ""
                    };
                    let _ = write!(
                        conn,
                        "HTTP/1.1 {status} Answer\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n"
                    );
                });
            }
        });
        Receiver { port, state }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The next requests are answered with these statuses, in turn.
    pub fn answer(&self, statuses: &[u16]) {
        self.state.lock().unwrap().answers.extend(statuses);
    }

    /// The next requests are answered only after these waits, in turn (after they are
    /// recorded: `received` shows them while they wait).
    pub fn delay(&self, waits: &[std::time::Duration]) {
        self.state.lock().unwrap().delays.extend(waits);
    }

    pub fn received(&self) -> Vec<Received> {
        self.state.lock().unwrap().received.clone()
    }
}

/// A browser subscribed to pushes at `endpoint` (a receiver's `/push/…` path), with keys of
/// its own.
pub struct Browser {
    pub endpoint: String,
    keys: grognard::webpush::BrowserKeys,
}

impl Browser {
    pub fn new(r: &Receiver, name: &str) -> Browser {
        Browser {
            endpoint: r.url(&format!("/push/{name}")),
            keys: grognard::webpush::BrowserKeys::generate(),
        }
    }

    /// Its `PushSubscription.toJSON()`.
    pub fn subscription(&self) -> serde_json::Value {
        serde_json::json!({
            "endpoint": self.endpoint,
            "expirationTime": null,
            "keys": {"p256dh": self.keys.p256dh(), "auth": self.keys.auth()},
        })
    }

    /// What was pushed to it: the request was for it, signed, encrypted with `aes128gcm`
    /// for its keys; its JSON.
    pub fn open(&self, got: &Received) -> serde_json::Value {
        assert!(
            self.endpoint.ends_with(&got.path),
            "{} is not {}",
            got.path,
            self.endpoint
        );
        assert_eq!(got.refused, None, "the push service refused it");
        assert_eq!(got.header("content-encoding"), Some("aes128gcm"));
        assert_eq!(got.header("content-type"), Some("application/octet-stream"));
        let text = grognard::webpush::decrypt(&self.keys.secret, &self.keys.auth, &got.body)
            .expect("the push opens with the browser's keys");
        serde_json::from_slice(&text).expect("JSON")
    }

    /// Pushes to it, in order.
    pub fn pushes(&self, r: &Receiver) -> Vec<Received> {
        r.received()
            .into_iter()
            .filter(|g| self.endpoint.ends_with(&g.path))
            .collect()
    }
}
