//! A small W3C WebDriver client over HTTP, enough to drive Debian's Chromium through
//! chromedriver: sessions, navigation, finding, clicking, typing, reading and screenshots.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use ureq::Agent;

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub struct Browser {
    agent: Agent,
    base: String,
    session: String,
    driver: Child,
    profile: PathBuf,
    pub shots: PathBuf,
}

fn find_binary(names: &[&str]) -> String {
    for n in names {
        for dir in ["/usr/bin", "/usr/local/bin", "/usr/lib/chromium"] {
            let p = Path::new(dir).join(n);
            if p.exists() {
                return p.display().to_string();
            }
        }
    }
    panic!(
        "{} is not installed (Debian packages chromium and chromium-driver; .ci/run installs them)",
        names[0]
    );
}

impl Browser {
    /// Starts chromedriver on a free port and opens a headless Chromium session.
    pub fn start(shots_dir: &str) -> Browser {
        Browser::start_sized(shots_dir, 1280, 900)
    }

    /// A browser whose window is `width × height` CSS pixels (390 × 844: a phone).
    pub fn start_sized(shots_dir: &str, width: u32, height: u32) -> Browser {
        let driver_bin = find_binary(&["chromedriver"]);
        let chromium = find_binary(&["chromium", "chromium-browser"]);
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let agent: Agent = Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        loop {
            if let Ok(mut r) = agent.get(&format!("{base}/status")).call() {
                let v: Value =
                    serde_json::from_str(&r.body_mut().read_to_string().unwrap_or_default())
                        .unwrap_or(Value::Null);
                if v["value"]["ready"] == true {
                    break;
                }
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile =
            std::env::temp_dir().join(format!("grognard-chromium-{}-{port}", std::process::id()));
        let mut options = json!({"binary": chromium, "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-quic", "--no-first-run", "--disable-sync",
            "--disable-dev-shm-usage", format!("--window-size={},{height}", width.max(500)),
            format!("--user-data-dir={}", profile.display()),
        ]});
        // A headless window is at least 500 px wide: narrower screens are emulated as a
        // phone (touch, the page's viewport meta tag honoured).
        if width < 500 {
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": width, "height": height, "pixelRatio": 1, "touch": true, "mobile": true
            }});
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options,
        }}});
        let mut b = Browser {
            agent,
            base,
            session: String::new(),
            driver,
            profile,
            shots: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("target")
                .join(shots_dir),
        };
        let v = b.call("POST", "/session", Some(caps));
        b.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        std::fs::create_dir_all(&b.shots).unwrap();
        b
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{}", self.base, path);
        let req = ureq::http::Request::builder()
            .method(method)
            .uri(&url)
            .header("Content-Type", "application/json")
            .body(body.map(|b| b.to_string()).unwrap_or_default())
            .unwrap();
        let mut r = self
            .agent
            .run(req)
            .unwrap_or_else(|e| panic!("webdriver {method} {path}: {e}"));
        let v: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap_or_default())
            .unwrap_or(Value::Null);
        if v["value"].get("error").is_some() {
            return json!({"error": v["value"]["error"], "message": v["value"]["message"]});
        }
        if path == "/session" {
            return v["value"].clone();
        }
        v["value"].clone()
    }

    fn s(&self, rest: &str) -> String {
        format!("/session/{}{}", self.session, rest)
    }

    pub fn goto(&self, url: &str) {
        let v = self.call("POST", &self.s("/url"), Some(json!({"url": url})));
        assert!(v.get("error").is_none(), "navigate {url}: {v}");
    }

    /// A Chrome DevTools command (input events a WebDriver action cannot send, such as two
    /// fingers at once).
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        let v = self.call(
            "POST",
            &self.s("/goog/cdp/execute"),
            Some(json!({"cmd": cmd, "params": params})),
        );
        assert!(v.get("error").is_none(), "{cmd}: {v}");
        v
    }

    /// Two fingers on the screen around (x, y), `from` px apart, moved to `to` px apart.
    pub fn pinch(&self, x: f64, y: f64, from: f64, to: f64) {
        let points = |d: f64| json!([{"x": x - d / 2.0, "y": y, "id": 1}, {"x": x + d / 2.0, "y": y, "id": 2}]);
        self.cdp(
            "Input.dispatchTouchEvent",
            json!({"type": "touchStart", "touchPoints": points(from)}),
        );
        for i in 1..=4 {
            let d = from + (to - from) * i as f64 / 4.0;
            self.cdp(
                "Input.dispatchTouchEvent",
                json!({"type": "touchMove", "touchPoints": points(d)}),
            );
        }
        self.cdp(
            "Input.dispatchTouchEvent",
            json!({"type": "touchEnd", "touchPoints": []}),
        );
    }

    /// The mouse moved to a point of the window, over whatever is drawn there.
    pub fn hover_at(&self, x: f64, y: f64) {
        self.cdp(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x, "y": y}),
        );
    }

    /// The mouse wheel turned over a point of the window, by `dx` and `dy` pixels.
    pub fn wheel(&self, x: f64, y: f64, dx: f64, dy: f64) {
        self.cdp(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy}),
        );
    }

    /// A left click at a point of the window, on whatever is drawn there.
    pub fn click_at(&self, x: f64, y: f64) {
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.cdp(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    pub fn url(&self) -> String {
        self.call("GET", &self.s("/url"), None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    fn try_find(&self, css: &str) -> Option<String> {
        let v = self.call(
            "POST",
            &self.s("/element"),
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT].as_str().map(str::to_string)
    }

    /// Waits up to 10 s for an element matching `css`.
    pub fn find(&self, css: &str) -> String {
        let started = Instant::now();
        loop {
            if let Some(e) = self.try_find(css) {
                return e;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no element `{css}` on {}",
                self.url()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Clicks an element; one under something fixed on the screen (a phone's live strip at
    /// the foot of the page) is first scrolled to the middle, as a player would.
    pub fn click(&self, css: &str) {
        let e = self.find(css);
        let click = || {
            self.call(
                "POST",
                &self.s(&format!("/element/{e}/click")),
                Some(json!({})),
            )
        };
        let mut v = click();
        if v["error"] == "element click intercepted" {
            self.call(
                "POST",
                &self.s("/execute/sync"),
                Some(json!({
                    "script": "arguments[0].scrollIntoView({block: 'center'});",
                    "args": [{ELEMENT: e}],
                })),
            );
            v = click();
        }
        assert!(v.get("error").is_none(), "click {css}: {v}");
    }

    pub fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.call(
            "POST",
            &self.s(&format!("/element/{e}/clear")),
            Some(json!({})),
        );
        let v = self.call(
            "POST",
            &self.s(&format!("/element/{e}/value")),
            Some(json!({"text": text})),
        );
        assert!(v.get("error").is_none(), "type into {css}: {v}");
    }

    pub fn text(&self, css: &str) -> String {
        let e = self.find(css);
        self.call("GET", &self.s(&format!("/element/{e}/text")), None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Runs `js` (a function body) in the page and returns what it returns.
    pub fn script(&self, js: &str) -> Value {
        let v = self.call(
            "POST",
            &self.s("/execute/sync"),
            Some(json!({"script": js, "args": []})),
        );
        assert!(v.get("error").is_none(), "script: {v}");
        v
    }

    pub fn source(&self) -> String {
        self.call("GET", &self.s("/source"), None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// The folder the screenshots go to.
    pub fn shots_dir(&self) -> &std::path::Path {
        &self.shots
    }

    /// Saves a PNG screenshot as `<name>.png` in the screenshot folder under `target/`.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let v = self.call("GET", &self.s("/screenshot"), None);
        let png = decode_base64(v.as_str().expect("screenshot data"));
        let path = self.shots.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.call("DELETE", &self.s(""), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn decode_base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
