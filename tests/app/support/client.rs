//! A small HTTP client over ureq that keeps cookies and never follows redirects, so tests see
//! exactly what the server answered.

use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;
use ureq::Agent;

#[derive(Clone)]
pub struct Client {
    base: String,
    agent: Agent,
    pub cookies: BTreeMap<String, String>,
    pub bearer: Option<String>,
    /// Sent as `X-Forwarded-For` by `json` (for servers that trust a proxy).
    pub forwarded_for: Option<String>,
}

#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn set_cookies(&self) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The error code of a JSON error answer.
    pub fn code(&self) -> String {
        self.json()["error"]["code"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// The value of the hidden `csrf` input of a page.
    pub fn csrf(&self) -> String {
        let at = self
            .body
            .find("name=\"csrf\" value=\"")
            .expect("a csrf field on the page");
        let rest = &self.body[at + 19..];
        rest[..rest.find('"').unwrap()].to_string()
    }
}

impl Client {
    /// The same client (cookies, token) speaking to another server.
    pub fn at(&self, base: &str) -> Client {
        Client {
            base: base.to_string(),
            ..self.clone()
        }
    }

    pub fn new(base: &str) -> Client {
        let agent: Agent = Agent::config_builder()
            .max_redirects(0)
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        Client {
            base: base.to_string(),
            agent,
            cookies: BTreeMap::new(),
            forwarded_for: None,
            bearer: None,
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn keep_cookies(&mut self, resp: &Resp) {
        for c in resp.set_cookies() {
            let pair = c.split(';').next().unwrap_or("");
            if let Some((k, v)) = pair.split_once('=') {
                let expired = c.to_ascii_lowercase().contains("max-age=0");
                if v.is_empty() || expired {
                    self.cookies.remove(k.trim());
                } else {
                    self.cookies
                        .insert(k.trim().to_string(), v.trim().to_string());
                }
            }
        }
    }

    fn finish(&mut self, r: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Resp {
        let (mut resp, bytes) = self.finish_bytes(r);
        resp.body = String::from_utf8(bytes).unwrap_or_default();
        resp
    }

    /// The answer with its body as the bytes sent (`Resp::body` left empty).
    fn finish_bytes(
        &mut self,
        r: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> (Resp, Vec<u8>) {
        let mut r = r.unwrap_or_else(|e| panic!("request failed: {e}"));
        let headers = r
            .headers()
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let status = r.status().as_u16();
        let bytes = r.body_mut().read_to_vec().unwrap_or_default();
        let resp = Resp {
            status,
            headers,
            body: String::new(),
        };
        self.keep_cookies(&resp);
        (resp, bytes)
    }

    fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub fn get(&mut self, path: &str) -> Resp {
        self.get_with(path, &[])
    }

    /// A GET with extra headers (a browser's `Accept-Language`, `Referer`).
    pub fn get_with(&mut self, path: &str, headers: &[(&str, &str)]) -> Resp {
        let r = self.get_request(path, headers).call();
        let resp = self.finish(r);
        judged("GET", path, resp)
    }

    /// A GET whose body is kept as the bytes sent (a compressed answer, before decoding).
    pub fn get_bytes(&mut self, path: &str, headers: &[(&str, &str)]) -> (Resp, Vec<u8>) {
        let r = self.get_request(path, headers).call();
        self.finish_bytes(r)
    }

    fn get_request(
        &self,
        path: &str,
        headers: &[(&str, &str)],
    ) -> ureq::RequestBuilder<ureq::typestate::WithoutBody> {
        let mut req = self.agent.get(&self.url(path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        if !self.cookies.is_empty() {
            req = req.header("Cookie", &self.cookie_header());
        }
        if let Some(t) = &self.bearer {
            req = req.header("Authorization", &format!("Bearer {t}"));
        }
        req
    }

    pub fn post_form(&mut self, path: &str, fields: &[(&str, &str)]) -> Resp {
        let body: String = fields
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let mut req = self
            .agent
            .post(&self.url(path))
            .header("Content-Type", "application/x-www-form-urlencoded");
        if !self.cookies.is_empty() {
            req = req.header("Cookie", &self.cookie_header());
        }
        let r = req.send(body.as_bytes());
        self.finish(r)
    }

    /// A JSON request with any method, with the bearer token if set.
    pub fn json(&mut self, method: &str, path: &str, body: Option<Value>) -> Resp {
        let uri = self.url(path);
        let text = body.map(|b| b.to_string()).unwrap_or_default();
        let cookie = self.cookie_header();
        let bearer = self.bearer.clone().map(|t| format!("Bearer {t}"));
        let forwarded = self.forwarded_for.clone();
        macro_rules! headers {
            ($req:expr) => {{
                let mut req = $req.header("Content-Type", "application/json");
                if let Some(b) = &bearer {
                    req = req.header("Authorization", b);
                }
                if !cookie.is_empty() {
                    req = req.header("Cookie", &cookie);
                }
                if let Some(f) = &forwarded {
                    req = req.header("X-Forwarded-For", f);
                }
                req
            }};
        }
        let r = match method {
            "GET" => headers!(self.agent.get(&uri)).call(),
            "DELETE" => headers!(self.agent.delete(&uri)).call(),
            "HEAD" => headers!(self.agent.head(&uri)).call(),
            "PUT" => headers!(self.agent.put(&uri)).send(text.as_bytes()),
            "PATCH" => headers!(self.agent.patch(&uri)).send(text.as_bytes()),
            _ => headers!(self.agent.post(&uri)).send(text.as_bytes()),
        };
        let resp = self.finish(r);
        judged(method, path, resp)
    }

    pub fn post_json(&mut self, path: &str, body: Value) -> Resp {
        self.json("POST", path, Some(body))
    }

    pub fn get_json(&mut self, path: &str) -> Resp {
        self.json("GET", path, None)
    }

    /// Any method with raw bytes and a content type, with the bearer token and cookies (for
    /// hostile-input tests).
    pub fn raw(&mut self, method: &str, path: &str, content_type: &str, body: &[u8]) -> Resp {
        self.try_raw(method, path, content_type, body)
            .unwrap_or_else(|e| panic!("request failed: {e}"))
    }

    /// `raw`, with the connection's failure as an error: a server that refuses a body over
    /// its limit answers before reading it all and closes, and the client may see the
    /// connection reset before it reads the answer.
    pub fn try_raw(
        &mut self,
        method: &str,
        path: &str,
        content_type: &str,
        body: &[u8],
    ) -> Result<Resp, String> {
        let uri = self.url(path);
        let cookie = self.cookie_header();
        let bearer = self.bearer.clone().map(|t| format!("Bearer {t}"));
        macro_rules! headers {
            ($req:expr) => {{
                let mut req = $req.header("Content-Type", content_type);
                if let Some(b) = &bearer {
                    req = req.header("Authorization", b);
                }
                if !cookie.is_empty() {
                    req = req.header("Cookie", &cookie);
                }
                req
            }};
        }
        let r = match method {
            "GET" => headers!(self.agent.get(&uri)).call(),
            "DELETE" => headers!(self.agent.delete(&uri)).call(),
            "HEAD" => headers!(self.agent.head(&uri)).call(),
            "PUT" => headers!(self.agent.put(&uri)).send(body),
            "PATCH" => headers!(self.agent.patch(&uri)).send(body),
            _ => headers!(self.agent.post(&uri)).send(body),
        };
        let r = r.map_err(|e| e.to_string())?;
        let resp = self.finish(Ok(r));
        Ok(judged(method, path, resp))
    }

    /// Sends raw bytes with a content type (for malformed-input tests).
    pub fn post_raw(&mut self, path: &str, content_type: &str, body: &str) -> Resp {
        let mut req = self
            .agent
            .post(&self.url(path))
            .header("Content-Type", content_type);
        if let Some(t) = &self.bearer {
            req = req.header("Authorization", &format!("Bearer {t}"));
        }
        if !self.cookies.is_empty() {
            req = req.header("Cookie", &self.cookie_header());
        }
        let r = req.send(body.as_bytes());
        let resp = self.finish(r);
        judged("POST", path, resp)
    }
}

/// The answer, once held to the API's description (`support::openapi`).
fn judged(method: &str, path: &str, resp: Resp) -> Resp {
    super::openapi::hold(method, path, resp.status, &resp.body);
    resp
}

/// The bytes of a gzipped answer, decoded.
pub fn gunzip(z: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(z)
        .read_to_end(&mut out)
        .unwrap();
    out
}

pub fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
