//! `cargo xtask sanitize [--host FILE] [--out DIR]`: see [`xtask::sanitize`].

use xtask::{paths, sanitize};

use super::{Flags, cuda_tool, host_binary};

/// Runs the task.
pub fn run(args: &[String]) -> super::Result {
    let flags = Flags::parse(args, &["--host", "--out"])?;
    let out = flags.get("--out").unwrap_or_else(|| paths::workspace_root().join("target/sanitizer"));
    let sanitizer = cuda_tool("compute-sanitizer")?;
    let host = host_binary(flags.get("--host"))?;
    print!("{}", sanitize::run(&sanitizer, &host, &out)?);
    println!("logs: {}", out.display());
    Ok(())
}
