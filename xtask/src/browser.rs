//! The built book opened in a real browser, as a reader at 1280×800 sees it:
//! Debian's headless Chromium, driven through `chromium-driver`
//! ([`crate::webdriver`]), opens every chapter from `file://`, and one script
//! (`browser.js`) measures it. [`check`] fails a page when a table, code
//! block or image is wider than the column it sits in, when an image does not
//! load, and when a link leads to no page of the book or to an anchor its
//! page does not have.
//!
//! The script only measures; the judgement is [`layout_failures`] and
//! [`link_failures`], pure functions of what it returned.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{fmt, fs};

use serde::Deserialize;

use crate::Error;
use crate::webdriver::Session;

/// The Debian packages the check needs.
pub const PACKAGES: [&str; 2] = ["chromium", "chromium-driver"];

/// Debian's Chromium.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Debian's `chromedriver`, from `chromium-driver`.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The window a reader has, in CSS pixels: wide enough that mdBook keeps its
/// sidebar open beside the chapter.
pub const WINDOW: (u32, u32) = (1280, 800);

/// How far past its column an element may reach before it counts as
/// overflowing: the layout's subpixel rounding, nothing more.
pub const SLACK_PX: f64 = 1.0;

/// Pages mdBook writes besides the chapters, which the check does not open:
/// the not-found page, the print page (every chapter again, in one), and the
/// sidebar's fallback for readers without JavaScript.
pub const NOT_CHAPTERS: [&str; 3] = ["404.html", "print.html", "toc.html"];

/// The measuring script, run in each page.
const SCRIPT: &str = include_str!("browser.js");

/// Makes sure Chromium and its driver are installed, installing
/// [`PACKAGES`] with `apt-get` (through `sudo` when not root; after
/// `apt-get update` if the first try fails) when either is missing.
pub fn find_or_install() -> Result<(), Error> {
    let missing = || [CHROMIUM, CHROMEDRIVER].into_iter().filter(|p| !Path::new(p).is_file()).collect::<Vec<_>>();
    if missing().is_empty() {
        return Ok(());
    }
    eprintln!("installing {} with apt-get (for the browser test)", PACKAGES.join(" "));
    let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let apt = |args: &[&str]| {
        let mut command = if root { Command::new("apt-get") } else { Command::new("sudo") };
        if !root {
            command.arg("apt-get");
        }
        command.args(args).env("DEBIAN_FRONTEND", "noninteractive").status().is_ok_and(|s| s.success())
    };
    let install = [&["install", "-y"][..], &PACKAGES[..]].concat();
    let installed = apt(&install) || (apt(&["update"]) && apt(&install));
    let still = missing();
    if installed && still.is_empty() {
        Ok(())
    } else {
        Err(Error(format!(
            "the browser test needs Debian's packages {} (`apt-get install {}`), which could not be installed here; \
             missing: {}",
            PACKAGES.join(" and "),
            PACKAGES.join(" "),
            still.join(", ")
        )))
    }
}

/// What one page measured, as `browser.js` returns it.
#[derive(Debug, Deserialize)]
pub struct Measured {
    /// The viewport, `[width, height]` in CSS pixels.
    pub viewport: [f64; 2],
    /// Whether mdBook shows its sidebar.
    pub sidebar: bool,
    /// The width of the column (`<main>`'s content box).
    pub column: f64,
    /// Every table, code block and image of the column.
    pub boxes: Vec<Measure>,
    /// Every image of the column.
    pub images: Vec<Image>,
    /// Every link of the column.
    pub links: Vec<Link>,
    /// Every id on the page (and every `<a name>`): the anchors a link may
    /// name.
    pub ids: Vec<String>,
}

/// A table, code block or image and its horizontal extent.
#[derive(Debug, Deserialize)]
pub struct Measure {
    /// `table`, `code block` or `image`.
    pub kind: String,
    /// Its number among the page's elements of its kind, from 1.
    pub index: usize,
    /// A table's first row, a code block's first line, an image's `src`.
    pub label: String,
    /// The id of the last heading before it.
    pub under: Option<String>,
    /// Its left edge, from the column's left edge.
    pub left: f64,
    /// Its width, with whatever its scrolling hides.
    pub width: f64,
}

/// An image and whether it loaded.
#[derive(Debug, Deserialize)]
pub struct Image {
    /// Its `src` as written.
    pub src: String,
    /// `complete && naturalWidth > 0`.
    pub loaded: bool,
    /// The id of the last heading before it.
    pub under: Option<String>,
}

/// A link.
#[derive(Debug, Deserialize)]
pub struct Link {
    /// Its `href` as written.
    pub href: String,
    /// The URL the browser resolved it to.
    pub url: String,
    /// Its text.
    pub label: String,
    /// The id of the last heading before it.
    pub under: Option<String>,
}

/// Where an element sits, for a failure line: `table 3 under #publication`.
fn place(kind: &str, index: Option<usize>, under: &Option<String>) -> String {
    let index = index.map(|i| format!(" {i}")).unwrap_or_default();
    match under {
        Some(id) => format!("{kind}{index} under #{id}"),
        None => format!("{kind}{index}"),
    }
}

/// The page's overflowing boxes and unloaded images, one line each:
/// `page: what (element, sizes)`.
pub fn layout_failures(page: &str, measured: &Measured) -> Vec<String> {
    let column = measured.column;
    let mut failures = Vec::new();
    for b in &measured.boxes {
        let right = b.left + b.width;
        if b.left < -SLACK_PX || right > column + SLACK_PX {
            let at = if b.left.abs() > SLACK_PX { format!(" at {:+.0} px", b.left) } else { String::new() };
            failures.push(format!(
                "{page}: {} overflows its column ({}, \"{}\": {:.0} px wide{at}, column {:.0} px)",
                b.kind,
                place(&b.kind, Some(b.index), &b.under),
                b.label,
                b.width,
                column
            ));
        }
    }
    for (i, image) in measured.images.iter().enumerate() {
        if !image.loaded {
            failures.push(format!(
                "{page}: image does not load ({}, src \"{}\")",
                place("image", Some(i + 1), &image.under),
                image.src
            ));
        }
    }
    failures
}

/// What became of a link.
#[derive(Debug, PartialEq)]
enum Target {
    /// Outside `file://` (the web, mail): not followed.
    External,
    /// A file of the book, relative to its root, and the anchor, if any.
    Book(String, Option<String>),
    /// A `file://` path outside the book.
    Outside,
}

/// Where `url` (as the browser resolved it) leads, for a book at
/// `root` (an absolute path with `/` separators, no trailing `/`).
fn target(url: &str, root: &str) -> Target {
    let Some(rest) = url.strip_prefix("file://") else { return Target::External };
    let (path, fragment) = match rest.split_once('#') {
        Some((path, fragment)) => (path, Some(percent_decode(fragment))),
        None => (rest, None),
    };
    let path = percent_decode(path.split('?').next().unwrap_or_default());
    let Some(relative) = path.strip_prefix(root).and_then(|p| p.strip_prefix('/').or((p.is_empty()).then_some("")))
    else {
        return Target::Outside;
    };
    let file = if relative.is_empty() || relative.ends_with('/') {
        format!("{relative}index.html")
    } else {
        relative.to_owned()
    };
    Target::Book(file, fragment.filter(|f| !f.is_empty()))
}

/// Decodes `%XX` escapes; text that is not valid UTF-8 after decoding keeps
/// its escapes.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// The page's broken links, one line each: those that lead out of the book
/// (`root`, as in [`target`]), to a file it does not have (`files`, relative
/// to its root), or to an anchor their page does not have (`ids`, for every
/// page opened). Links off `file://` are not followed.
pub fn link_failures(
    page: &str,
    measured: &Measured,
    root: &str,
    files: &BTreeSet<String>,
    ids: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let mut failures = Vec::new();
    for (i, link) in measured.links.iter().enumerate() {
        let problem = match target(&link.url, root) {
            Target::External => None,
            Target::Outside => Some("leads out of the book".to_owned()),
            Target::Book(file, anchor) => {
                if !files.contains(&file) {
                    Some(format!("no file {file} in the book"))
                } else if let Some(anchor) = anchor {
                    match ids.get(&file) {
                        Some(known) if known.contains(&anchor) => None,
                        Some(_) => Some(format!("no element with id \"{anchor}\" on {file}")),
                        None => Some(format!("an anchor on {file}, a page the check does not open")),
                    }
                } else {
                    None
                }
            }
        };
        if let Some(problem) = problem {
            let what = if link.href.starts_with('#') || problem.starts_with("no element") { "anchor" } else { "link" };
            failures.push(format!(
                "{page}: broken {what} ({}, \"{}\" to {}: {problem})",
                place("link", Some(i + 1), &link.under),
                link.label,
                link.href
            ));
        }
    }
    failures
}

/// What [`check`] found.
#[derive(Debug, Default)]
pub struct Report {
    /// Pages opened.
    pub pages: usize,
    /// Tables measured.
    pub tables: usize,
    /// Code blocks measured.
    pub code_blocks: usize,
    /// Images measured and loaded.
    pub images: usize,
    /// Links followed within the book.
    pub links: usize,
    /// Links off `file://`, counted but not followed.
    pub external: usize,
    /// One line per failure: `page: what (element, sizes)`.
    pub failures: Vec<String>,
}

impl fmt::Display for Report {
    /// The one-line summary.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "browser ({}×{}, sidebar open): {} pages, {} tables, {} code blocks, {} images, {} links checked \
             ({} external links not followed)",
            WINDOW.0, WINDOW.1, self.pages, self.tables, self.code_blocks, self.images, self.links, self.external
        )
    }
}

/// Opens every chapter of the book built in `book` (every HTML file but
/// [`NOT_CHAPTERS`]) in headless Chromium at [`WINDOW`], and reports what
/// fails. With `screenshots`, saves each page's viewport there as a PNG.
/// An error is a check that could not run, not a failing page.
pub fn check(book: &Path, screenshots: Option<&Path>) -> Result<Report, Error> {
    let book = book.canonicalize().map_err(|e| Error(format!("cannot open {}: {e}", book.display())))?;
    let root = book.to_str().ok_or_else(|| Error(format!("{} is not UTF-8", book.display())))?.replace('\\', "/");
    let files = files_of(&book)?;
    let pages: Vec<&String> =
        files.iter().filter(|f| f.ends_with(".html") && !NOT_CHAPTERS.contains(&f.as_str())).collect();
    if let Some(dir) = screenshots {
        fs::create_dir_all(dir).map_err(|e| Error(format!("cannot create {}: {e}", dir.display())))?;
    }

    let session = Session::start(Path::new(CHROMEDRIVER), Path::new(CHROMIUM), WINDOW.0, WINDOW.1)?;
    let viewport = session.fit_viewport(WINDOW.0, WINDOW.1)?;
    if viewport != [f64::from(WINDOW.0), f64::from(WINDOW.1)] {
        return Err(Error(format!(
            "the browser's viewport is {}×{} CSS pixels, not {}×{}",
            viewport[0], viewport[1], WINDOW.0, WINDOW.1
        )));
    }
    let mut measured = BTreeMap::new();
    for page in pages {
        session.open(&file_url(&format!("{root}/{page}")))?;
        let value = session.execute(SCRIPT, &[])?;
        if let Some(error) = value.get("error") {
            return Err(Error(format!("{page}: {}", error.as_str().unwrap_or_default())));
        }
        let page_measured: Measured = serde_json::from_value(value)
            .map_err(|e| Error(format!("{page}: the measuring script returned something unexpected: {e}")))?;
        if page_measured.viewport != [f64::from(WINDOW.0), f64::from(WINDOW.1)] || !page_measured.sidebar {
            return Err(Error(format!(
                "{page}: laid out in a {}×{} viewport with the sidebar {}, not as a reader at {}×{} sees it",
                page_measured.viewport[0],
                page_measured.viewport[1],
                if page_measured.sidebar { "open" } else { "hidden" },
                WINDOW.0,
                WINDOW.1
            )));
        }
        if let Some(dir) = screenshots {
            let png = dir.join(page.replace('/', "-").replace(".html", ".png"));
            fs::write(&png, session.screenshot()?)
                .map_err(|e| Error(format!("cannot write {}: {e}", png.display())))?;
        }
        measured.insert(page.clone(), page_measured);
    }
    drop(session);

    let ids: BTreeMap<String, BTreeSet<String>> =
        measured.iter().map(|(page, m)| (page.clone(), m.ids.iter().cloned().collect())).collect();
    let mut report = Report { pages: measured.len(), ..Report::default() };
    for (page, m) in &measured {
        report.tables += m.boxes.iter().filter(|b| b.kind == "table").count();
        report.code_blocks += m.boxes.iter().filter(|b| b.kind == "code block").count();
        report.images += m.images.len();
        let external = m.links.iter().filter(|l| target(&l.url, &root) == Target::External).count();
        report.external += external;
        report.links += m.links.len() - external;
        report.failures.extend(layout_failures(page, m));
        report.failures.extend(link_failures(page, m, &root, &files, &ids));
    }
    Ok(report)
}

/// Every file under `dir`, relative to it, with `/` separators.
fn files_of(dir: &Path) -> Result<BTreeSet<String>, Error> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) -> Result<(), Error> {
        let entries = fs::read_dir(dir).map_err(|e| Error(format!("cannot read {}: {e}", dir.display())))?;
        for entry in entries {
            let entry = entry.map_err(|e| Error(format!("cannot read {}: {e}", dir.display())))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path: PathBuf = entry.path();
            if path.is_dir() {
                walk(&path, &format!("{prefix}{name}/"), out)?;
            } else {
                out.insert(format!("{prefix}{name}"));
            }
        }
        Ok(())
    }
    let mut out = BTreeSet::new();
    walk(dir, "", &mut out)?;
    Ok(out)
}

/// The `file://` URL of an absolute path, escaping what a URL path cannot
/// hold.
fn file_url(path: &str) -> String {
    let mut url = String::from("file://");
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            url.push(char::from(byte));
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = "/w/target/book";

    fn measured(json: &str) -> Measured {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn wide_boxes_and_unloaded_images_fail_with_their_sizes() {
        let m = measured(
            r#"{"viewport": [1280, 800], "sidebar": true, "column": 750.4,
                "boxes": [
                  {"kind": "table", "index": 1, "label": "a | b", "under": "sums", "left": 0, "width": 751.2},
                  {"kind": "table", "index": 2, "label": "kernel | n | GB/s", "under": "sums", "left": 0, "width": 1210.6},
                  {"kind": "code block", "index": 1, "label": "$ cargo xtask", "under": null, "left": 40, "width": 750},
                  {"kind": "image", "index": 1, "label": "generated/a.svg", "under": "plots", "left": -3, "width": 700}
                ],
                "images": [
                  {"src": "generated/a.svg", "loaded": true, "under": "plots"},
                  {"src": "generated/gone.svg", "loaded": false, "under": "plots"}
                ],
                "links": [], "ids": []}"#,
        );
        assert_eq!(
            layout_failures("lesson.html", &m),
            [
                "lesson.html: table overflows its column (table 2 under #sums, \"kernel | n | GB/s\": 1211 px wide, \
                 column 750 px)",
                "lesson.html: code block overflows its column (code block 1, \"$ cargo xtask\": 750 px wide at +40 px, \
                 column 750 px)",
                "lesson.html: image overflows its column (image 1 under #plots, \"generated/a.svg\": 700 px wide at \
                 -3 px, column 750 px)",
                "lesson.html: image does not load (image 2 under #plots, src \"generated/gone.svg\")",
            ]
        );
    }

    #[test]
    fn links_must_reach_a_file_of_the_book_and_an_id_on_it() {
        let m = measured(
            r##"{"viewport": [1280, 800], "sidebar": true, "column": 750, "boxes": [], "images": [],
                "links": [
                  {"href": "#top", "url": "file:///w/target/book/a/x.html#top", "label": "up", "under": null},
                  {"href": "#gone", "url": "file:///w/target/book/a/x.html#gone", "label": "down", "under": "h"},
                  {"href": "../y.html#caf%C3%A9", "url": "file:///w/target/book/y.html#caf%C3%A9", "label": "y", "under": "h"},
                  {"href": "../y.html#nope", "url": "file:///w/target/book/y.html#nope", "label": "y2", "under": "h"},
                  {"href": "../z.html", "url": "file:///w/target/book/z.html", "label": "z", "under": "h"},
                  {"href": "../print.html#y", "url": "file:///w/target/book/print.html#y", "label": "p", "under": "h"},
                  {"href": "../", "url": "file:///w/target/book/", "label": "home", "under": "h"},
                  {"href": "../../../results/r.json", "url": "file:///w/results/r.json", "label": "r", "under": "h"},
                  {"href": "https://example.org/", "url": "https://example.org/", "label": "web", "under": "h"}
                ],
                "ids": ["top", "h"]}"##,
        );
        let files: BTreeSet<String> =
            ["a/x.html", "y.html", "index.html", "print.html"].into_iter().map(String::from).collect();
        let ids: BTreeMap<String, BTreeSet<String>> = [
            ("a/x.html".to_owned(), m.ids.iter().cloned().collect()),
            ("y.html".to_owned(), ["café".to_owned()].into()),
            ("index.html".to_owned(), BTreeSet::new()),
        ]
        .into();
        assert_eq!(
            link_failures("a/x.html", &m, ROOT, &files, &ids),
            [
                "a/x.html: broken anchor (link 2 under #h, \"down\" to #gone: no element with id \"gone\" on a/x.html)",
                "a/x.html: broken anchor (link 4 under #h, \"y2\" to ../y.html#nope: no element with id \"nope\" on \
                 y.html)",
                "a/x.html: broken link (link 5 under #h, \"z\" to ../z.html: no file z.html in the book)",
                "a/x.html: broken link (link 6 under #h, \"p\" to ../print.html#y: an anchor on print.html, a page \
                 the check does not open)",
                "a/x.html: broken link (link 8 under #h, \"r\" to ../../../results/r.json: leads out of the book)",
            ]
        );
    }

    #[test]
    fn urls_resolve_against_the_book_root() {
        assert_eq!(target("file:///w/target/book", ROOT), Target::Book("index.html".to_owned(), None));
        assert_eq!(
            target("file:///w/target/book/a/?q=1#x%20y", ROOT),
            Target::Book("a/index.html".to_owned(), Some("x y".to_owned()))
        );
        assert_eq!(target("file:///w/target/bookish/a.html", ROOT), Target::Outside);
        assert_eq!(target("mailto:someone", ROOT), Target::External);
        assert_eq!(file_url("/w/my book/a.html"), "file:///w/my%20book/a.html");
        assert_eq!(percent_decode("100%25%zz"), "100%%zz");
    }
}
