//! A client of the live streams as a browser's `EventSource` is one: a plain HTTP/1.1 request
//! on a socket, its chunked answer read on a thread of its own and cut into events.

use super::Client;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// One message of a stream.
#[derive(Clone, Debug)]
pub struct Heard {
    pub event: String,
    pub id: Option<i64>,
    pub data: Value,
}

/// An open stream.
pub struct Live {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// The answer's body when it is not a stream (a refusal).
    pub body: String,
    rx: Option<Receiver<Heard>>,
    socket: Option<TcpStream>,
    /// Comments heard (keep-alives), counted by the reading thread.
    pub comments: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// Whether the server ended the answer (its last chunk), rather than cut the connection.
    finished: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// Opens the stream of world `w` with `who`'s credentials (bearer token, or session cookie
/// without any CSRF header, as `EventSource` sends it), resuming after `last` if given.
pub fn open(base: &str, who: &Client, w: i64, last: Option<&str>) -> Live {
    open_path(base, who, &format!("/api/v1/worlds/{w}/live"), last)
}

pub fn open_path(base: &str, who: &Client, path: &str, last: Option<&str>) -> Live {
    let addr = base.trim_start_matches("http://");
    let mut socket = TcpStream::connect(addr).expect("connect");
    let mut head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n");
    if let Some(t) = &who.bearer {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    if !who.cookies.is_empty() {
        let cookies: Vec<String> = who
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        head.push_str(&format!("Cookie: {}\r\n", cookies.join("; ")));
    }
    if let Some(id) = last {
        head.push_str(&format!("Last-Event-ID: {id}\r\n"));
    }
    head.push_str("\r\n");
    socket.write_all(head.as_bytes()).expect("send");
    socket
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut reader = BufReader::new(socket.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).expect("status line");
    let status: u16 = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).expect("header");
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let streaming = header("content-type").is_some_and(|t| t.starts_with("text/event-stream"));
    let comments = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    if !streaming {
        let mut body = String::new();
        let len: usize = header("content-length")
            .and_then(|l| l.parse().ok())
            .unwrap_or(0);
        let mut buf = vec![0; len];
        reader.read_exact(&mut buf).expect("body");
        body.push_str(&String::from_utf8_lossy(&buf));
        return Live {
            status,
            headers,
            body,
            rx: None,
            socket: Some(socket),
            comments,
            finished,
        };
    }
    let chunked = header("transfer-encoding").is_some_and(|t| t.contains("chunked"));
    let (tx, rx) = channel();
    let (counted, ended) = (comments.clone(), finished.clone());
    std::thread::spawn(move || {
        socket_events(reader, chunked, |h| tx.send(h).is_ok(), &counted, &ended);
    });
    Live {
        status,
        headers,
        body: String::new(),
        rx: Some(rx),
        socket: Some(socket),
        comments,
        finished,
    }
}

/// Reads events until the stream ends or `each` says stop.
fn socket_events(
    mut reader: BufReader<TcpStream>,
    chunked: bool,
    mut each: impl FnMut(Heard) -> bool,
    comments: &std::sync::atomic::AtomicUsize,
    finished: &std::sync::atomic::AtomicBool,
) {
    let mut text = String::new();
    let (mut event, mut id, mut data) = (String::new(), None, String::new());
    loop {
        // One chunk (or whatever came) of the body.
        let piece = if chunked {
            let mut size = String::new();
            if reader.read_line(&mut size).unwrap_or(0) == 0 {
                return;
            }
            let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
                return;
            };
            if n == 0 {
                finished.store(true, std::sync::atomic::Ordering::Release);
                return;
            }
            let mut buf = vec![0; n + 2];
            if reader.read_exact(&mut buf).is_err() {
                return;
            }
            buf.truncate(n);
            buf
        } else {
            let mut buf = vec![0; 4096];
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    buf.truncate(n);
                    buf
                }
            }
        };
        text.push_str(&String::from_utf8_lossy(&piece));
        while let Some(end) = text.find('\n') {
            let line: String = text.drain(..=end).collect();
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if !data.is_empty() || !event.is_empty() {
                    let heard = Heard {
                        event: std::mem::take(&mut event),
                        id: id.take(),
                        data: serde_json::from_str(&data).unwrap_or(Value::Null),
                    };
                    data.clear();
                    if !each(heard) {
                        return;
                    }
                }
            } else if line.starts_with(':') {
                comments.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            } else if let Some((field, value)) = line.split_once(':') {
                let value = value.strip_prefix(' ').unwrap_or(value);
                match field {
                    "event" => event = value.to_string(),
                    "id" => id = value.parse().ok(),
                    "data" => data.push_str(value),
                    _ => {}
                }
            }
        }
    }
}

impl Live {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The next event, if one comes within `wait`.
    pub fn next(&self, wait: Duration) -> Option<Heard> {
        self.rx.as_ref()?.recv_timeout(wait).ok()
    }

    /// Events until one named `event` for which `pred` holds (within 10 s): all of them, that
    /// one last. Panics with what was heard if none comes.
    pub fn until(&self, event: &str, pred: impl Fn(&Value) -> bool) -> Vec<Heard> {
        let end = Instant::now() + Duration::from_secs(10);
        let mut heard = Vec::new();
        while Instant::now() < end {
            if let Some(h) = self.next(end.saturating_duration_since(Instant::now())) {
                let done = h.event == event && pred(&h.data);
                heard.push(h);
                if done {
                    return heard;
                }
            }
        }
        panic!("no `{event}` as expected came; heard: {heard:#?}");
    }

    /// Every event that comes within `wait`.
    pub fn drain(&self, wait: Duration) -> Vec<Heard> {
        let end = Instant::now() + wait;
        let mut heard = Vec::new();
        while let Some(h) = self.next(end.saturating_duration_since(Instant::now())) {
            heard.push(h);
        }
        heard
    }

    /// Whether the server ended the stream (within `wait`).
    pub fn ended(&self, wait: Duration) -> bool {
        let Some(rx) = self.rx.as_ref() else {
            return true;
        };
        let end = Instant::now() + wait;
        loop {
            match rx.recv_timeout(end.saturating_duration_since(Instant::now())) {
                Ok(_) => continue,
                Err(RecvTimeoutError::Disconnected) => return true,
                Err(RecvTimeoutError::Timeout) => return false,
            }
        }
    }

    /// Whether the stream, ended, was ended by the server (its last chunk sent), not cut.
    pub fn finished(&self) -> bool {
        self.finished.load(std::sync::atomic::Ordering::Acquire)
    }

    /// The last id among `heard`.
    pub fn last_id(heard: &[Heard]) -> Option<i64> {
        heard.iter().rev().find_map(|h| h.id)
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Some(s) = self.socket.take() {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}
