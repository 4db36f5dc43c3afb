//! A small SMTP server for the tests: it speaks enough of RFC 5321 for a real client (lettre)
//! to deliver to it, and keeps every message it is given.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One delivered message: the envelope's recipients and the message as sent.
#[derive(Clone, Debug)]
pub struct Delivered {
    pub to: Vec<String>,
    pub data: String,
}

impl Delivered {
    /// The body as its reader sees it, decoded from quoted-printable or base64.
    pub fn body(&self) -> String {
        let (head, body) = self.data.split_once("\r\n\r\n").unwrap_or((&self.data, ""));
        let encoding = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Transfer-Encoding:"))
            .map(|v| v.trim().to_ascii_lowercase())
            .unwrap_or_default();
        let bytes = match encoding.as_str() {
            "base64" => {
                use base64::Engine;
                let text: String = body.chars().filter(|c| !c.is_whitespace()).collect();
                base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .expect("base64 body")
            }
            "quoted-printable" => {
                let text = body.replace("=\r\n", "");
                let mut out = Vec::new();
                let mut bytes = text.bytes();
                while let Some(b) = bytes.next() {
                    if b == b'=' {
                        let hex: Vec<u8> = bytes.by_ref().take(2).collect();
                        let hex = std::str::from_utf8(&hex).expect("ascii");
                        out.push(u8::from_str_radix(hex, 16).expect("a =XX escape"));
                    } else {
                        out.push(b);
                    }
                }
                out
            }
            _ => body.as_bytes().to_vec(),
        };
        String::from_utf8(bytes).expect("UTF-8 text")
    }
}

pub struct SmtpSink {
    pub port: u16,
    delivered: Arc<Mutex<Vec<Delivered>>>,
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let delivered = Arc::new(Mutex::new(Vec::new()));
        let store = delivered.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let store = store.clone();
                std::thread::spawn(move || {
                    let _ = session(stream, &store);
                });
            }
        });
        SmtpSink { port, delivered }
    }

    pub fn delivered(&self) -> Vec<Delivered> {
        self.delivered.lock().unwrap().clone()
    }
}

fn session(stream: TcpStream, store: &Mutex<Vec<Delivered>>) -> std::io::Result<()> {
    let mut out = stream.try_clone()?;
    let mut lines = BufReader::new(stream);
    out.write_all(b"220 sink ESMTP\r\n")?;
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" | "HELO" => out.write_all(b"250-sink\r\n250 8BITMIME\r\n")?,
            "MAIL" => {
                to.clear();
                out.write_all(b"250 OK\r\n")?
            }
            "RCPT" => {
                let addr = line
                    .split(['<', '>'])
                    .nth(1)
                    .unwrap_or_default()
                    .to_string();
                to.push(addr);
                out.write_all(b"250 OK\r\n")?
            }
            "DATA" => {
                out.write_all(b"354 go on\r\n")?;
                let mut data = String::new();
                loop {
                    line.clear();
                    if lines.read_line(&mut line)? == 0 {
                        return Ok(());
                    }
                    if line == ".\r\n" || line == ".\n" {
                        break;
                    }
                    data.push_str(line.strip_prefix('.').unwrap_or(&line));
                }
                store.lock().unwrap().push(Delivered {
                    to: to.clone(),
                    data,
                });
                out.write_all(b"250 queued\r\n")?
            }
            "QUIT" => {
                out.write_all(b"221 bye\r\n")?;
                return Ok(());
            }
            _ => out.write_all(b"250 OK\r\n")?,
        }
    }
}
