//! The flags several commands share and the parsers of sizes and blocks:
//! what a command's `args.rs` flattens into its own flags. It sits below the
//! commands and knows none of them; the top-level command line is
//! [`crate::cli`].

use std::path::PathBuf;

use clap::Args;

use crate::launch::Block;
use crate::reference;
use crate::report::Format;

// ANCHOR: default_sizes
/// The page's five sizes, from 4,096 to 4,194,304 elements.
pub const DEFAULT_SIZES: [usize; 5] = [4096, 65_536, 262_144, 1_048_576, 4_194_304];

// The page's static_assert: raising a default size past the exact-sum limit
// fails the build, not a run.
const _: () = {
    let mut i = 0;
    while i < DEFAULT_SIZES.len() {
        assert!(reference::fits_exactly(DEFAULT_SIZES[i]), "a default size breaks the exact-sum rule");
        i += 1;
    }
};
// ANCHOR_END: default_sizes

/// How often each kernel is launched: the page's warm-ups and timed runs.
#[derive(Debug, Args)]
pub struct TimingArgs {
    /// Timed launches per kernel and size.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub runs: u32,

    /// Untimed launches before the timed ones.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub warmup: u32,
}

/// Where and how a command writes its results.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// How to write the results.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Write the results to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The plot a command can draw.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// Also draw a plot to this SVG file: GB/s against n, one line per kernel
    /// (for `accuracy`: the worst error against n, one panel per spread).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}
/// The largest input the bench takes: 2^31 floats, 8 GiB.
pub const MAX_BENCH_N: usize = 1 << 31;

/// Parses one `bench --sizes` entry: a whole number from 1 to 2^31. Every such
/// size has an exact sparse input ([`input::fits_exactly_sparse`](crate::input::fits_exactly_sparse)).
pub fn parse_bench_size(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().replace('_', "").parse().map_err(|_| format!("`{text}` is not a whole number"))?;
    if (1..=MAX_BENCH_N).contains(&n) && crate::input::fits_exactly_sparse(n) {
        Ok(n)
    } else {
        Err(format!("{n} is not between 1 and 2^31 (8 GiB of floats)"))
    }
}

/// Parses `--block`.
pub fn parse_block(text: &str) -> Result<Block, String> {
    let threads: u32 = text.trim().parse().map_err(|_| format!("`{text}` is not a whole number"))?;
    Block::new(threads).map_err(|e| e.to_string())
}

/// Parses one `--sizes` entry: a positive integer (underscores allowed) whose
/// exact sum cannot reach 2^24.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().replace('_', "").parse().map_err(|_| format!("`{text}` is not a whole number"))?;
    if n == 0 {
        return Err("a size must be at least 1".to_owned());
    }
    if !reference::fits_exactly(n) {
        return Err(format!(
            "n = {n} is too large: its exact sum could reach 2^24, where float addition stops being exact \
             (the largest allowed n is {})",
            reference::MAX_EXACT_N
        ));
    }
    Ok(n)
}

/// The largest input the histogram and the bench accept: 2^29 elements
/// (2 GiB), further limited by each command's exactness rule.
pub const MAX_COUNT: usize = 1 << 29;

// Every sum kernel takes every size the CLI accepts (the bench's are the
// largest), so a launch never has to refuse one.
const _: () = {
    assert!(MAX_BENCH_N >= MAX_COUNT);
    let mut i = 0;
    while i < layout::sum::KERNELS.len() {
        assert!(layout::sum::KERNELS[i].max_n >= MAX_BENCH_N, "a sum kernel cannot take the CLI's largest size");
        i += 1;
    }
};

/// Parses a whole number from 1 to [`MAX_COUNT`].
pub fn parse_count(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().replace('_', "").parse().map_err(|_| format!("`{text}` is not a whole number"))?;
    if (1..=MAX_COUNT).contains(&n) { Ok(n) } else { Err(format!("{n} is not between 1 and 2^29")) }
}
