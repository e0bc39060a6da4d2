//! `cargo xtask book [--results DIR] [--open]`: generate the book's tables,
//! plots and listings from a results directory (see [`xtask::book`]), check
//! its sources, and build it with the pinned mdBook into `target/book/`.

use std::path::PathBuf;

use xtask::{Error, book, mdbook, paths, ptx, ptxas, sass};

use super::Flags;

/// The reference run the book shows by default.
pub const REFERENCE: &str = "results/h200";

/// Runs the task.
pub fn run(args: &[String]) -> super::Result {
    let flags = Flags::parse(args, &["--results"])?;
    let root = paths::workspace_root();
    let (results, strict) = match flags.path("--results") {
        Some(dir) => (dir, false),
        None => (root.join(REFERENCE), true),
    };
    if !results.is_dir() {
        return Err(Error(format!(
            "{} is not a directory of results (make one with `host evidence DIR`)",
            results.display()
        )));
    }
    let cargo = super::cargo();
    let mdbook = mdbook::find_or_install(&root, cargo.as_os_str())?;
    let host = super::host_binary(None)?;
    let sass_page = || page_sass(&root);
    let sources =
        book::Sources { results: &results, host: &host, strict, xtask_usage: crate::USAGE, sass_page: &sass_page };
    let src = root.join("book/src");
    for warning in book::generate(&src, &sources)? {
        eprintln!("warning: {warning}");
    }
    book::check(&src)?;
    let index = book::build(&mdbook, &root.join("book"), &root)?;
    println!("{}", index.display());
    Ok(())
}

/// The synchronizing SASS of the page's kernels for sm_90, with their
/// resources, as `cargo xtask sass` summarizes it.
fn page_sass(root: &std::path::Path) -> Result<String, Error> {
    let ptx_file: PathBuf = ptx::build(root, &super::cargo())?.base;
    let ptxas = ptxas::find_or_install(root)?;
    let cuobjdump = ptxas::find_tool(root, "cuobjdump")
        .ok_or_else(|| Error("cuobjdump not found after installing it".to_owned()))?;
    let (text, resources) = sass::disassemble(&ptxas, &cuobjdump, &ptx_file, "sm_90", &root.join("target/sass"))?;
    let mut out = String::from("$ cargo xtask sass --arch sm_90 (summary of the page's kernels)\n");
    // The page's three kernels, as the registry marks them.
    let on_page = |symbol: &str| layout::sum::KERNELS.iter().any(|k| k.on_page && k.entry.symbol == symbol);
    for s in sass::summarize(&text).iter().filter(|s| on_page(&s.kernel)) {
        out.push_str(&format!("{}\n    resources: {}\n", s.line(), sass::resources_of(&resources, &s.kernel)));
    }
    Ok(out)
}
