//! The book's source checks: every include, image and link names a file
//! that exists, and every `#anchor` a heading there, with the ids mdBook
//! gives headings.

use std::collections::BTreeSet;
use std::path::Path;

use super::{GENERATED, markdown_files, normalize, read};
use crate::Error;

/// Checks the book's sources: every include, image and link to another
/// chapter names a file that exists, and every `#anchor` a heading there.
/// Run after [`generate`], so generated files count.
pub fn check(src: &Path) -> Result<(), Error> {
    let mut problems = Vec::new();
    for chapter in markdown_files(src)? {
        if chapter.starts_with(src.join(GENERATED)) {
            continue;
        }
        let text = read(&chapter)?;
        let here = chapter.parent().unwrap_or(src);
        let shown = chapter.strip_prefix(src).unwrap_or(&chapter).display().to_string();
        for target in references(&text) {
            let file = normalize(&here.join(target));
            if !file.exists() {
                problems.push(format!("{shown}: {target} does not exist"));
            }
        }
        for (target, anchor) in links(&text) {
            let file = if target.is_empty() { chapter.clone() } else { normalize(&here.join(target)) };
            if !file.exists() {
                problems.push(format!("{shown}: link to {target}, which does not exist"));
            } else if let Some(anchor) = anchor
                && file.extension().is_some_and(|e| e == "md")
                && !heading_ids(&read(&file)?).contains(anchor)
            {
                problems.push(format!("{shown}: link to {target}#{anchor}, which has no such heading"));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error(format!("the book's sources have {} problem(s):\n  {}", problems.len(), problems.join("\n  "))))
    }
}

/// The files a chapter pulls in: `{{#include PATH}}` (with any `:lines` or
/// `:anchor` suffix removed), `{{#rustdoc_include PATH}}`, and images.
pub fn references(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for directive in ["{{#include ", "{{#rustdoc_include "] {
        let mut rest = text;
        while let Some(start) = rest.find(directive) {
            rest = &rest[start + directive.len()..];
            let Some(end) = rest.find("}}") else { break };
            let arg = rest[..end].trim();
            out.push(arg.split(':').next().unwrap_or(arg));
            rest = &rest[end..];
        }
    }
    let mut rest = text;
    while let Some(start) = rest.find("![") {
        rest = &rest[start + 2..];
        if let Some(close) = rest.find("](") {
            let after = &rest[close + 2..];
            if let Some(end) = after.find(')') {
                let target = after[..end].split_whitespace().next().unwrap_or("");
                if !target.is_empty() && !target.contains("://") {
                    out.push(target);
                }
            }
        }
    }
    out
}

/// Links to other files of the book (`[text](file.md#anchor)`), and to
/// anchors of the same page (`[text](#anchor)`): web links are not checked,
/// and neither are images (see [`references`]) or code spans.
pub fn links(text: &str) -> Vec<(&str, Option<&str>)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            let image = rest[..start].rfind("![").is_some_and(|i| !rest[i..start].contains(']'));
            rest = &rest[start + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            rest = &rest[end..];
            if image || target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target, None),
            };
            out.push((file, anchor));
        }
    }
    out
}

/// The ids mdBook gives a page's headings: lower case, spaces as hyphens,
/// punctuation other than `-` and `_` dropped, and `-1`, `-2` … on repeats.
/// Explicit `{#id}` attributes count as well.
pub fn heading_ids(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        if let Some(open) = title.rfind("{#")
            && let Some(id) = title[open + 2..].strip_suffix('}')
        {
            ids.insert(id.to_owned());
            continue;
        }
        let base: String = title
            .chars()
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c.to_lowercase().collect::<String>())
                } else if c.is_whitespace() {
                    Some("-".to_owned())
                } else {
                    None
                }
            })
            .collect();
        let mut id = base.clone();
        let mut k = 1;
        while ids.contains(&id) {
            id = format!("{base}-{k}");
            k += 1;
        }
        ids.insert(id);
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_includes_and_images() {
        let text = "a {{#include generated/sweep-64.md}} b {{#include ../kernels/src/x.rs:10:20}}\n![plot](generated/bench.svg)\n![web](https://x/y.png)";
        assert_eq!(references(text), ["generated/sweep-64.md", "../kernels/src/x.rs", "generated/bench.svg"]);
    }

    #[test]
    fn links_skip_the_web_images_and_code() {
        let text = "[a](setup.md) [b](appendix/glossary.md#ulp) [c](#here) [d](https://x) ![e](f.svg)\n```\n[g](nope.md)\n```\n";
        assert_eq!(links(text), [("setup.md", None), ("appendix/glossary.md", Some("ulp")), ("", Some("here"))]);
    }

    #[test]
    fn heading_ids_follow_mdbook() {
        let ids = heading_ids(
            "# Lesson 1: Three ways to sum\n## `red` and `atom`\n## Pitfalls\n## Pitfalls\n### Cold L2 {#cold}\n```\n# not a heading\n```\n",
        );
        let expected = ["lesson-1-three-ways-to-sum", "red-and-atom", "pitfalls", "pitfalls-1", "cold"];
        assert_eq!(ids, expected.iter().map(|s| (*s).to_owned()).collect());
    }

    #[test]
    fn normalize_resolves_parent_parts() {
        assert_eq!(normalize(Path::new("book/src/appendix/../generated/x.md")), Path::new("book/src/generated/x.md"));
    }
}
