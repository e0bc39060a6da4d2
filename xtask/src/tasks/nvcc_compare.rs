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

use std::path::PathBuf;

use xtask::{cccl, cub, nvcc, paths};

use super::host_binary;

/// Alternating rounds of rustc and nvcc runs.
const ROUNDS: usize = 5;

/// `nvcc-compare`'s flags. Paths default to places in the checkout.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Install the pinned CCCL headers (nvidia-cuda-cccl) under target/cccl
    /// with pip and stop; needs the network, not a GPU. The comparison
    /// itself never runs pip.
    #[arg(long, conflicts_with_all = ["host", "out", "cu", "cub_cu", "cccl", "sizes"])]
    pub install_only: bool,
    /// The host binary to time [default: a fresh release build of it].
    #[arg(long, value_name = "FILE")]
    pub host: Option<PathBuf>,
    /// Where the builds and nvcc-compare.json go [default: target/nvcc].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The page's kernels in CUDA C++ [default: xtask/nvcc/page_kernels.cu].
    #[arg(long, value_name = "FILE")]
    pub cu: Option<PathBuf>,
    /// CUB's DeviceReduce::Sum in each mode [default: xtask/nvcc/cub_sum.cu].
    #[arg(long, value_name = "FILE")]
    pub cub_cu: Option<PathBuf>,
    /// Build against the CCCL headers installed in this directory by
    /// --install-only [default: target/cccl]; without them, the toolkit's
    /// own CCCL, said so in one line.
    #[arg(long, value_name = "DIR")]
    pub cccl: Option<PathBuf>,
    /// The sizes (floats) of the CUB comparison [default: the reference run's
    /// bench-ladder sizes].
    // `Set`, not clap's `Append` for a list: a second --sizes replaces the
    // first, as a second of any other flag does.
    #[arg(long, value_name = "N,N", value_delimiter = ',', action = clap::ArgAction::Set)]
    pub sizes: Option<Vec<u64>>,
}

/// Runs the task.
pub fn run(args: &Args) -> super::Result {
    let root = paths::workspace_root();
    if args.install_only {
        let include = cccl::install(&cccl::dir(&root))?;
        println!("{}", include.display());
        return Ok(());
    }
    // A path given is taken as given (from the current directory); a default
    // is in the checkout.
    let given_or = |given: &Option<PathBuf>, default: PathBuf| given.clone().unwrap_or(default);
    let cccl_dir = given_or(&args.cccl, cccl::dir(&root));
    let out = given_or(&args.out, root.join("target/nvcc"));
    let cu = given_or(&args.cu, root.join("xtask/nvcc/page_kernels.cu"));
    let cub_cu = given_or(&args.cub_cu, root.join("xtask/nvcc/cub_sum.cu"));
    let sizes: Vec<String> = match &args.sizes {
        Some(list) => list.iter().map(u64::to_string).collect(),
        None => cub::sizes(),
    };
    let nvcc = paths::cuda_tool("nvcc")?;
    let host = host_binary(args.host.clone())?;
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
