//! `cargo xtask nvcc-compare [--host FILE] [--out DIR] [--cu FILE]`: see
//! [`xtask::nvcc`].

use xtask::{nvcc, paths};

use super::{Flags, cuda_tool, host_binary};

/// Alternating rounds of rustc and nvcc runs.
const ROUNDS: usize = 5;

/// Runs the task.
pub fn run(args: &[String]) -> super::Result {
    let flags = Flags::parse(args, &["--host", "--out", "--cu"])?;
    let root = paths::workspace_root();
    let out = flags.get("--out").unwrap_or_else(|| root.join("target/nvcc"));
    let cu = flags.get("--cu").unwrap_or_else(|| root.join("xtask/nvcc/page_kernels.cu"));
    let nvcc = cuda_tool("nvcc")?;
    let host = host_binary(flags.get("--host"))?;
    print!("{}", nvcc::compare(&nvcc, &host, &cu, &out, ROUNDS)?);
    Ok(())
}
