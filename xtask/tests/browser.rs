//! The browser test's failure path, end to end: a two-page site with a table
//! and a code block wider than their column, an image that does not load and
//! broken links and anchors, opened in Debian's headless Chromium. Each
//! problem must come back as its own line, and nothing else may.

use std::fs;
use std::path::Path;

use xtask::browser;

const INDEX: &str = r##"<!DOCTYPE html>
<html class="sidebar-visible"><head><meta charset="utf-8"><style>
  body { margin: 0; font: 16px sans-serif; }
  main { width: 600px; margin-left: 300px; }
  pre { margin: 0; padding: 0; overflow-x: auto; }
</style></head><body><main>
<h1 id="top">A broken page</h1>
<table><tr><td>fits</td><td>its column</td></tr></table>
<div style="overflow-x: auto"><table style="width: 900px"><tr><td>wide</td><td>table</td></tr></table></div>
<pre><code><span style="display: inline-block; width: 1000px">a long line</span></code></pre>
<pre><code>a short line</code></pre>
<img src="plot.svg" alt="a plot that loads">
<img src="gone.png" alt="a plot that does not">
<h2 id="links">Links</h2>
<p><a href="#top">up</a> <a href="#nowhere">nowhere</a> <a href="other.html#there">there</a>
<a href="other.html#missing">missing anchor</a> <a href="missing.html">missing page</a>
<a href="https://example.org/">the web</a></p>
</main></body></html>
"##;

const OTHER: &str = r#"<!DOCTYPE html>
<html class="sidebar-visible"><head><meta charset="utf-8"></head><body><main>
<h1 id="there">Another page</h1><p><a href="index.html#links">back</a></p>
</main></body></html>
"#;

const PLOT: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100"/></svg>"#;

#[test]
fn a_broken_page_fails_with_one_line_per_problem() {
    if !Path::new(browser::CHROMIUM).is_file() || !Path::new(browser::CHROMEDRIVER).is_file() {
        println!(
            "skipped: no {} or {} (Debian's chromium and chromium-driver)",
            browser::CHROMIUM,
            browser::CHROMEDRIVER
        );
        return;
    }
    let site = std::env::temp_dir().join(format!("xtask-browser-test-{}", std::process::id()));
    fs::create_dir_all(&site).unwrap();
    for (name, text) in [("index.html", INDEX), ("other.html", OTHER), ("plot.svg", PLOT)] {
        fs::write(site.join(name), text).unwrap();
    }
    let report = browser::check(&site, None);
    fs::remove_dir_all(&site).unwrap();
    let report = report.unwrap();
    assert_eq!(
        report.failures,
        [
            "index.html: table overflows its column (table 2 under #top, \"wide | table\": 900 px wide, column 600 px)",
            "index.html: code block overflows its column (code block 1 under #top, \"a long line\": 1000 px wide, \
             column 600 px)",
            "index.html: image does not load (image 2 under #top, src \"gone.png\")",
            "index.html: broken anchor (link 2 under #links, \"nowhere\" to #nowhere: no element with id \"nowhere\" \
             on index.html)",
            "index.html: broken anchor (link 4 under #links, \"missing anchor\" to other.html#missing: no element \
             with id \"missing\" on other.html)",
            "index.html: broken link (link 5 under #links, \"missing page\" to missing.html: no file missing.html in \
             the book)",
        ]
    );
    assert_eq!(
        (report.pages, report.tables, report.code_blocks, report.images, report.links, report.external),
        (2, 2, 2, 2, 6, 1)
    );
}
