//! The command line: flags, their defaults, and their validation. Every check
//! that can be made without a GPU is made here, before anything runs.

use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use layout::histogram::MAX_BINS;

use crate::gpu::launch::Block;
use crate::gpu::publish::{FlagPlacement, PublishVariant};
use crate::input::{Distribution, Spread};
use crate::litmus::Preset;
use crate::litmus::environment::{Distance, Environment};
use crate::litmus::keys;
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

/// Launch, time and check GPU synchronization kernels written in Rust.
#[derive(Debug, Parser)]
#[command(name = "host", version, after_help = EXIT_CODES)]
pub struct Cli {
    /// Load kernels from this PTX file instead of the PTX built with the binary.
    #[arg(long, global = true, value_name = "FILE")]
    pub ptx: Option<PathBuf>,

    /// What to run.
    #[command(subcommand)]
    pub command: Command,
}

/// What each exit code means, printed under `--help` of the binary and of
/// every command.
pub const EXIT_CODES: &str = "Exit codes: 0 every check passed; 1 a check failed (a sum not bit-exact, a \
histogram count off, a stale record from a correct publish variant, a forbidden litmus outcome); 2 bad flags, an \
unusable data file or no CUDA device; 3 the environment failed (PTX that cannot be read or does not load, a driver \
error, an output file that cannot be written); 130 stopped by Ctrl-C (litmus, bench and accuracy first print what they \
measured, marked partial).";

impl Cli {
    /// The command line's definition, with [`EXIT_CODES`] under every
    /// command's `--help` as well as the binary's.
    pub fn definition() -> clap::Command {
        Cli::command().mut_subcommands(|command| command.after_help(EXIT_CODES))
    }

    /// Parses the process's arguments against [`Cli::definition`].
    pub fn try_parse_args() -> Result<Cli, clap::Error> {
        let mut matches = Cli::definition().try_get_matches()?;
        Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut Cli::definition()))
    }
}

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

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Sum one array three ways at several sizes, time each, check each sum
    /// bit for bit, then show how deterministic each kernel is.
    Sweep(SweepArgs),
    /// The page's exercise: the sweep at blocks 64, 256 and 1024, the nine
    /// ratios, the fastest columns and the bitwise check. No verdict.
    Exercise(ExerciseArgs),
    /// Publish a record from a producer to a consumer thread in five ways
    /// (release/acquire and relaxed in one block; release/acquire, relaxed
    /// and wrong scope across blocks) under stress, and count stale records.
    Publish(PublishArgs),
    /// Time every sum kernel at large sizes against the device's own copy
    /// bandwidth and an empty launch, with the spread of every timing.
    Bench(BenchArgs),
    /// Count values into bins with global atomics and with a privatized
    /// shared-memory histogram, timed, and checked exactly against the CPU.
    Histogram(HistogramArgs),
    /// How far each sum is from the exact one: every kernel (20 runs) and the
    /// usual CPU sums, on generated arrays or your own .npy file, in units in
    /// the last place of the exactly rounded sum.
    Accuracy(AccuracyArgs),
    /// Make weak memory behaviour visible: run the litmus suite (MP, SB, LB,
    /// CoRR, WRC, IRIW in every variant and placement) in the parallel
    /// testing environment, count each outcome on the GPU, and hold each
    /// count to the PTX memory model's verdict.
    Litmus(LitmusArgs),
    /// Run everything the book shows, with the settings of record, on the GPU
    /// found, and write each run's JSON and plot and a manifest.json (commit,
    /// GPU, driver, each command line, date, wall time) into DIR. Where
    /// compute-sanitizer is on PATH, every kernel runs under its four tools
    /// too. Render the book from DIR with `cargo xtask book --results DIR`.
    Evidence(EvidenceArgs),
    /// Print a result saved with `--format json` again, in another format or
    /// as a plot. Needs no GPU.
    Render(RenderArgs),
}

/// `evidence`'s flags.
#[derive(Debug, Args)]
pub struct EvidenceArgs {
    /// The directory to write into; it must be new or empty unless --force.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,

    /// Write into DIR even if it holds files (files of the same name are replaced).
    #[arg(long)]
    pub force: bool,

    /// Run only the steps whose names start with one of these, comma-separated
    /// (e.g. `sweep,sanitize-racecheck`); every step by default.
    #[arg(long, value_delimiter = ',', value_name = "STEP")]
    pub only: Vec<String>,
}

/// `render`'s flags.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// A file written by a command's `--format json`.
    #[arg(value_name = "FILE.json")]
    pub input: PathBuf,

    /// Where and how to write it.
    #[command(flatten)]
    pub output: OutputArgs,

    /// Also draw the record's plot, for the commands that have one.
    #[command(flatten)]
    pub plot: PlotArgs,
}

/// `litmus`'s flags. Every environment flag overrides the preset's value.
#[derive(Debug, Args)]
pub struct LitmusArgs {
    /// Tests, comma-separated; all six by default.
    #[arg(long, value_delimiter = ',', value_parser = keys::parser::<layout::litmus::Test>())]
    pub test: Vec<layout::litmus::Test>,

    /// Variants, comma-separated; every variant of each test by default.
    #[arg(long, value_delimiter = ',', value_parser = keys::parser::<layout::litmus::Variant>())]
    pub variant: Vec<layout::litmus::Variant>,

    /// Placements, comma-separated; both by default.
    #[arg(long, value_delimiter = ',', value_parser = keys::parser::<layout::Placement>())]
    pub placement: Vec<layout::Placement>,

    /// Run each (test, variant, placement) for at least this many instances.
    #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "seconds")]
    pub instances: u64,

    /// Run each (test, variant, placement) for this many seconds instead.
    #[arg(long, value_parser = parse_seconds)]
    pub seconds: Option<f64>,

    /// The testing environment to start from.
    #[arg(long, value_enum, default_value_t = Preset::Parallel)]
    pub preset: Preset,

    /// Threads per block: a power of two from 128 to 1024.
    #[arg(long, value_parser = parse_litmus_threads)]
    pub threads: Option<u32>,

    /// Blocks per launch, if fewer than fit on the device at once (at least 4):
    /// with --threads and --testing-percent, the instances per launch.
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=1_000_000))]
    pub blocks: Option<u32>,

    /// Percent of the blocks that test; the others stress memory.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub testing_percent: Option<u32>,

    /// Odd multiplier of the lane permutation that picks partners, from 1 to
    /// 1023.
    #[arg(long, value_parser = parse_lane_multiplier)]
    pub lane_multiplier: Option<u32>,

    /// Shuffle which hardware block plays which logical block.
    #[arg(long)]
    pub shuffle_blocks: Option<bool>,

    /// Where an instance's y sits relative to its x.
    #[arg(long, value_enum)]
    pub distance: Option<Distance>,

    /// What stressing threads do to their line.
    #[arg(long, value_parser = keys::parser::<layout::litmus::StressPattern>())]
    pub stress_pattern: Option<layout::litmus::StressPattern>,

    /// Iterations of the stress pattern per stressing thread.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub stress_iterations: Option<u32>,

    /// Words of each stress line the threads touch.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub stress_line_words: Option<u32>,

    /// Distinct stress lines.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub stress_lines: Option<u32>,

    /// Iterations of the stress pattern by each testing thread first.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub pre_stress_iterations: Option<u32>,

    /// Wait for every testing thread before the test.
    #[arg(long)]
    pub sync_start: Option<bool>,

    /// Read a location before the test so a stale copy sits in L1.
    #[arg(long, value_parser = keys::parser::<layout::litmus::Preload>())]
    pub preload: Option<layout::litmus::Preload>,

    /// The sequential control: a barrier between roles, intra-block only;
    /// every outcome but the one program order predicts fails the run.
    #[arg(long)]
    pub sequential: bool,

    /// Search this many random environments instead, and rank them per test
    /// by weak outcomes per second.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub tune: Option<u32>,

    /// Launches between two looks at the clock or the instance count.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub launches_per_check: u32,

    /// The seed of every random choice.
    #[arg(long, default_value_t = 26)]
    pub seed: u64,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

impl LitmusArgs {
    /// The environment: the preset, with every flag given on top.
    pub fn environment(&self) -> Environment {
        let mut e = self.preset.environment();
        let set = |field: &mut u32, value: Option<u32>| {
            if let Some(v) = value {
                *field = v;
            }
        };
        set(&mut e.threads, self.threads);
        set(&mut e.testing_percent, self.testing_percent);
        set(&mut e.lane_multiplier, self.lane_multiplier);
        set(&mut e.stress_iterations, self.stress_iterations);
        set(&mut e.stress_line_words, self.stress_line_words);
        set(&mut e.stress_lines, self.stress_lines);
        set(&mut e.pre_stress_iterations, self.pre_stress_iterations);
        e.blocks = self.blocks.or(e.blocks);
        e.shuffle_blocks = self.shuffle_blocks.unwrap_or(e.shuffle_blocks);
        e.distance = self.distance.unwrap_or(e.distance);
        e.stress_pattern = self.stress_pattern.unwrap_or(e.stress_pattern);
        e.sync_start = self.sync_start.unwrap_or(e.sync_start);
        e.preload = self.preload.unwrap_or(e.preload);
        e
    }
}

/// Parses `--seconds`: a positive number of seconds, at most an hour.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!("`{text}` is not a number of seconds above 0 and at most 3600")),
    }
}

/// Parses `litmus --threads`: a power of two from 128 (four warps, one per
/// role of IRIW) to 1024.
pub fn parse_litmus_threads(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(t) if t.is_power_of_two() && (128..=1024).contains(&t) => Ok(t),
        _ => Err(format!("`{text}` is not a power of two from 128 to 1024")),
    }
}

/// Parses `litmus --lane-multiplier`: an odd number from 1 to 1023. A role's
/// partner lane is `lane * multiplier^role` modulo the warp (intra-block) or
/// the block (inter-block), both powers of two, and multiplying modulo a power
/// of two permutes the lanes only when the multiplier is odd: an even one
/// would give some instances two threads of one role and others none.
pub fn parse_lane_multiplier(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(m) if m % 2 == 1 && m <= 1023 => Ok(m),
        Ok(m) if m % 2 == 0 && (1..=1023).contains(&m) => Err(format!(
            "{m} is even: partners sit at lane * multiplier^role modulo the warp or block size, a power of two, \
             which only an odd multiplier permutes"
        )),
        _ => Err(format!("`{text}` is not an odd number from 1 to 1023")),
    }
}

/// `accuracy`'s flags.
#[derive(Debug, Args)]
pub struct AccuracyArgs {
    /// Sum this file instead of generated arrays: a 1-D little-endian float32
    /// .npy array, or raw float32 words in a .f32 file. It is read and checked
    /// before the GPU is opened.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["spread", "sizes", "seed"])]
    pub input: Option<PathBuf>,

    /// Generated arrays, comma-separated (see the README for each).
    #[arg(long, value_delimiter = ',', default_values_t = Spread::ALL, value_enum)]
    pub spread: Vec<Spread>,

    /// Sizes of the generated arrays, comma-separated, from 1 to 2^29.
    #[arg(long, value_delimiter = ',', default_values_t = crate::accuracy::DEFAULT_SIZES, value_parser = parse_count)]
    pub sizes: Vec<usize>,

    /// The seed of every generated array.
    #[arg(long, default_value_t = crate::input::INEXACT_SEED)]
    pub seed: u64,

    /// Launches of each GPU kernel per array.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,

    /// Threads per block: a power of two from 32 to 1024.
    #[arg(long, default_value_t = Block::DEFAULT, value_parser = parse_block)]
    pub block: Block,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub plot: PlotArgs,
}

/// `publish`'s flags.
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// Launches per variant; each launch runs about 16384 producer/consumer
    /// pairs per SM (over 2 million on a 132-SM H200). `--iterations` is the
    /// flag's earlier name.
    #[arg(long, alias = "iterations", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub launches: u32,

    /// Run only these variants (comma-separated); all five by default.
    #[arg(long, value_delimiter = ',', value_parser = variant_parser())]
    pub variant: Vec<PublishVariant>,

    /// Producer/consumer rounds per pair and launch, instead of the default
    /// (1024 in one block, 2048 across blocks). Small values keep sanitizer
    /// runs short.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub rounds: Option<u32>,

    /// Each consumer's time budget per launch, in milliseconds, before its
    /// remaining waits are counted as timeouts.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub budget_ms: u64,

    /// Across blocks, where each round's flag sits: beside its payload in one
    /// 16-byte slot (the page's layout), or half the slots away, where the
    /// litmus suite saw stale reads.
    #[arg(long, value_enum, default_value_t = FlagPlacement::Apart)]
    pub flag: FlagPlacement,

    /// Across blocks, the consumer reads the payload once before it waits,
    /// leaving a possibly stale copy in its SM's L1.
    #[arg(long)]
    pub preload: bool,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

/// `--variant`'s values: the registry's variant names, each with its
/// placement, scope and ordering as help.
fn variant_parser() -> impl TypedValueParser<Value = PublishVariant> {
    let names = PublishVariant::all().map(|v| {
        let ordering = v.ordering.text();
        PossibleValue::new(v.name).help(format!("{}, {ordering}, {}", v.placement.text(), v.scope.text()))
    });
    PossibleValuesParser::new(names)
        .map(|name| PublishVariant::all().find(|v| v.name == name).expect("clap accepted only registry names"))
}

/// `bench`'s flags.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Array sizes, comma-separated, from 1 to 2^31 (8 GiB). The input is
    /// sparse enough that every sum stays exact.
    #[arg(long, value_delimiter = ',', default_values_t = crate::bench::DEFAULT_SIZES, value_parser = parse_bench_size)]
    pub sizes: Vec<usize>,

    /// Threads per block: a power of two from 32 to 1024.
    #[arg(long, default_value_t = Block::DEFAULT, value_parser = parse_block)]
    pub block: Block,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub timing: TimingArgs,

    /// Flush the L2 cache before every timed launch.
    #[arg(long)]
    pub cold: bool,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub plot: PlotArgs,
}

/// The largest input the bench takes: 2^31 floats, 8 GiB.
pub const MAX_BENCH_N: usize = 1 << 31;

/// Parses one `bench --sizes` entry: a whole number from 1 to 2^31. Every such
/// size has an exact sparse input ([`reference::fits_exactly_sparse`]).
pub fn parse_bench_size(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().replace('_', "").parse().map_err(|_| format!("`{text}` is not a whole number"))?;
    if (1..=MAX_BENCH_N).contains(&n) && reference::fits_exactly_sparse(n) {
        Ok(n)
    } else {
        Err(format!("{n} is not between 1 and 2^31 (8 GiB of floats)"))
    }
}

/// `histogram`'s flags.
#[derive(Debug, Args)]
pub struct HistogramArgs {
    /// Number of bins, from 1 to 12288 (48 KiB of shared memory).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_BINS)))]
    pub bins: u32,

    /// Threads per block: a power of two from 32 to 1024.
    #[arg(long, default_value_t = Block::DEFAULT, value_parser = parse_block)]
    pub block: Block,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub timing: TimingArgs,

    /// Input sizes, comma-separated, from 1 to 2^29.
    #[arg(long, value_delimiter = ',', default_values_t = [65_536usize, 1_048_576, 16_777_216], value_parser = parse_count)]
    pub sizes: Vec<usize>,

    /// Input distributions, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [Distribution::Uniform, Distribution::OneBin], value_enum)]
    pub distribution: Vec<Distribution>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

/// `sweep`'s flags.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Threads per block: a power of two from 32 to 1024.
    #[arg(long, default_value_t = Block::DEFAULT, value_parser = parse_block)]
    pub block: Block,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub timing: TimingArgs,

    /// Array sizes, comma-separated; each at least 1 and small enough that the
    /// exact sum stays below 2^24.
    #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_SIZES, value_parser = parse_size)]
    pub sizes: Vec<usize>,

    /// Runs per kernel in the determinism table (0 leaves the table out).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub determinism_runs: u32,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub plot: PlotArgs,
}

/// `exercise`'s flags.
#[derive(Debug, Args)]
pub struct ExerciseArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub timing: TimingArgs,

    /// Array sizes, comma-separated; the ratios use the largest.
    #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_SIZES, value_parser = parse_size)]
    pub sizes: Vec<usize>,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub plot: PlotArgs,
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("host").chain(args.iter().copied()))
    }

    fn sweep(args: &[&str]) -> SweepArgs {
        match parse(args).unwrap().command {
            Command::Sweep(a) => a,
            other => panic!("parsed as {other:?}"),
        }
    }

    #[test]
    fn the_cli_definition_is_consistent() {
        Cli::command().debug_assert();
        Cli::definition().debug_assert();
    }

    #[test]
    fn sweep_defaults_are_the_issue_s() {
        let a = sweep(&["sweep"]);
        assert_eq!(a.block.threads(), 256);
        assert_eq!((a.timing.runs, a.timing.warmup), (10, 3));
        assert_eq!(a.sizes, DEFAULT_SIZES);
    }

    #[test]
    fn sizes_parse_as_a_comma_list() {
        assert_eq!(sweep(&["sweep", "--sizes", "1,31,4_097"]).sizes, [1, 31, 4097]);
    }

    #[test]
    fn bad_values_name_the_flag_and_the_reason() {
        for (args, flag, reason) in [
            (&["sweep", "--block", "48"][..], "--block", "48 is not a power of two from 32 to 1024"),
            (&["sweep", "--block", "2048"], "--block", "2048 is not a power of two"),
            (&["sweep", "--block", "x"], "--block", "`x` is not a whole number"),
            (&["sweep", "--sizes", "0"], "--sizes", "at least 1"),
            (&["sweep", "--sizes", ""], "--sizes", "not a whole number"),
            (&["sweep", "--sizes", "10000000"], "--sizes", "could reach 2^24"),
            (&["sweep", "--runs", "0"], "--runs", "0 is not in 1..=10000"),
            (&["publish", "--launches", "0"], "--launches", "0 is not in 1..=100000"),
            (&["histogram", "--bins", "0"], "--bins", "0 is not in 1..=12288"),
            (&["histogram", "--bins", "20000"], "--bins", "20000 is not in 1..=12288"),
            (&["histogram", "--sizes", "0"], "--sizes", "0 is not between 1 and 2^29"),
            (&["bench", "--sizes", "2147483649"], "--sizes", "not between 1 and 2^31"),
            (&["bench", "--block", "100"], "--block", "not a power of two"),
            (&["histogram", "--distribution", "zipf"], "--distribution", "zipf"),
            (&["litmus", "--test", "dekker"], "--test", "dekker"),
            (&["litmus", "--threads", "64"], "--threads", "not a power of two from 128"),
            (&["litmus", "--seconds", "0"], "--seconds", "above 0"),
            (&["litmus", "--lane-multiplier", "2"], "--lane-multiplier", "2 is even"),
            (&["litmus", "--lane-multiplier", "0"], "--lane-multiplier", "not an odd number from 1 to 1023"),
            (&["litmus", "--lane-multiplier", "1025"], "--lane-multiplier", "not an odd number from 1 to 1023"),
            (&["litmus", "--instances", "5", "--seconds", "1"], "--instances", "cannot be used with"),
        ] {
            let message = parse(args).unwrap_err().to_string();
            let first = message.lines().next().unwrap();
            assert!(first.contains(flag) && first.contains(reason), "{args:?}: {first}");
        }
    }

    #[test]
    fn publish_takes_registry_names_and_the_old_launches_flag() {
        let Command::Publish(a) =
            parse(&["publish", "--iterations", "7", "--variant", "grid-wrong-scope,block-relaxed"]).unwrap().command
        else {
            panic!("not publish");
        };
        assert_eq!(a.launches, 7);
        assert_eq!(
            a.variant,
            [
                PublishVariant::of(&layout::publish::GRID_WRONG_SCOPE),
                PublishVariant::of(&layout::publish::BLOCK_RELAXED)
            ]
        );
    }

    #[test]
    fn an_odd_lane_multiplier_reaches_the_kernel_as_given() {
        let Command::Litmus(a) = parse(&["litmus", "--lane-multiplier", "5"]).unwrap().command else {
            panic!("not litmus");
        };
        let params = a.environment().params(layout::litmus::Test::Mp, layout::Placement::IntraBlock, 8, false, 1);
        assert_eq!(params.lane_multiplier, 5);
    }

    #[test]
    fn the_largest_exact_size_is_accepted_and_the_next_refused() {
        assert_eq!(parse_size("5592405"), Ok(5_592_405));
        assert!(parse_size("5592406").is_err());
    }
}
