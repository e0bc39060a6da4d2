//! A WebDriver session with Debian's headless Chromium, through
//! `chromedriver`: the W3C protocol is JSON over HTTP/1.1 on a local port, so
//! a few lines over [`TcpStream`] speak it and this crate (the host's build
//! dependency) stays free of an HTTP client's dependency tree.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use std::{fs, thread};

use serde_json::{Value, json};

use crate::Error;

/// How long one command may take: a page load, or a measurement waiting on
/// its images.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);

/// How long `chromedriver` may take to listen.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A running `chromedriver` with one browser session; both end when this is
/// dropped.
pub struct Session {
    driver: Child,
    port: u16,
    id: String,
    profile: PathBuf,
}

impl Session {
    /// Starts `chromedriver` and a headless `chromium` with a fresh profile,
    /// its window `width`×`height` CSS pixels.
    pub fn start(chromedriver: &Path, chromium: &Path, width: u32, height: u32) -> Result<Session, Error> {
        let port = free_port()?;
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Error(format!("cannot run {}: {e}", chromedriver.display())))?;
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let profile = std::env::temp_dir().join(format!("xtask-chromium-{}-{nanos}", std::process::id()));
        // The session owns the driver from here, so every early return below
        // stops it.
        let mut session = Session { driver, port, id: String::new(), profile };
        session.wait_until_ready()?;
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            &format!("--window-size={width},{height}"),
            &format!("--user-data-dir={}", session.profile.display()),
        ];
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": args },
        } } });
        let created = session.call("POST", "/session", Some(&capabilities))?;
        session.id = created["sessionId"]
            .as_str()
            .ok_or_else(|| Error(format!("chromedriver created a session with no id: {created}")))?
            .to_owned();
        Ok(session)
    }

    /// Resizes the window so that its viewport (what a page lays out in,
    /// without the browser's own bars) is `width`×`height` CSS pixels, and
    /// returns the viewport it got. Headless Chromium keeps room for a
    /// toolbar inside `--window-size`.
    pub fn fit_viewport(&self, width: u32, height: u32) -> Result<[f64; 2], Error> {
        let viewport = || -> Result<[f64; 2], Error> {
            let value = self.execute("return [window.innerWidth, window.innerHeight];", &[])?;
            serde_json::from_value(value).map_err(|e| Error(format!("the viewport's size is not two numbers: {e}")))
        };
        let [inner_width, inner_height] = viewport()?;
        let window = self.command("GET", "window/rect", None)?;
        let size = |key: &str| window[key].as_f64().ok_or_else(|| Error(format!("the window has no {key}: {window}")));
        let rect = json!({
            "width": size("width")? + f64::from(width) - inner_width,
            "height": size("height")? + f64::from(height) - inner_height,
        });
        self.command("POST", "window/rect", Some(&rect))?;
        viewport()
    }

    /// Loads `url` and waits for its `load` event.
    pub fn open(&self, url: &str) -> Result<(), Error> {
        self.command("POST", "url", Some(&json!({ "url": url }))).map(drop)
    }

    /// Runs `script` (a function body; a promise it returns is awaited) with
    /// `args`, and returns its result.
    pub fn execute(&self, script: &str, args: &[Value]) -> Result<Value, Error> {
        self.command("POST", "execute/sync", Some(&json!({ "script": script, "args": args })))
    }

    /// The viewport as a PNG.
    pub fn screenshot(&self) -> Result<Vec<u8>, Error> {
        let value = self.command("GET", "screenshot", None)?;
        let text = value.as_str().ok_or_else(|| Error("the screenshot is not a string".to_owned()))?;
        base64_decode(text).ok_or_else(|| Error("the screenshot is not base64".to_owned()))
    }

    /// A command of this session: `path` is relative to `/session/{id}/`.
    fn command(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Error> {
        self.call(method, &format!("/session/{}/{path}", self.id), body)
    }

    /// One WebDriver request; the response's `value`, or its error message.
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Error> {
        let failed = |e: std::io::Error| Error(format!("chromedriver {method} {path}: {e}"));
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(failed)?;
        stream.set_read_timeout(Some(COMMAND_TIMEOUT)).map_err(failed)?;
        let body = body.map(Value::to_string).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json; charset=utf-8\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        stream.write_all(request.as_bytes()).map_err(failed)?;
        let (status, bytes) = read_response(&mut BufReader::new(stream))
            .map_err(|e| Error(format!("chromedriver {method} {path}: {}", e.0)))?;
        let mut reply: Value = serde_json::from_slice(&bytes)
            .map_err(|e| Error(format!("chromedriver {method} {path}: the reply is not JSON: {e}")))?;
        let value = reply["value"].take();
        if status == 200 {
            Ok(value)
        } else {
            let message = value["message"].as_str().unwrap_or_default().lines().next().unwrap_or_default();
            Err(Error(format!("chromedriver {method} {path}: HTTP {status}: {} {message}", value["error"])))
        }
    }

    /// Waits until `chromedriver` answers `GET /status` with `ready`.
    fn wait_until_ready(&mut self) -> Result<(), Error> {
        let start = Instant::now();
        loop {
            if let Ok(status) = self.call("GET", "/status", None)
                && status["ready"] == true
            {
                return Ok(());
            }
            if let Ok(Some(exit)) = self.driver.try_wait() {
                return Err(Error(format!("chromedriver exited at start ({exit})")));
            }
            if start.elapsed() > START_TIMEOUT {
                return Err(Error(format!("chromedriver did not listen on port {} in {START_TIMEOUT:?}", self.port)));
            }
            thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Ending the session quits the browser; then the driver, which we
        // started, is ours to stop.
        if !self.id.is_empty() {
            let _ = self.call("DELETE", &format!("/session/{}", self.id), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = fs::remove_dir_all(&self.profile);
    }
}

/// A local port nothing listens on now.
fn free_port() -> Result<u16, Error> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| Error(format!("cannot find a free port: {e}")))?;
    listener.local_addr().map(|a| a.port()).map_err(|e| Error(format!("cannot find a free port: {e}")))
}

/// Reads one HTTP/1.1 response: its status code and its body, delimited by
/// `Content-Length`, by chunks, or by the end of the stream.
pub fn read_response(reader: &mut impl BufRead) -> Result<(u16, Vec<u8>), Error> {
    let io = |e: std::io::Error| Error(format!("reading the reply: {e}"));
    let mut line = String::new();
    reader.read_line(&mut line).map_err(io)?;
    let status = line
        .strip_prefix("HTTP/1.")
        .and_then(|rest| rest.get(2..5))
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or_else(|| Error(format!("not an HTTP status line: {:?}", line.trim_end())))?;
    let (mut length, mut chunked) = (None, false);
    loop {
        line.clear();
        if reader.read_line(&mut line).map_err(io)? == 0 {
            return Err(Error("the reply ends inside its headers".to_owned()));
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap_or((header, ""));
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(value.parse::<usize>().map_err(|_| Error(format!("bad Content-Length {value:?}")))?);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.eq_ignore_ascii_case("chunked");
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line).map_err(io)?;
            let size = line.trim_end().split(';').next().unwrap_or_default();
            let size = usize::from_str_radix(size, 16).map_err(|_| Error(format!("bad chunk size {size:?}")))?;
            if size == 0 {
                break;
            }
            let start = body.len();
            body.resize(start + size, 0);
            reader.read_exact(&mut body[start..]).map_err(io)?;
            line.clear();
            reader.read_line(&mut line).map_err(io)?;
        }
    } else if let Some(length) = length {
        body.resize(length, 0);
        reader.read_exact(&mut body).map_err(io)?;
    } else {
        reader.read_to_end(&mut body).map_err(io)?;
    }
    Ok((status, body))
}

/// Decodes standard base64 (WebDriver's screenshots), ignoring line breaks.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let digits = digits.strip_suffix(b"==").or_else(|| digits.strip_suffix(b"=")).unwrap_or(&digits);
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    let (mut bits, mut held) = (0u32, 0u32);
    for &c in digits {
        bits = bits << 6 | u32::from(value(c)?);
        held += 6;
        if held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_are_read_by_length_and_by_chunks() {
        let sized =
            b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: application/json\r\n\r\n{\"value\":nul}trailing";
        assert_eq!(read_response(&mut &sized[..]).unwrap(), (200, b"{\"value\":nul}".to_vec()));
        let chunked = b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"va\r\n6;x=1\r\nlue\":1\r\n1\r\n}\r\n0\r\n\r\n";
        assert_eq!(read_response(&mut &chunked[..]).unwrap(), (404, b"{\"value\":1}".to_vec()));
        assert!(read_response(&mut &b"SSH-2.0\r\n"[..]).unwrap_err().0.starts_with("not an HTTP status line"));
    }

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(base64_decode("iVBORw0KGgo=").unwrap(), b"\x89PNG\r\n\x1a\n");
        assert_eq!(base64_decode("TWFu").unwrap(), b"Man");
        assert_eq!(base64_decode("TWE=").unwrap(), b"Ma");
        assert_eq!(base64_decode("TQ==\n").unwrap(), b"M");
        assert_eq!(base64_decode("T*=="), None);
    }
}
