//! `cargo xtask nvcc-compare [--host FILE] [--out DIR] [--cu FILE] [--cub-cu FILE]
//! [--cccl DIR] [--sizes N,N,...]`: the page's kernels compiled by rustc and by nvcc (see
//! [`xtask::nvcc`]), then every lab sum beside CUB's `DeviceReduce::Sum`
//! in each of its modes, and CUB's accuracy on the accuracy command's arrays
//! (see [`xtask::cub`]), in one run.
//!
//! `cargo xtask nvcc-compare --install-only` installs the pinned CCCL headers
//! under `target/cccl` ([`xtask::cccl`]) and stops: it needs pip and the
//! network, not a GPU. The comparison itself never runs pip: it uses that
//! folder (or `--cccl DIR`, for a binary run outside the checkout it was
//! built in) if it is there, and otherwise says so in one line and builds
//! against the toolkit's own CCCL.

use xtask::{cccl, cub, nvcc, paths};

use super::{Flags, cuda_tool, host_binary};

/// Alternating rounds of rustc and nvcc runs.
const ROUNDS: usize = 5;

/// The flag that installs the headers and stops; it takes no value.
const INSTALL_ONLY: &str = "--install-only";

/// Runs the task.
pub fn run(args: &[String]) -> super::Result {
    let root = paths::workspace_root();
    if args.iter().any(|a| a == INSTALL_ONLY) {
        if args.len() > 1 {
            return Err(xtask::Error(format!("{INSTALL_ONLY} takes no other flag")));
        }
        let include = cccl::install(&cccl::dir(&root))?;
        println!("{}", include.display());
        return Ok(());
    }
    let flags = Flags::parse(args, &["--host", "--out", "--cu", "--cub-cu", "--cccl", "--sizes"])?;
    let cccl_dir = flags.path("--cccl").unwrap_or_else(|| cccl::dir(&root));
    let out = flags.path("--out").unwrap_or_else(|| root.join("target/nvcc"));
    let cu = flags.path("--cu").unwrap_or_else(|| root.join("xtask/nvcc/page_kernels.cu"));
    let cub_cu = flags.path("--cub-cu").unwrap_or_else(|| root.join("xtask/nvcc/cub_sum.cu"));
    let sizes: Vec<String> = match flags.list::<u64>("--sizes", "a number of floats")? {
        Some(list) => list.iter().map(u64::to_string).collect(),
        None => cub::sizes(),
    };
    let nvcc = cuda_tool("nvcc")?;
    let host = host_binary(flags.path("--host"))?;
    let headers = cccl::find(&cccl_dir);
    println!("{}", headers.line());
    let page = nvcc::compare(&nvcc, &host, &cu, &out, ROUNDS)?;
    print!("{}", page.report());
    println!();
    let cub = cub::compare(&nvcc, &host, &cub_cu, &out, &sizes, &headers)?;
    print!("{}", cub.table());
    if let Some(table) = cub.accuracy_table() {
        println!("\nCUB on the accuracy command's arrays:\n{table}");
    }
    // The book renders these tables from this file (`cargo xtask book`).
    let json = out.join("nvcc-compare.json");
    let text = serde_json::to_string_pretty(&nvcc::Comparison { page, cub }).expect("the comparison serializes");
    std::fs::write(&json, text + "\n").map_err(|e| xtask::Error(format!("cannot write {}: {e}", json.display())))?;
    println!("\nwritten: {}", json.display());
    Ok(())
}
