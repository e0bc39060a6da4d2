//! `accuracy`'s command line, and how it runs.

use std::path::PathBuf;

use clap::Args;

use super::{AccuracyOptions, AccuracyReport, Data};
use crate::commands::{Command, Output, Written, progress};
use crate::data_file;
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::sum::SumKernels;
use crate::input::{self, Spread};
use crate::launch::Block;
use crate::options::{OutputArgs, PlotArgs, parse_block, parse_count};
use crate::report::Checks;

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
    #[arg(long, value_delimiter = ',', default_values_t = super::DEFAULT_SIZES, value_parser = parse_count)]
    pub sizes: Vec<usize>,

    /// The seed of every generated array.
    #[arg(long, default_value_t = crate::input::INEXACT_SEED)]
    pub seed: u64,

    /// Write the generated arrays (every `--spread` at every `--sizes`, from
    /// `--seed`) into DIR as raw little-endian float32 files named
    /// SPREAD-N.f32, which `--input` reads back, print each file's path, and
    /// stop: no GPU is opened. `cargo xtask nvcc-compare` sums them with CUB.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["input", "output", "plot"])]
    pub save_arrays: Option<PathBuf>,

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

impl From<&AccuracyArgs> for AccuracyOptions {
    fn from(args: &AccuracyArgs) -> AccuracyOptions {
        let data = match &args.input {
            Some(path) => Data::File(path.clone()),
            None => Data::Generated { spreads: args.spread.clone(), sizes: args.sizes.clone(), seed: args.seed },
        };
        AccuracyOptions { data, block: args.block, runs: args.runs as usize }
    }
}

impl Command for AccuracyArgs {
    type Device = Gpu;
    const STOPS_AT_CHECKS: bool = true;
    /// The values of `--input`, read and checked before the GPU is opened.
    type Checked = Option<Vec<f32>>;
    type Output = Written<AccuracyReport>;

    fn check(&self) -> Result<Option<Vec<f32>>, LabError> {
        // A user's data file is read and checked before the GPU is opened, so
        // a wrong file is reported the same way on every machine, at once.
        self.input
            .as_ref()
            .map(|path| {
                data_file::load(path).map_err(|e| LabError::DataFile { path: path.clone(), reason: e.to_string() })
            })
            .transpose()
    }

    fn run(self, file_values: Option<Vec<f32>>, gpu: &Gpu) -> Result<Written<AccuracyReport>, LabError> {
        let options = AccuracyOptions::from(&self);
        let kernels = SumKernels::load(gpu)?;
        let report = super::run(&kernels, &options, file_values.as_deref(), &progress(&self.output))?;
        Ok(Written::run(gpu, report, self.output, Some(self.plot)))
    }
}

/// `accuracy --save-arrays DIR`: the generated arrays written to files, with
/// no GPU opened.
#[derive(Debug)]
pub struct SaveArrays {
    /// Where the files go.
    pub dir: PathBuf,
    /// The spreads, each at every size.
    pub spreads: Vec<Spread>,
    /// The sizes.
    pub sizes: Vec<usize>,
    /// The seed of every array.
    pub seed: u64,
}

impl SaveArrays {
    /// The save that `args` asks for, if it names a `--save-arrays` folder.
    pub fn of(args: &AccuracyArgs) -> Option<SaveArrays> {
        let dir = args.save_arrays.clone()?;
        Some(SaveArrays { dir, spreads: args.spread.clone(), sizes: args.sizes.clone(), seed: args.seed })
    }

    /// The file of `spread` at `n` inside `dir`: `SPREAD-N.f32`.
    pub fn file(dir: &std::path::Path, spread: Spread, n: usize) -> PathBuf {
        dir.join(format!("{}-{n}.f32", spread.name()))
    }
}

/// The files [`SaveArrays`] wrote, in spread-then-size order.
#[derive(Debug)]
pub struct Saved(pub Vec<PathBuf>);

impl Command for SaveArrays {
    type Device = ();
    type Checked = ();
    type Output = Saved;

    fn run(self, (): (), (): &()) -> Result<Saved, LabError> {
        let failed = |path: &std::path::Path, e: std::io::Error| LabError::Output {
            path: path.to_path_buf(),
            reason: e.to_string(),
        };
        std::fs::create_dir_all(&self.dir).map_err(|e| failed(&self.dir, e))?;
        let mut written = Vec::new();
        for &spread in &self.spreads {
            for &n in &self.sizes {
                let path = SaveArrays::file(&self.dir, spread, n);
                // Little-endian whatever the host, as data_file::load reads
                // a .f32 file and as CUDA hosts store floats.
                let bytes: Vec<u8> = input::spread(spread, n, self.seed).iter().flat_map(|v| v.to_le_bytes()).collect();
                std::fs::write(&path, bytes).map_err(|e| failed(&path, e))?;
                written.push(path);
            }
        }
        Ok(Saved(written))
    }
}

impl Output for Saved {
    fn emit(&self) -> Result<(), LabError> {
        let lines: String = self.0.iter().map(|path| format!("{}\n", path.display())).collect();
        crate::commands::print(&lines)
    }

    fn checks(&self) -> Checks {
        Checks::none()
    }

    fn partial(&self) -> bool {
        false
    }
}
